import {
  createInMemoryPostRepository,
  createInMemoryUserRepository,
  type PostRepository,
  type UserRepository,
} from '@inkwell/domain';
import { MEMORY_DB_URL, type Config } from './config.js';

/** The repositories of one store, with what start-up, health and shutdown need of it. */
export interface Store {
  readonly users: UserRepository;
  readonly posts: PostRepository;
  /** How the listening line names it: `memory` or `mongodb (DB_NAME)`. */
  readonly label: string;
  /** Whether the store answers now; cheap enough for a health check every second. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The store could not be opened; `message` is the one line main prints, with the URL's password redacted. */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError';
}

/** Opens the store `DB_URL` selects: in-memory for `memory:`, otherwise MongoDB (connected and indexed). */
export async function openStore(config: Config): Promise<Store> {
  if (config.dbUrl === MEMORY_DB_URL) return openMemoryStore();

  // Loaded only for MongoDB: the driver costs ~120 ms of start-up and ~20 MB of memory (BSON
  // allocates a 17 MB buffer on import) that the in-memory store has no use for (issue 6).
  const { MongoPostRepository, MongoUserRepository, connectMongo, ensureIndexes, redactMongoUrl } = await import(
    '@inkwell/adapters-mongo'
  );
  let connection;
  try {
    connection = await connectMongo({ url: config.dbUrl, database: config.dbDatabase });
    await ensureIndexes(connection.db);
  } catch (error) {
    await connection?.close();
    const reason = withoutPassword(error instanceof Error ? `${error.name}: ${error.message}` : String(error), config.dbUrl);
    throw new StoreStartError(
      `cannot reach MongoDB at ${redactMongoUrl(config.dbUrl)} (${reason}). ` +
        'Start MongoDB or set DB_URL to a reachable server, or run `pnpm dev` to use the in-memory store.',
      { cause: error },
    );
  }
  return {
    users: new MongoUserRepository(connection.db),
    posts: new MongoPostRepository(connection.db),
    label: `mongodb (${config.dbDatabase})`,
    ping: () => connection.ping(),
    close: () => connection.close(),
  };
}

function openMemoryStore(): Store {
  return {
    users: createInMemoryUserRepository(),
    posts: createInMemoryPostRepository(),
    label: 'memory',
    ping: async () => true,
    close: async () => undefined,
  };
}

/** Removes the URL's password from a driver message, in case the driver quoted the URL. */
function withoutPassword(text: string, url: string): string {
  const password = /^[^:]+:\/\/[^:@/]*:([^@/]+)@/.exec(url)?.[1];
  return password ? text.split(password).join('***') : text;
}

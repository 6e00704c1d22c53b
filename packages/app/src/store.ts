import {
  createInMemoryAttemptLimiter,
  createInMemoryPostRepository,
  createInMemoryUserRepository,
  type AttemptLimiter,
  type Clock,
  type PostAccessMode,
  type PostRepository,
  type UserRepository,
} from '@inkwell/domain';
import { createHmac } from 'node:crypto';
import { MEMORY_DB_URL, type Config } from './config.js';
import { redactUrlPasswords } from './redact-url-passwords.js';

/** One abuse rule: its name (which keeps its counts apart from the other rules'), limit and window. */
export interface LimitRule {
  readonly rule: string;
  readonly max: number;
  readonly windowSeconds: number;
}

/** The repositories and limits of one store, with what start-up, health and shutdown need of it. */
export interface Store {
  readonly users: UserRepository;
  readonly posts: PostRepository;
  /**
   * A limiter for one rule, counting where the store keeps its data: in this process for the
   * memory store, in the database for MongoDB, so that every process on it counts together.
   */
  attemptLimiter(rule: LimitRule, clock: Clock): AttemptLimiter;
  /** How the listening line names it: `memory` or `mongodb (DB_NAME)`. */
  readonly label: string;
  /**
   * The posts access mode (`POSTS_ACCESS`) its data was served with before this process opened
   * it; null when nothing says (a new memory store, a database no process has served yet).
   */
  readonly previousPostsAccess: PostAccessMode | null;
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
  if (config.dbUrl === MEMORY_DB_URL) return memoryStore();

  // Loaded only for MongoDB: the driver costs ~120 ms of start-up and ~20 MB of memory (BSON
  // allocates a 17 MB buffer on import) that the in-memory store has no use for.
  const { connectMongo, ensureIndexes, recordPostsAccess } = await import('@inkwell/adapters-mongo');
  const { mongoStore } = await import('./mongo-store.js');
  let connection;
  let previousPostsAccess;
  try {
    connection = await connectMongo({ url: config.dbUrl, database: config.dbDatabase });
    await ensureIndexes(connection.db);
    previousPostsAccess = await recordPostsAccess(connection.db, config.postsAccess, Date.now());
  } catch (error) {
    await connection?.close();
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new StoreStartError(
      redactUrlPasswords(`cannot reach MongoDB at ${config.dbUrl} (${reason}). `) +
        'Start MongoDB or set DB_URL to a reachable server, or run `pnpm dev` to use the in-memory store.',
      { cause: error },
    );
  }
  const open = connection;
  return { ...mongoStore(open.db, limitKeySecret(config.jwtSecret), previousPostsAccess), close: () => open.close() };
}

/** A new in-memory store: users, posts and limits in this process, lost when it stops. */
export function memoryStore(): Store {
  return {
    users: createInMemoryUserRepository(),
    posts: createInMemoryPostRepository(),
    attemptLimiter: ({ max, windowSeconds }, clock) => createInMemoryAttemptLimiter({ max, windowSeconds, clock }),
    label: 'memory',
    previousPostsAccess: null,
    ping: async () => true,
    close: async () => undefined,
  };
}

/**
 * The HMAC key under which the MongoDB limiter stores its keys (e-mails, addresses). Derived from
 * the signing secret, which every instance of one service already shares, under a label of its
 * own so the two uses never share a key.
 */
export function limitKeySecret(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('inkwell attempt-limit keys').digest();
}

import type { Logger } from '@inkwell/adapters-http';
import { createHmac } from 'node:crypto';
import { MEMORY_DB_URL, type Config } from './config.js';
import { redactUrlPasswords } from './redact-url-passwords.js';
import { memoryStore, type Store } from './store.js';

/** The store could not be opened; `message` is the one line main prints, with the URL's password redacted. */
export class StoreStartError extends Error {
  override readonly name = 'StoreStartError';
}

/**
 * Opens the store `DB_URL` selects: in-memory for `memory:`, otherwise MongoDB (connected and
 * indexed). `logger` hears of mail the MongoDB outbox had to drop (its token sealed under another
 * `JWT_SECRET`).
 */
export async function openStore(config: Config, logger?: Logger): Promise<Store> {
  if (config.dbUrl === MEMORY_DB_URL) return memoryStore();

  // Loaded only for MongoDB: the driver costs ~120 ms of start-up and ~20 MB of memory (BSON
  // allocates a 17 MB buffer on import) that the in-memory store has no use for.
  const { connectMongo, ensureIndexes, recordPostsAccess } = await import('@inkwell/adapters-mongo');
  const { mongoStore, outboxTokenKey } = await import('./mongo-store.js');
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
  const outbox = {
    tokenKey: outboxTokenKey(config.jwtSecret),
    onUnreadable: (message: { id: string; kind: string }) =>
      logger?.error({ messageId: message.id, kind: message.kind }, 'mail: dropped, its link was sealed under another JWT_SECRET and cannot be opened'),
  };
  return { ...mongoStore(open.db, limitKeySecret(config.jwtSecret), previousPostsAccess, outbox), close: () => open.close() };
}

/**
 * The HMAC key under which the MongoDB limiter stores its keys (e-mails, addresses). Derived from
 * the signing secret, which every instance of one service already shares, under a label of its
 * own so the two uses never share a key.
 */
export function limitKeySecret(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('inkwell attempt-limit keys').digest();
}

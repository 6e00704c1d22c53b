import {
  answerTimeoutMs,
  MongoAttemptLimiter,
  MongoIdempotencyStore,
  MongoOutbox,
  MongoPostRepository,
  MongoUserRepository,
  pingDatabase,
  type MongoDb,
  type MongoOutboxOptions,
} from '@inkwell/adapters-mongo';
import { createHmac } from 'node:crypto';
import type { PostAccessMode } from '@inkwell/domain';
import type { Store } from './store.js';

/**
 * The store over an open MongoDB database, set up (connected, indexed): users, posts, idempotency
 * keys, every abuse limit and the outbox in it.
 * Its `ping` asks the database; its `close` leaves the client to whoever opened it. Imported only
 * when MongoDB is used (see store.ts). The outbox seals tokens under `outbox.tokenKey`, derived
 * from the limit key secret when not given (tests); a server derives it from `JWT_SECRET`.
 */
export function mongoStore(
  db: MongoDb,
  limitKeySecret: Uint8Array | string,
  previousPostsAccess: PostAccessMode | null = null,
  outbox: MongoOutboxOptions = { tokenKey: outboxTokenKey(limitKeySecret) },
): Store {
  return {
    users: new MongoUserRepository(db),
    posts: new MongoPostRepository(db),
    idempotencyKeys: new MongoIdempotencyStore(db),
    outbox: new MongoOutbox(db, outbox),
    attemptLimiter: (rule, clock) => new MongoAttemptLimiter(db, { ...rule, clock, keySecret: limitKeySecret }),
    label: `mongodb (${db.databaseName})`,
    previousPostsAccess: Promise.resolve(previousPostsAccess),
    reachedAtStart: true,
    ping: () => pingDatabase(db),
    answerTimeoutMs: answerTimeoutMs(db),
    close: async () => undefined,
  };
}

/**
 * The AES-256 key under which the MongoDB outbox seals the tokens of mail waiting for delivery.
 * Derived from the signing secret, which every instance of one service already shares, under a
 * label of its own so that no two uses share a key.
 */
export function outboxTokenKey(secret: Uint8Array | string): Buffer {
  return createHmac('sha256', secret).update('inkwell outbox tokens').digest();
}

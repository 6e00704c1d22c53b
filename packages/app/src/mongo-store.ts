import { MongoAttemptLimiter, MongoPostRepository, MongoUserRepository, pingDatabase, type MongoDb } from '@inkwell/adapters-mongo';
import type { PostAccessMode } from '@inkwell/domain';
import type { Store } from './store.js';

/**
 * The store over an open MongoDB database: users, posts and every abuse limit in it. Its `ping`
 * asks the database; its `close` leaves the client to whoever opened it. Imported only when
 * MongoDB is used (see store.ts).
 */
export function mongoStore(db: MongoDb, limitKeySecret: Uint8Array | string, previousPostsAccess: PostAccessMode | null = null): Store {
  return {
    users: new MongoUserRepository(db),
    posts: new MongoPostRepository(db),
    attemptLimiter: (rule, clock) => new MongoAttemptLimiter(db, { ...rule, clock, keySecret: limitKeySecret }),
    label: `mongodb (${db.databaseName})`,
    previousPostsAccess,
    ping: () => pingDatabase(db),
    close: async () => undefined,
  };
}

import type { MongoDb } from '@inkwell/adapters-mongo';
import { mongoStore } from '../mongo-store.js';
import type { Store } from '../store.js';

/** The key the test stores hash their limit keys with. */
export const TEST_LIMIT_KEY_SECRET = 'inkwell-test-limit-keys';

/**
 * The MongoDB store over a test database, after deleting every user, post and limit window in
 * it (indexes are kept, since uniqueness depends on them). Closing it leaves the test's client open.
 */
export async function emptyMongoStore(db: MongoDb): Promise<Store> {
  await Promise.all(['users', 'posts', 'attemptLimits'].map((name) => db.collection(name).deleteMany({})));
  return mongoStore(db, TEST_LIMIT_KEY_SECRET);
}

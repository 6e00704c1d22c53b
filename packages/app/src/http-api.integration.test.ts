import { MongoPostRepository, MongoUserRepository } from '@inkwell/adapters-mongo';
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import type { Store } from './store.js';
import { describeHttpApi } from './test-support/http-api.suite.js';

// The same HTTP suite as http-api.test.ts, over MongoDB. One database for the file; every test
// starts from empty collections (indexes kept, since uniqueness depends on them).
describe.skipIf(!mongoTest)('over MongoDB', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  describeHttpApi('mongodb', async (): Promise<Store> => {
    await Promise.all([mongo.db.collection('users').deleteMany({}), mongo.db.collection('posts').deleteMany({})]);
    return {
      users: new MongoUserRepository(mongo.db),
      posts: new MongoPostRepository(mongo.db),
      label: `mongodb (${mongo.database})`,
      ping: async () => true,
      close: async () => undefined, // the file's client is closed by cleanup()
    };
  });
});

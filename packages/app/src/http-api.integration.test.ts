import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeHttpApi } from './test-support/http-api.suite.js';
import { emptyMongoStore } from './test-support/mongo-stores.js';

// The same HTTP suite as http-api.test.ts, over MongoDB: one database for the file, emptied before every test.
describe.skipIf(!mongoTest)('over MongoDB', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  describeHttpApi('mongodb', () => emptyMongoStore(mongo.db));
});

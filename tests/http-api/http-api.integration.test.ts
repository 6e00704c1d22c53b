import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { inProcessTarget } from './harness.js';
import { spawnedTarget } from './spawned-target.js';
import { describeHttpApi } from './http-api.suite.js';
import { OWNER_ACCESS } from './owner-client.js';
import { describeOwnerModeApi } from './owner-mode.suite.js';
import { emptyMongoStore } from '../support/stores.js';

// The same HTTP suites as http-api.test.ts over MongoDB: in this process, and on a real
// WEB_CONCURRENCY=2 server. One database for the file, emptied before every test.
describe.skipIf(!mongoTest)('over MongoDB', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  describeHttpApi(inProcessTarget('the MongoDB store', () => emptyMongoStore(mongo.db)));
  describeHttpApi(spawnedTarget('a WEB_CONCURRENCY=2 server on MongoDB', () => mongo, { WEB_CONCURRENCY: '2' }));
  describeOwnerModeApi(inProcessTarget('the MongoDB store', () => emptyMongoStore(mongo.db), OWNER_ACCESS));
  describeOwnerModeApi(spawnedTarget('a WEB_CONCURRENCY=2 server on MongoDB', () => mongo, { WEB_CONCURRENCY: '2', ...OWNER_ACCESS }));
});

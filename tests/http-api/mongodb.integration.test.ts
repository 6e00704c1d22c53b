// Runs every HTTP acceptance suite, open mode and owner mode, over MongoDB: on the app in this
// process, and on a real WEB_CONCURRENCY=2 server process. One database for the file, emptied
// before every test. The same suites on the in-memory store: memory-store.test.ts.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll, beforeAll, describe } from 'vitest';
import { httpTarget } from './harness.js';
import { describeHttpApi } from './http-api.suite.js';
import { describeMailOff, MAIL_OFF } from './mail.suite.js';
import { OWNER_ACCESS } from './owner-client.js';
import { describeOwnerModeApi } from './owner-mode.suite.js';
import { describePreconditionRequired, PRECONDITION_REQUIRED } from './required-precondition.suite.js';
import { emptyMongoStore } from '../support/stores.js';

describe.skipIf(!mongoTest)('over MongoDB', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo();
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  const store = () => emptyMongoStore(mongo.db);
  const server = 'a WEB_CONCURRENCY=2 server on MongoDB';
  describeHttpApi(httpTarget('the MongoDB store', { in: 'app', store }));
  describeHttpApi(httpTarget(server, { in: 'child', mongo: () => mongo, env: { WEB_CONCURRENCY: '2' } }));
  describeOwnerModeApi(httpTarget('the MongoDB store', { in: 'app', store, env: OWNER_ACCESS }));
  describeOwnerModeApi(httpTarget(server, { in: 'child', mongo: () => mongo, env: { WEB_CONCURRENCY: '2', ...OWNER_ACCESS } }));
  describeMailOff(httpTarget('the MongoDB store', { in: 'app', store, env: MAIL_OFF }));
  describePreconditionRequired(httpTarget('the MongoDB store', { in: 'app', store, env: PRECONDITION_REQUIRED }));
});

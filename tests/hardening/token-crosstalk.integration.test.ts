// Runs the pipelined-accounts suite (token-crosstalk.suite.ts) over MongoDB: on a server in this process, and on a WEB_CONCURRENCY=2 server process.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { startInkwell } from '../support/start-inkwell.js';
import { emptyMongoStore } from '../support/stores.js';
import { describeTokenCrosstalk } from './token-crosstalk.suite.js';

describeWithMongo('over MongoDB', (mongo) => {
  describeTokenCrosstalk({ label: 'mongodb store', start: async () => startInkwell({ in: 'process', store: await emptyMongoStore(mongo().db) }) });
  describeTokenCrosstalk({
    label: 'a WEB_CONCURRENCY=2 server on MongoDB',
    start: async () => {
      await emptyMongoStore(mongo().db);
      return startInkwell({ in: 'child', store: mongo(), env: { JWT_SECRET: TEST_JWT_SECRET, WEB_CONCURRENCY: '2', HASH_WORKERS: '1' } });
    },
  });
});

// Runs the early answers suite (early-answers.suite.ts) on a WEB_CONCURRENCY=2 server process over MongoDB.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { emptyMongoStore } from '../support/stores.js';
import { startInkwell } from '../support/start-inkwell.js';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { describeEarlyAnswers } from './early-answers.suite.js';

// The early answers of early-answers.test.ts on a real WEB_CONCURRENCY=2 server on MongoDB:
// the primary hands each connection to a worker, which answers and lingers as one process does.
describeWithMongo('over MongoDB', (mongo) => {
  describeEarlyAnswers({
    label: 'a WEB_CONCURRENCY=2 server on MongoDB',
    start: async (env) => {
      await emptyMongoStore(mongo().db);
      return startInkwell({ in: 'child', store: mongo(), env: { JWT_SECRET: TEST_JWT_SECRET, WEB_CONCURRENCY: '2', HASH_WORKERS: '1', ...env } });
    },
  });
});

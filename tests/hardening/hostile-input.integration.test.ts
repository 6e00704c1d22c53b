// Runs the hostile input suite (hostile-input.suite.ts) over MongoDB: on a server in this process, and on a WEB_CONCURRENCY=2 server process.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { startInkwell } from '../support/start-inkwell.js';
import { HOSTILE_TIMEOUTS, describeHostileInput, measurements } from './hostile-input.suite.js';
import { emptyMongoStore } from '../support/stores.js';
import { TEST_JWT_SECRET } from '../support/fixtures.js';

// The same cases as hostile-input.test.ts over MongoDB: in this process, and on a real
// WEB_CONCURRENCY=2 server (production timeouts, so its slowloris case takes the full 10 s).
describeWithMongo('over MongoDB', (mongo) => {
  describeHostileInput({
    label: 'mongodb store',
    start: async () => startInkwell({ in: 'process', store: await emptyMongoStore(mongo().db), timeouts: HOSTILE_TIMEOUTS }),
  });
  describeHostileInput({
    label: 'a WEB_CONCURRENCY=2 server on MongoDB',
    start: async () => {
      await emptyMongoStore(mongo().db);
      // bcrypt at its lowest cost: what is hostile here is the input, not the hash's cost.
      return startInkwell({ in: 'child', store: mongo(), env: { JWT_SECRET: TEST_JWT_SECRET, WEB_CONCURRENCY: '2', HASH_WORKERS: '1', BCRYPT_COST: '4' } });
    },
  });
});

afterAll(() => {
  console.info(`[hostile input, mongodb store and cluster] measured: ${JSON.stringify(measurements)}`);
});

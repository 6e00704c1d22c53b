import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { startTestServer } from '../support/servers.js';
import { HOSTILE_TIMEOUTS, describeHostileInput, measurements } from './hostile-input.suite.js';
import { emptyMongoStore } from '../support/stores.js';
import { startSpawnedServer } from '../support/spawned-server.js';
import { TEST_JWT_SECRET } from '../support/fixtures.js';

// The same cases as hostile-input.test.ts over MongoDB: in this process, and on a real
// WEB_CONCURRENCY=2 server (production timeouts, so its slowloris case takes the full 10 s).
describeWithMongo('over MongoDB', (mongo) => {
  describeHostileInput({
    label: 'mongodb store',
    start: async () => startTestServer(await emptyMongoStore(mongo().db), {}, { timeouts: HOSTILE_TIMEOUTS }),
  });
  describeHostileInput({
    label: 'a WEB_CONCURRENCY=2 server on MongoDB',
    start: async () => {
      await emptyMongoStore(mongo().db);
      const { url, database } = mongo();
      return startSpawnedServer({ DB_URL: url, DB_DATABASE: database, JWT_SECRET: TEST_JWT_SECRET, WEB_CONCURRENCY: '2', HASH_WORKERS: '1' });
    },
  });
});

afterAll(() => {
  console.info(`[hostile input, mongodb store and cluster] measured: ${JSON.stringify(measurements)}`);
});

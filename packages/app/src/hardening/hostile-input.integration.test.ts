import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { startTestServer } from '../test-support/hardening.harness.js';
import { HOSTILE_TIMEOUTS, describeHostileInput, measurements } from '../test-support/hardening.hostile-input.js';
import { emptyMongoStore } from '../test-support/mongo-stores.js';
import { startSpawnedServer } from '../test-support/spawned-server.js';

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
      return startSpawnedServer({ DB_URL: url, DB_DATABASE: database, JWT_SECRET: 'hostile-input-cluster-secret-0123456789', WEB_CONCURRENCY: '2', HASH_WORKERS: '1' });
    },
  });
});

afterAll(() => {
  console.info(`[hostile input, mongodb store and cluster] measured: ${JSON.stringify(measurements)}`);
});

// Runs the session leak suite (session-leaks.suite.ts) over MongoDB: on a server in this process, and on a server process.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { TEST_JWT_SECRET } from '../support/fixtures.js';
import { startInkwell } from '../support/start-inkwell.js';
import { emptyMongoStore } from '../support/stores.js';
import { SESSION_LEAKS_ENV, describeSessionLeaks } from './session-leaks.suite.js';

// The same drive over MongoDB: in this process (fake hasher), and in a server process with real
// bcrypt, whose hashes ($2b$…) must not show either.
describeWithMongo('over MongoDB', (mongo) => {
  describeSessionLeaks({
    label: 'mongodb store, in process',
    start: async () => startInkwell({ in: 'process', store: await emptyMongoStore(mongo().db), env: SESSION_LEAKS_ENV }),
  });
  describeSessionLeaks({
    label: 'a server process on MongoDB, real bcrypt',
    start: async () => {
      await emptyMongoStore(mongo().db);
      return startInkwell({ in: 'child', store: mongo(), env: { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', ...SESSION_LEAKS_ENV } });
    },
  });
});

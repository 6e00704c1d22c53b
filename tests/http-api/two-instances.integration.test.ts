// The crossing requests of account-races.suite.ts and safe-write-races.suite.ts across two
// processes of one service: two apps in this process, each with its own repositories, on one
// MongoDB database. One app's store holds a request between its checks and its write while the
// other app runs a request to the end; only the database orders their writes, as it does for
// processes on different machines.
import { describeWithMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { mongoStore } from '@inkwell/app';
import { afterEach, beforeEach, describe } from 'vitest';
import { TEST_LIMIT_KEY_SECRET } from '../support/fixtures.js';
import type { Env } from '../support/start-inkwell.js';
import { emptyMongoStore } from '../support/stores.js';
import { describeAccountRaces, describeOwnedPostRaces, type CrossingApps } from './account-races.suite.js';
import { describeAccountStateRaces } from './account-state.suite.js';
import { buildHttpApi } from './harness.js';
import { OWNER_ACCESS } from './owner-client.js';
import { describeSafeWriteRaces } from './safe-write-races.suite.js';

/** Two apps, each with its own repositories, on `mongo`'s database emptied before every test, configured by `env`. */
function twoApps(mongo: () => TestMongo, env: Env): () => CrossingApps {
  let apps: CrossingApps | undefined;
  beforeEach(async () => {
    const held = await buildHttpApi(await emptyMongoStore(mongo().db), env);
    const other = await buildHttpApi(mongoStore(mongo().db, TEST_LIMIT_KEY_SECRET), env);
    apps = { held, other };
  });
  afterEach(async () => {
    await Promise.all([apps?.held.inkwell.close(), apps?.other.inkwell.close()]);
    apps = undefined;
  });
  return () => {
    if (!apps) throw new Error('two instances: no apps outside a test');
    return apps;
  };
}

describeWithMongo('two apps with their own repositories on one MongoDB database, one request held', (mongo) => {
  describe('with owned posts', () => {
    const both = twoApps(mongo, OWNER_ACCESS);
    describeAccountRaces(both);
    describeOwnedPostRaces(both);
    describeAccountStateRaces(both);
  });
  describe('with open posts', () => {
    describeSafeWriteRaces(twoApps(mongo, {}));
  });
});

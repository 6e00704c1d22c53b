// The crossing requests of account-races.suite.ts across two processes of one service: two apps
// in this process, each with its own repositories, on one MongoDB database. One app's store holds
// a request between its checks and its write while the other app runs a request to the end; only
// the database orders their writes, as it does for processes on different machines.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { mongoStore } from '@inkwell/app';
import { afterEach, beforeEach } from 'vitest';
import { TEST_LIMIT_KEY_SECRET } from '../support/fixtures.js';
import { emptyMongoStore } from '../support/stores.js';
import { describeAccountRaces, describeOwnedPostRaces, type CrossingApps } from './account-races.suite.js';
import { describeAccountStateRaces } from './account-state.suite.js';
import { buildHttpApi } from './harness.js';
import { OWNER_ACCESS } from './owner-client.js';

describeWithMongo('two apps with their own repositories on one MongoDB database, one request held', (mongo) => {
  let apps: CrossingApps | undefined;
  beforeEach(async () => {
    const held = await buildHttpApi(await emptyMongoStore(mongo().db), OWNER_ACCESS);
    const other = await buildHttpApi(mongoStore(mongo().db, TEST_LIMIT_KEY_SECRET), OWNER_ACCESS);
    apps = { held, other };
  });
  afterEach(async () => {
    await Promise.all([apps?.held.inkwell.close(), apps?.other.inkwell.close()]);
    apps = undefined;
  });

  const both = () => {
    if (!apps) throw new Error('two instances: no apps outside a test');
    return apps;
  };
  describeAccountRaces(both);
  describeOwnedPostRaces(both);
  describeAccountStateRaces(both);
});

import { describe } from 'vitest';
import { describeAccountRaces } from './account-races.suite.js';
import { describeAccountState, describeAccountStateRaces } from './account-state.suite.js';
import { describeAccountsApi } from './accounts.suite.js';
import { describeBodyRules } from './bodies.suite.js';
import { describeRoutingAndFailures } from './failures.suite.js';
import { inProcessOnly, type HttpTarget } from './harness.js';
import { describeListApi } from './list.suite.js';
import { describeMailApi, describeMailBudgets } from './mail.suite.js';
import { describeMeAccount } from './me-account.suite.js';
import { describeOpenModePosts } from './open-mode.suite.js';
import { describePostsApi } from './posts.suite.js';
import { describeSafeWriteRaces } from './safe-write-races.suite.js';
import { describeSafeWrites } from './safe-writes.suite.js';
import { describeSessionsApi } from './sessions.suite.js';
import { describeUserObject } from './user-object.suite.js';

/**
 * The HTTP-level behaviour of the whole API (docs/api.md) in open mode, the default (owner mode is
 * owner-mode.suite.ts), written once and run against any target: an app in this process over any
 * store (a manual clock, a fake password hasher, a capturing logger and a store whose methods a
 * test can make fail; a run takes seconds), or real server processes, where everything a client
 * can observe runs and the tests that steer the app from inside (`inProcessOnly`: the clock, the
 * store's failures, and the requests held between their checks and their writes) are left to the
 * in-process runs.
 */
export function describeHttpApi(target: HttpTarget): void {
  describe(`HTTP API on ${target.label}`, { timeout: target.testTimeoutMs }, () => {
    const api = target.use();
    describeAccountsApi(api, target);
    describeUserObject(api);
    describeMeAccount(api);
    describeAccountState(api, target);
    describeSessionsApi(api, target);
    describeMailApi(api, target);
    describeMailBudgets(api, target);
    inProcessOnly(target).describe('with one request held between its checks and its write', () => describeAccountRaces(() => ({ held: api(), other: api() })));
    inProcessOnly(target).describe('with one account change held between its read and its write', () => describeAccountStateRaces(() => ({ held: api(), other: api() })));
    describePostsApi(api, target);
    describeListApi(api, target);
    describeBodyRules(api, target);
    describeRoutingAndFailures(api, target);
    describeOpenModePosts(api);
    describeSafeWrites(api, target);
    inProcessOnly(target).describe('with one write held between its checks and its write', () => describeSafeWriteRaces(() => ({ held: api(), other: api() })));
  });
}

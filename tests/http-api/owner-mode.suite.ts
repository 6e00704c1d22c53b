import { describe } from 'vitest';
import { describeOwnedPostRaces } from './account-races.suite.js';
import { describeAccountState } from './account-state.suite.js';
import { inProcessOnly, type HttpTarget } from './harness.js';
import { describeMeAccount } from './me-account.suite.js';
import { describeOwnerChange } from './owner-change.suite.js';
import { describeOwnerCreate } from './owner-create.suite.js';
import { describeOwnerMail } from './mail.suite.js';
import { describeOwnerCredentials } from './owner-credentials.suite.js';
import { describeOwnerDelete } from './owner-delete.suite.js';
import { describeOwnPostsList } from './owner-me-posts.suite.js';
import { describeOpenToOwnerSwitch } from './owner-mode-switch.suite.js';
import { describeOwnerRead } from './owner-read.suite.js';
import { describeOwnerSafeWrites } from './owner-safe-writes.suite.js';
import { describeOwnerWalkthrough } from './owner-walkthrough.suite.js';
import { describeUserObject } from './user-object.suite.js';

/**
 * Owned posts (`POSTS_ACCESS=owner`, docs/api.md) through HTTP, written once and run on any
 * target whose app runs in owner mode: credentials are checked by the `GET /me` rules on every
 * posts endpoint, writing needs a signed-in author, a draft exists for its author only, only the
 * author changes or deletes a post, and `GET /me/posts` lists the caller's own. Every refusal is
 * followed by reading the data back: a refused write changes nothing.
 */
export function describeOwnerModeApi(target: HttpTarget): void {
  if (target.env.POSTS_ACCESS !== 'owner') throw new Error(`describeOwnerModeApi: ${target.label} does not run with POSTS_ACCESS=owner`);
  describe(`HTTP API in owner mode (POSTS_ACCESS=owner) on ${target.label}`, { timeout: target.testTimeoutMs }, () => {
    const api = target.use();
    describeOwnerCredentials(api, target);
    describeOwnerCreate(api, target);
    describeOwnerRead(api, target);
    describeOwnerChange(api, target);
    describeOwnerDelete(api, target);
    inProcessOnly(target).describe('with one request held between its checks and its write', () => describeOwnedPostRaces(() => ({ held: api(), other: api() })));
    describeOwnPostsList(api, target);
    describeOwnerWalkthrough(api, target);
    describeOpenToOwnerSwitch(api, target);
    describeOwnerMail(api);
    describeUserObject(api);
    describeMeAccount(api);
    describeAccountState(api, target);
    describeOwnerSafeWrites(api, target);
  });
}

import { describe } from 'vitest';
import type { Store } from '../store.js';
import { describeAccountsApi } from './http-api.accounts.js';
import { describeBodyRules } from './http-api.bodies.js';
import { describeRoutingAndFailures } from './http-api.failures.js';
import { useHttpApi } from './http-api.harness.js';
import { describeListApi } from './http-api.list.js';
import { describePostsApi } from './http-api.posts.js';

/**
 * The HTTP-level behaviour of the whole API (api-spec.md and decisions.md), written once and
 * run against any store. `makeStore` is called before each test and must return a store over
 * empty data; the suite closes it after the test. The app is built with `createInkwell` over
 * that store, a manual clock, a fake password hasher and a capturing logger, and driven with
 * `app.request`, so a run takes seconds.
 */
export function describeHttpApi(storeLabel: string, makeStore: () => Promise<Store>): void {
  describe(`HTTP API over the ${storeLabel} store`, () => {
    const api = useHttpApi(makeStore);
    describeAccountsApi(api);
    describePostsApi(api);
    describeListApi(api);
    describeBodyRules(api);
    describeRoutingAndFailures(api);
  });
}

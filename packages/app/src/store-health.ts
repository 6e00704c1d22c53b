import type { Logger } from '@inkwell/adapters-http';
import type { Store } from './store.js';

/** How often the store is pinged in the background. */
const PING_EVERY_MS = 1000;

/**
 * Whether this process can reach its store, as it last saw: what `GET /health` answers at once,
 * whatever the database does meanwhile.
 */
export interface StoreHealth {
  /** True unless the store was last seen unreachable. */
  reachable(): boolean;
  /** A request was answered 503 because the store could not be reached (refused, reset, or no answer in time): counted, and the store pinged at once. */
  requestFailed(): void;
  /** Stops the pings. */
  stop(): void;
}

/**
 * Watches `store` for the process with a ping every second in the background, one at a time. The
 * store is unreachable when a ping fails (the connection refused or reset, or no server to select)
 * or has had no answer for `store.answerTimeoutMs` (as long as a request waits before it fails);
 * it is reachable again when a ping succeeds. A slow answer is an answer: one slow ping never
 * makes the store unreachable, however long it takes within that bound. A request that could not
 * reach the store is counted, and has the store pinged at once rather than at the next second:
 * the ping decides, so that a request that failed as the database came back, or one connection
 * reset on a database that answers, changes nothing.
 *
 * It writes one warn line per change: when the store becomes unreachable, with why, and when it
 * is reachable again, with how long it was not and how many requests were answered 503 meanwhile
 * (an isolated 503 has its access line). A store not reached at start (`store.reachedAtStart`)
 * starts unreachable: its opening said so.
 */
export function watchStore(store: Pick<Store, 'ping' | 'answerTimeoutMs' | 'reachedAtStart'>, logger: Logger): StoreHealth {
  let reachable = store.reachedAtStart;
  let unreachableSince = performance.now();
  let failedRequests = 0;
  let pingStartedAt: number | undefined;

  const unreachable = (reason: string) => {
    if (!reachable) return;
    reachable = false;
    unreachableSince = performance.now();
    logger.warn({ reason }, `store: unreachable (${reason}): readiness and every request that needs it answer 503 until a ping succeeds`);
  };
  const answered = () => {
    if (!reachable) {
      reachable = true;
      const unreachableForMs = Math.round(performance.now() - unreachableSince);
      logger.warn(
        { unreachableForMs, answered503: failedRequests },
        `store: reachable again after ${(unreachableForMs / 1000).toFixed(1)} s (requests answered 503 meanwhile: ${failedRequests})`,
      );
    }
    failedRequests = 0;
  };
  const ping = () => {
    if (pingStartedAt !== undefined) {
      if (performance.now() - pingStartedAt > store.answerTimeoutMs) unreachable(`no answer to a ping for ${store.answerTimeoutMs / 1000} s`);
      return;
    }
    pingStartedAt = performance.now();
    store
      .ping()
      .catch(() => false)
      .then((answers) => {
        pingStartedAt = undefined;
        if (answers) answered();
        else unreachable('a ping failed');
      });
  };
  const timer = setInterval(ping, PING_EVERY_MS).unref();

  return {
    reachable: () => reachable,
    requestFailed: () => {
      failedRequests++;
      ping();
    },
    stop: () => clearInterval(timer),
  };
}

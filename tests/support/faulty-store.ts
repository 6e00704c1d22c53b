import type { AttemptLimiter, IdempotencyStore, Outbox, PostRepository, UserRepository } from '@inkwell/domain';
import type { Store } from '@inkwell/app';

/** A repository, limiter, outbox or idempotency store method by its store-qualified name, e.g. `posts.listPublished`, `limits.take`, `outbox.add`, `keys.reserve`. */
export type RepositoryMethod =
  | `users.${keyof UserRepository}`
  | `posts.${keyof PostRepository}`
  | `limits.${keyof AttemptLimiter}`
  | `outbox.${keyof Outbox}`
  | `keys.${keyof IdempotencyStore}`;

/** Switches for making a wrapped store's repository methods fail. */
export interface StoreFaults {
  /** Every later call of `method` rejects with `error`, until `clear()`. */
  fail(method: RepositoryMethod, error: unknown): void;
  /** Back to the real store. */
  clear(): void;
}

/**
 * Wraps a store so tests can make any repository, limiter, outbox or idempotency store method reject (a driver error, the
 * database gone) without knowing which store is underneath. Transparent while no fault is set.
 */
export function withFaults(store: Store): { store: Store; faults: StoreFaults } {
  const active = new Map<string, unknown>();
  function wrap<R extends object>(area: 'users' | 'posts' | 'limits' | 'outbox' | 'keys', repository: R): R {
    return new Proxy(repository, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const name = `${area}.${String(property)}`;
        return (...args: unknown[]) =>
          active.has(name) ? Promise.reject(active.get(name)) : Reflect.apply(value, target, args);
      },
    });
  }
  return {
    store: {
      ...store,
      users: wrap('users', store.users),
      posts: wrap('posts', store.posts),
      outbox: wrap('outbox', store.outbox),
      idempotencyKeys: wrap('keys', store.idempotencyKeys),
      attemptLimiter: (rule, clock) => wrap('limits', store.attemptLimiter(rule, clock)),
    },
    faults: {
      fail: (method, error) => {
        active.set(method, error);
      },
      clear: () => active.clear(),
    },
  };
}

/**
 * Wraps a store so that every repository, limiter and outbox call answers `latencyMs` late, as a
 * database whose round trips have slowed down: the call reaches the store half-way through and
 * its answer takes the other half. `latencyMs` can be changed at any time.
 */
export function withLatency(store: Store, latencyMs: number): { store: Store; setLatency(ms: number): void } {
  let latency = latencyMs;
  const wait = () => new Promise((resolve) => setTimeout(resolve, latency / 2));
  function wrap<R extends object>(repository: R): R {
    return new Proxy(repository, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          await wait();
          const result: unknown = await Reflect.apply(value, target, args);
          await wait();
          return result;
        };
      },
    });
  }
  return {
    store: {
      ...store,
      users: wrap(store.users),
      posts: wrap(store.posts),
      outbox: wrap(store.outbox),
      attemptLimiter: (rule, clock) => wrap(store.attemptLimiter(rule, clock)),
    },
    setLatency: (ms) => {
      latency = ms;
    },
  };
}

import type { MongoDb } from '@inkwell/adapters-mongo';
import type { TestMongo } from '@inkwell/adapters-mongo/testing';
import { memoryStore, mongoStore, type Store } from '@inkwell/app';
import { TEST_LIMIT_KEY_SECRET } from './fixtures.js';

/**
 * The MongoDB store over a test database, after deleting every user, post, limit window, mail and
 * idempotency key in it (indexes are kept, since uniqueness depends on them). Closing it leaves the
 * test's client open.
 */
export async function emptyMongoStore(db: MongoDb): Promise<Store> {
  await Promise.all(['users', 'posts', 'attemptLimits', 'outbox', 'idempotencyKeys'].map((name) => db.collection(name).deleteMany({})));
  return mongoStore(db, TEST_LIMIT_KEY_SECRET);
}

/** Where a suite gets a store over empty data; run once per server. */
export interface StoreFactory {
  readonly label: string;
  open(): Promise<Store>;
}

/** The in-memory store, new for every server. */
export const memoryStores: StoreFactory = { label: 'memory', open: async () => memoryStore() };

/**
 * The MongoDB store over the test file's database (`mongo()` inside hooks and tests), emptied
 * for every server; closing it leaves the file's client open for the next one.
 */
export function mongoStores(mongo: () => TestMongo): StoreFactory {
  return { label: 'mongodb', open: () => emptyMongoStore(mongo().db) };
}

/** Calls made to a store's repositories, by `users.findByEmail`-style name. */
export interface RepositoryCalls {
  readonly counts: Map<string, number>;
  total(): number;
  /**
   * Waits until every message added to the outbox so far has been delivered (the delivery looks
   * the account up and records its link in the background, after the request that asked for the
   * mail has answered), then forgets every call counted: what is counted next is what the next
   * request does.
   */
  reset(): Promise<void>;
}

/** How long `reset` waits for the mail already asked for to be delivered. */
const MAIL_SETTLE_TIMEOUT_MS = 10_000;

/** Wraps a store so every repository call is counted (for "rejected before any query" checks). */
export function countingStore(store: Store): { store: Store; calls: RepositoryCalls } {
  const counts = new Map<string, number>();
  const wrap = <R extends object>(area: string, repository: R): R =>
    new Proxy(repository, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        const name = `${area}.${String(property)}`;
        return (...args: unknown[]) => {
          counts.set(name, (counts.get(name) ?? 0) + 1);
          return Reflect.apply(value, target, args);
        };
      },
    });
  // Every delivery ends in a remove (sent, dropped or expired) or a retryLater (a failed send).
  let added = 0;
  let ended = 0;
  const outbox: Store['outbox'] = {
    add: async (message) => {
      const result = await store.outbox.add(message);
      added += 1;
      return result;
    },
    claim: (...args) => store.outbox.claim(...args),
    renew: (...args) => store.outbox.renew(...args),
    remove: async (...args) => {
      await store.outbox.remove(...args);
      ended += 1;
    },
    retryLater: async (...args) => {
      await store.outbox.retryLater(...args);
      ended += 1;
    },
  };
  const mailSettled = async () => {
    const deadline = Date.now() + MAIL_SETTLE_TIMEOUT_MS;
    while (ended < added) {
      if (Date.now() > deadline) throw new Error(`${added - ended} of ${added} mails still undelivered after ${MAIL_SETTLE_TIMEOUT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  return {
    store: { ...store, users: wrap('users', store.users), posts: wrap('posts', store.posts), outbox },
    calls: {
      counts,
      total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
      reset: async () => {
        await mailSettled();
        counts.clear();
      },
    },
  };
}


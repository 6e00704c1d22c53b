import type { MongoDb } from '@inkwell/adapters-mongo';
import type { TestMongo } from '@inkwell/adapters-mongo/testing';
import { memoryStore, mongoStore, type Store } from '@inkwell/app';
import { TEST_LIMIT_KEY_SECRET } from './fixtures.js';

/**
 * The MongoDB store over a test database, after deleting every user, post, limit window and mail in
 * it (indexes are kept, since uniqueness depends on them). Closing it leaves the test's client open.
 */
export async function emptyMongoStore(db: MongoDb): Promise<Store> {
  await Promise.all(['users', 'posts', 'attemptLimits', 'outbox'].map((name) => db.collection(name).deleteMany({})));
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
  reset(): void;
}

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
  return {
    store: { ...store, users: wrap('users', store.users), posts: wrap('posts', store.posts) },
    calls: {
      counts,
      total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
      reset: () => counts.clear(),
    },
  };
}


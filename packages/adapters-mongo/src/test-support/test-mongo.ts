import { randomBytes } from 'node:crypto';
import type { Db, MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe } from 'vitest';
import { connectMongo } from '../connect.js';
import { ensureIndexes } from '../ensure-indexes.js';
import { resolveTestMongoServer, type TestMongoServer } from './test-mongo-server.js';

/**
 * This test file's MongoDB server, or null when there is none and Mongo-backed suites must be
 * skipped: guard them with `describe.skipIf(!mongoTest)`. Resolved once per test file, on import.
 */
export const mongoTest: TestMongoServer | null = await resolveTestMongoServer();

/** A fresh database of its own on the test server, open through `connectMongo`. */
export interface TestMongo {
  readonly url: string;
  readonly database: string;
  readonly client: MongoClient;
  readonly db: Db;
  /** Drops the database and closes the client. */
  cleanup(): Promise<void>;
}

/**
 * Opens a new, randomly named database (`inkwell_test_<hex>`) on the test server, with
 * inkwell's indexes unless `indexes: false`. Call it in a beforeAll of a suite guarded by
 * `describe.skipIf(!mongoTest)` and call `cleanup()` in the matching afterAll.
 */
export async function withTestMongo(options: { readonly indexes?: boolean } = {}): Promise<TestMongo> {
  if (!mongoTest) throw new Error('No test MongoDB: guard this suite with describe.skipIf(!mongoTest).');
  const database = `inkwell_test_${randomBytes(6).toString('hex')}`;
  const connection = await connectMongo({ url: mongoTest.url, database, serverSelectionTimeoutMS: 5000 });
  const cleanup = async (): Promise<void> => {
    try {
      await connection.db.dropDatabase();
    } finally {
      await connection.close();
    }
  };
  try {
    if (options.indexes ?? true) await ensureIndexes(connection.db);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { url: mongoTest.url, database, client: connection.client, db: connection.db, cleanup };
}

/**
 * A describe block that runs on its own test database (with indexes) and is skipped when there
 * is no test MongoDB. `mongo()` returns that database inside hooks and tests.
 */
export function describeWithMongo(name: string, suite: (mongo: () => TestMongo) => void): void {
  describe.skipIf(!mongoTest)(name, () => {
    let current: TestMongo | undefined;
    beforeAll(async () => {
      current = await withTestMongo();
    });
    afterAll(async () => {
      await current?.cleanup();
    });
    suite(() => {
      if (!current) throw new Error('mongo() is only available inside hooks and tests.');
      return current;
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndexes } from './ensure-indexes.js';
import { mongoTest, withTestMongo, type TestMongo } from './test-support/test-mongo.js';

describe.skipIf(!mongoTest)('ensureIndexes', () => {
  let mongo: TestMongo;
  beforeAll(async () => {
    mongo = await withTestMongo({ indexes: false });
  });
  afterAll(async () => {
    await mongo?.cleanup();
  });

  async function indexes(collection: string): Promise<{ name: string; key: [string, unknown][]; unique: boolean }[]> {
    const list = await mongo.db.collection(collection).listIndexes().toArray();
    return list
      .map((index) => ({ name: String(index.name), key: Object.entries(index.key ?? {}), unique: index.unique === true }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  it('creates exactly the unique e-mail index, the session-expiry and mailed-link indexes, the published-list and per-author indexes, the limits TTL index and the outbox claim index, besides _id', async () => {
    await ensureIndexes(mongo.db);
    expect(await indexes('users')).toEqual([
      { name: '_id_', key: [['_id', 1]], unique: false },
      { name: 'email_1', key: [['email', 1]], unique: true },
      { name: 'emailVerification.tokenHash_1', key: [['emailVerification.tokenHash', 1]], unique: false },
      { name: 'passwordReset.tokenHash_1', key: [['passwordReset.tokenHash', 1]], unique: false },
      { name: 'passwordResets.tokenHash_1', key: [['passwordResets.tokenHash', 1]], unique: false },
      { name: 'sessions.expiresAt_1', key: [['sessions.expiresAt', 1]], unique: false },
    ]);
    expect(await indexes('posts')).toEqual([
      { name: '_id_', key: [['_id', 1]], unique: false },
      {
        name: 'authorId_1_createdAt_-1__id_-1',
        key: [['authorId', 1], ['createdAt', -1], ['_id', -1]],
        unique: false,
      },
      {
        name: 'published_1_createdAt_-1__id_-1',
        key: [['published', 1], ['createdAt', -1], ['_id', -1]],
        unique: false,
      },
    ]);
    const limits = await mongo.db.collection('attemptLimits').listIndexes().toArray();
    expect(limits.map((index) => [index.name, index.key, index.expireAfterSeconds])).toEqual([
      ['_id_', { _id: 1 }, undefined],
      ['expireAt_1', { expireAt: 1 }, 0],
    ]);
    expect(await indexes('outbox')).toEqual([
      { name: '_id_', key: [['_id', 1]], unique: false },
      { name: 'nextAttemptAt_1_leaseUntil_1', key: [['nextAttemptAt', 1], ['leaseUntil', 1]], unique: false },
    ]);
  });

  it('is idempotent, so it can run at every start', async () => {
    await ensureIndexes(mongo.db);
    const before = [await indexes('users'), await indexes('posts'), await indexes('attemptLimits'), await indexes('outbox')];
    await ensureIndexes(mongo.db);
    await ensureIndexes(mongo.db);
    expect([await indexes('users'), await indexes('posts'), await indexes('attemptLimits'), await indexes('outbox')]).toEqual(before);
  });

  it('makes the store itself refuse a second user with the same e-mail', async () => {
    await ensureIndexes(mongo.db);
    const users = mongo.db.collection('users');
    await users.insertOne({ email: 'same@example.com' });
    await expect(users.insertOne({ email: 'same@example.com' })).rejects.toMatchObject({ code: 11000 });
  });
});

import { createInMemoryUserRepository, createPost, openPostAccess } from '@inkwell/domain';
import { describeIdempotencyStoreContract, fakePasswordHasher, fakeTokenService, manualClock } from '@inkwell/domain/testing';
import { BSON } from 'mongodb';
import { expect, it } from 'vitest';
import { ensureIndexes } from './ensure-indexes.js';
import { MongoIdempotencyStore } from './mongo-idempotency-store.js';
import { MongoPostRepository } from './mongo-post-repository.js';
import { describeWithMongo } from './test-support/test-mongo.js';

const T0 = 1_767_225_600_000;

describeWithMongo('MongoIdempotencyStore', (mongo) => {
  async function emptyStore(): Promise<MongoIdempotencyStore> {
    await mongo().db.collection('idempotencyKeys').deleteMany({});
    return new MongoIdempotencyStore(mongo().db);
  }

  describeIdempotencyStoreContract('mongo', emptyStore);

  it('stores one document per key holding what the reservation says, and an expiry date for the TTL index', async () => {
    const keys = await emptyStore();
    await ensureIndexes(mongo().db);
    const reservation = { key: 'key-hash', fingerprint: 'request-hash', lease: 'run', leaseUntil: T0 + 5000, postId: 'post-id', createdAt: T0, expiresAt: T0 + 86_400_000 };
    await keys.reserve(reservation, T0);
    await keys.complete('key-hash', 'run', 'created');
    const stored = await mongo().db.collection('idempotencyKeys').find({}).toArray();
    expect(stored).toEqual([
      {
        _id: 'key-hash',
        fingerprint: 'request-hash',
        lease: 'run',
        leaseUntil: 0,
        postId: 'post-id',
        createdAt: T0,
        expiresAt: T0 + 86_400_000,
        expireAt: new Date(T0 + 86_400_000),
        outcome: 'created',
      },
    ]);
    const indexes = await mongo().db.collection('idempotencyKeys').listIndexes().toArray();
    expect(indexes).toContainEqual(expect.objectContaining({ key: { expireAt: 1 }, expireAfterSeconds: 0 }));
  });

  it('takes a fingerprint or lease that looks like an operator or a field path as a plain string', async () => {
    const keys = await emptyStore();
    const odd = { key: '$where', fingerprint: '$fingerprint', lease: '$lease', leaseUntil: T0 + 5000, postId: '$postId', createdAt: T0, expiresAt: T0 + 1000 };
    expect(await keys.reserve(odd, T0)).toStrictEqual({ ...odd, outcome: null });
    expect(await keys.reserve({ ...odd, lease: 'other' }, T0 + 1)).toStrictEqual({ ...odd, outcome: null });
  });

  it('keeps a record of one size whatever the key and the body: 255 characters and a 1 MiB body make no bigger a document', async () => {
    const keys = await emptyStore();
    await mongo().db.collection('posts').deleteMany({});
    const clock = manualClock();
    const deps = {
      users: createInMemoryUserRepository(),
      posts: new MongoPostRepository(mongo().db),
      idempotencyKeys: keys,
      postAccess: openPostAccess,
      clock,
      tokens: fakeTokenService(clock),
      hasher: fakePasswordHasher(),
    };
    const sizes: number[] = [];
    for (const [key, text] of [['k', 'b'], ['k'.repeat(255), 'b'.repeat(1024 * 1024 - 100)]] as const) {
      const body = { title: 't', body: text, authorId: 'a' };
      const bytes = new TextEncoder().encode(`POST /posts\n${JSON.stringify(body)}`);
      await createPost(deps, { body: async () => body, idempotency: { key, request: async () => bytes } });
      const [stored] = await mongo().db.collection('idempotencyKeys').find({}).sort({ createdAt: -1 }).limit(1).toArray();
      // Neither the key nor the body in clear.
      expect(JSON.stringify(stored)).not.toMatch(/k{20}|b{20}/);
      sizes.push(BSON.calculateObjectSize(stored ?? {}));
      clock.advance(1);
    }
    expect(sizes[0]).toBe(sizes[1]);
    expect(sizes[1]).toBeLessThan(300);
    console.info(`[idempotency record] ${sizes[1]} bytes of BSON for a 255-character key and a 1 MiB body`);
  });
});

import { describe, expect, it } from 'vitest';
import { describeIdempotencyStoreContract } from '../test-support/idempotency-store.contract.js';
import { createInMemoryIdempotencyStore } from './in-memory-idempotency-store.js';
import type { IdempotencyReservation } from './ports.js';

describeIdempotencyStoreContract('in-memory', () => createInMemoryIdempotencyStore());

describe('the in-memory idempotency store', () => {
  const at = (key: string, now: number, expiresAt = now + 1000): IdempotencyReservation => ({
    key,
    fingerprint: `request-of-${key}`,
    lease: `run-of-${key}`,
    leaseUntil: now + 10,
    postId: `post-of-${key}`,
    createdAt: now,
    expiresAt,
  });
  /** Whether the store still holds `key`: a reservation for another request finds the first one's record (and reserves the key when it does not). */
  const held = async (store: ReturnType<typeof createInMemoryIdempotencyStore>, key: string, now: number) =>
    (await store.reserve({ ...at(key, now), fingerprint: 'probe' }, now)).fingerprint !== 'probe';

  it('keeps at most maxKeys: a new key past it forgets the expired keys first', async () => {
    const store = createInMemoryIdempotencyStore({ maxKeys: 3 });
    await store.reserve(at('a', 0, 100), 0);
    await store.reserve(at('b', 0, 5000), 0);
    await store.reserve(at('c', 0, 100), 0);
    await store.reserve(at('d', 200), 200);
    expect([await held(store, 'b', 300), await held(store, 'd', 300)]).toEqual([true, true]);
    expect(await held(store, 'a', 300)).toBe(false);
  });

  it('forgets the oldest key when none has expired', async () => {
    const store = createInMemoryIdempotencyStore({ maxKeys: 2 });
    await store.reserve(at('a', 0), 0);
    await store.reserve(at('b', 1), 1);
    await store.reserve(at('c', 2), 2);
    expect([await held(store, 'c', 3), await held(store, 'b', 3), await held(store, 'a', 3)]).toEqual([true, true, false]);
  });

  it('keeps a record of the reservation fields only, frozen', async () => {
    const store = createInMemoryIdempotencyStore();
    const record = await store.reserve({ ...at('a', 0), body: 'smuggled' } as IdempotencyReservation, 0);
    expect(Object.keys(record).sort()).toEqual(['createdAt', 'expiresAt', 'fingerprint', 'key', 'lease', 'leaseUntil', 'outcome', 'postId']);
    expect(Object.isFrozen(record)).toBe(true);
  });
});

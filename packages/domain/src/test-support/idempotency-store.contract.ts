import { beforeEach, describe, expect, it } from 'vitest';
import type { IdempotencyReservation, IdempotencyStore } from '../posts/ports.js';

const T0 = 1_767_225_600_000;
const LEASE_MS = 5000;
const TTL_MS = 24 * 60 * 60 * 1000;

/** A reservation at `now`: of key `key-hash-1` by run `run-1` for request `request-hash-1`, unless `overrides` say otherwise. */
function reservation(overrides: Partial<IdempotencyReservation> = {}, now = T0): IdempotencyReservation {
  return {
    key: 'key-hash-1',
    fingerprint: 'request-hash-1',
    lease: 'run-1',
    leaseUntil: now + LEASE_MS,
    postId: postId(1),
    createdAt: now,
    expiresAt: now + TTL_MS,
    ...overrides,
  };
}

/** The id of the post the `n`th reservation fixes. */
const postId = (n: number) => `post-${n}`;

/**
 * The behaviour every `IdempotencyStore` must have. `makeStore` is called before each test and
 * must return a store over no keys.
 */
export function describeIdempotencyStoreContract(adapterName: string, makeStore: () => IdempotencyStore | Promise<IdempotencyStore>): void {
  describe(`IdempotencyStore contract: ${adapterName}`, () => {
    let keys: IdempotencyStore;
    const first = (overrides: Partial<IdempotencyReservation> = {}, now = T0) => reservation({ postId: postId(1), ...overrides }, now);
    const second = (overrides: Partial<IdempotencyReservation> = {}, now = T0) => reservation({ lease: 'run-2', postId: postId(2), ...overrides }, now);
    beforeEach(async () => {
      keys = await makeStore();
    });

    it('reserves a key it does not hold as the reservation says, with no outcome', async () => {
      expect(await keys.reserve(first(), T0)).toStrictEqual({ ...first(), outcome: null });
    });

    it('answers the record unchanged to the same request while the first run holds the key', async () => {
      await keys.reserve(first(), T0);
      expect(await keys.reserve(second({}, T0 + LEASE_MS - 1), T0 + LEASE_MS - 1)).toStrictEqual({ ...first(), outcome: null });
    });

    it('answers the record unchanged to another request with the key, whatever its lease', async () => {
      await keys.reserve(first(), T0);
      const other = second({ fingerprint: 'request-hash-2' }, T0 + LEASE_MS + 1);
      expect(await keys.reserve(other, T0 + LEASE_MS + 1)).toStrictEqual({ ...first(), outcome: null });
    });

    it('lets the same request take over once the lease ended, keeping the post id, its time and the expiry', async () => {
      await keys.reserve(first(), T0);
      const later = T0 + LEASE_MS;
      expect(await keys.reserve(second({}, later), later)).toStrictEqual({ ...first(), lease: 'run-2', leaseUntil: later + LEASE_MS, outcome: null });
      expect(await keys.reserve(reservation({ lease: 'run-3', postId: postId(3) }, later + 1), later + 1)).toMatchObject({ lease: 'run-2' });
    });

    it('keeps the outcome of the run that holds the key, and answers it from then on', async () => {
      await keys.reserve(first(), T0);
      await keys.complete(first().key, 'run-1', 'created');
      const kept = { ...first(), leaseUntil: 0, outcome: 'created' };
      expect(await keys.reserve(second({}, T0 + 1), T0 + 1)).toStrictEqual(kept);
      expect(await keys.reserve(second({}, T0 + LEASE_MS * 10), T0 + LEASE_MS * 10)).toStrictEqual(kept);
      await keys.complete(first().key, 'run-1', 'refused');
      expect(await keys.reserve(second({}, T0 + 2), T0 + 2)).toStrictEqual(kept);
    });

    it('keeps a refusal as an outcome too', async () => {
      await keys.reserve(first(), T0);
      await keys.complete(first().key, 'run-1', 'refused');
      expect((await keys.reserve(second({}, T0 + 1), T0 + 1)).outcome).toBe('refused');
    });

    it('keeps nothing from a run whose lease another run took over', async () => {
      await keys.reserve(first(), T0);
      await keys.reserve(second({}, T0 + LEASE_MS), T0 + LEASE_MS);
      await keys.complete(first().key, 'run-1', 'refused');
      await keys.release(first().key, 'run-1');
      const record = await keys.reserve(reservation({ lease: 'run-3' }, T0 + LEASE_MS + 1), T0 + LEASE_MS + 1);
      expect(record).toMatchObject({ lease: 'run-2', leaseUntil: T0 + 2 * LEASE_MS, outcome: null });
      await keys.complete(first().key, 'run-2', 'created');
      expect((await keys.reserve(reservation({ lease: 'run-4' }, T0 + LEASE_MS + 2), T0 + LEASE_MS + 2)).outcome).toBe('created');
    });

    it('lets the same request run again at once after a release, under the same post id', async () => {
      await keys.reserve(first(), T0);
      await keys.release(first().key, 'run-1');
      expect(await keys.reserve(second({}, T0 + 1), T0 + 1)).toStrictEqual({ ...first(), lease: 'run-2', leaseUntil: T0 + 1 + LEASE_MS, outcome: null });
    });

    it('forgets a key at its expiry: the next request with it starts afresh', async () => {
      await keys.reserve(first(), T0);
      await keys.complete(first().key, 'run-1', 'created');
      const later = T0 + TTL_MS;
      const fresh = second({ fingerprint: 'request-hash-2' }, later);
      expect(await keys.reserve(fresh, later)).toStrictEqual({ ...fresh, outcome: null });
    });

    it('keeps keys apart', async () => {
      await keys.reserve(first(), T0);
      await keys.complete(first().key, 'run-1', 'created');
      const other = second({ key: 'key-hash-2' });
      expect(await keys.reserve(other, T0 + 1)).toStrictEqual({ ...other, outcome: null });
      expect((await keys.reserve(reservation({ lease: 'run-3' }), T0 + 2)).outcome).toBe('created');
    });

    it('matches keys exactly: no prefix, case or pattern matching', async () => {
      await keys.reserve(first({ key: 'abc' }), T0);
      for (const key of ['ABC', 'ab', 'abc ', '.*', '{"$ne":null}']) {
        expect(await keys.reserve(second({ key }), T0)).toMatchObject({ lease: 'run-2', key });
      }
    });

    it('gives a new key to exactly one of many concurrent reservations', async () => {
      const runs = Array.from({ length: 8 }, (_, i) => reservation({ lease: `run-${i}`, postId: postId(i + 1) }));
      const records = await Promise.all(runs.map((run) => keys.reserve(run, T0)));
      const holders = new Set(records.map((record) => record.lease));
      expect(holders.size).toBe(1);
      const holder = runs.find((run) => holders.has(run.lease));
      expect(records).toStrictEqual(runs.map(() => ({ ...holder, outcome: null })));
    });
  });
}

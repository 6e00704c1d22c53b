import type { IdempotencyRecord, IdempotencyStore } from './ports.js';

/** How many keys the in-memory store keeps at most, unless told otherwise. */
export const IN_MEMORY_IDEMPOTENCY_KEYS_MAX = 100_000;

/** Options of `createInMemoryIdempotencyStore`. */
export interface InMemoryIdempotencyStoreOptions {
  /**
   * The most keys kept at once (`IN_MEMORY_IDEMPOTENCY_KEYS_MAX` by default). A new key forgets
   * the expired keys reserved before the others, then, past it, the oldest key: a request with a
   * forgotten key runs again.
   */
  readonly maxKeys?: number;
}

/**
 * Idempotency keys in process memory: one frozen record per key in a map, in the order the keys
 * were first reserved (oldest first). Every method checks and writes in one synchronous step. A
 * record is a few hundred bytes whatever the request (hashes, an id, times), and there are at
 * most `maxKeys` of them.
 */
export function createInMemoryIdempotencyStore(options: InMemoryIdempotencyStoreOptions = {}): IdempotencyStore {
  const maxKeys = options.maxKeys ?? IN_MEMORY_IDEMPOTENCY_KEYS_MAX;
  const records = new Map<string, IdempotencyRecord>();

  /**
   * Room for one more key, taken from the front of the map: the keys reserved first. Every key
   * lives the same time to live, so they also expire in that order: the expired keys go first,
   * then, while there is still no room, the oldest. Each key forgotten is one step, never a walk
   * over the keys kept.
   */
  function makeRoom(now: number): void {
    for (const [key, record] of records) {
      if (records.size < maxKeys && record.expiresAt > now) return;
      records.delete(key);
    }
  }

  /** Replaces the record of `key` with `changes` applied, if `lease` holds it with no outcome kept. */
  function settle(key: string, lease: string, changes: Partial<IdempotencyRecord>): void {
    const found = records.get(key);
    if (found && found.lease === lease && found.outcome === null) records.set(key, Object.freeze({ ...found, ...changes }));
  }

  return {
    async reserve(reservation, now) {
      const found = records.get(reservation.key);
      if (found === undefined || found.expiresAt <= now) {
        records.delete(reservation.key);
        makeRoom(now);
        const { key, fingerprint, lease, leaseUntil, postId, createdAt, expiresAt } = reservation;
        const record: IdempotencyRecord = Object.freeze({ key, fingerprint, lease, leaseUntil, postId, createdAt, expiresAt, outcome: null });
        records.set(reservation.key, record);
        return record;
      }
      if (found.outcome !== null || found.fingerprint !== reservation.fingerprint || found.leaseUntil > now) return found;
      const taken: IdempotencyRecord = Object.freeze({ ...found, lease: reservation.lease, leaseUntil: reservation.leaseUntil });
      records.set(reservation.key, taken);
      return taken;
    },
    async complete(key, lease, outcome) {
      settle(key, lease, { outcome, leaseUntil: 0 });
    },
    async release(key, lease) {
      settle(key, lease, { leaseUntil: 0 });
    },
  };
}

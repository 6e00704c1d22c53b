import type { IdempotencyRecord, IdempotencyStore } from './ports.js';

/** How many keys the in-memory store keeps at most, unless told otherwise. */
export const IN_MEMORY_IDEMPOTENCY_KEYS_MAX = 100_000;

/** Options of `createInMemoryIdempotencyStore`. */
export interface InMemoryIdempotencyStoreOptions {
  /**
   * The most keys kept at once (`IN_MEMORY_IDEMPOTENCY_KEYS_MAX` by default). A new key past it
   * makes room by forgetting the expired keys, then, if none had expired, the oldest key: a
   * request with a forgotten key runs again.
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

  /** Room for one more key: the expired keys go first, then the oldest. */
  function makeRoom(now: number): void {
    if (records.size < maxKeys) return;
    for (const [key, record] of records) if (record.expiresAt <= now) records.delete(key);
    for (const key of records.keys()) {
      if (records.size < maxKeys) break;
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

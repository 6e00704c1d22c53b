import { describe, expect, it } from 'vitest';
import { createInMemoryIdempotencyStore } from './in-memory-idempotency-store.js';
import type { IdempotencyStore } from './ports.js';

// What a reservation costs the in-memory store once it holds as many keys as it may: a client who
// fills it (a key per keyed create) must not make every later keyed create, anyone's, cost a
// walk over every key kept. CPU time of the test's own thread, compared with the same number of
// reservations into a store with room: a ratio, not a wall-clock threshold.

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;
const KEYS = 20_000;
const MORE = 1_000;

const reservation = (i: number) => ({ key: `key-${i}`, fingerprint: 'f', lease: `lease-${i}`, leaseUntil: T0 + 5000, postId: `post-${i}`, createdAt: T0, expiresAt: T0 + DAY });

/** CPU microseconds of this thread. */
function cpuMicros(): number {
  const usage = process.threadCpuUsage();
  return usage.user + usage.system;
}

async function fill(store: IdempotencyStore, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await store.reserve(reservation(i), T0);
}

async function costOfMore(store: IdempotencyStore): Promise<number> {
  const start = cpuMicros();
  for (let i = KEYS; i < KEYS + MORE; i++) await store.reserve(reservation(i), T0 + 1);
  return cpuMicros() - start;
}

describe('the in-memory idempotency store, full (attacks)', () => {
  it('makes room for a new key at a cost that does not grow with the keys it holds', async () => {
    const withRoom = createInMemoryIdempotencyStore({ maxKeys: KEYS + MORE });
    const full = createInMemoryIdempotencyStore({ maxKeys: KEYS });
    await fill(withRoom, KEYS);
    await fill(full, KEYS);
    const [roomy, crowded] = [await costOfMore(withRoom), await costOfMore(full)];
    console.info(`[in-memory idempotency store] ${MORE} reservations: ${roomy} µs CPU with room, ${crowded} µs when full of ${KEYS} keys`);
    // Forgetting the oldest key is one step; walking all 20 000 for expired ones each time is not.
    expect(crowded).toBeLessThan(Math.max(roomy, 1000) * 10);
  }, 60_000);
});

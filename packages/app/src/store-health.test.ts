import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchStore, type StoreHealth } from './store-health.js';

/** A store whose pings answer when the test says: each ping waits for `answer(true | false)`. */
function heldStore(reachedAtStart = true) {
  const pending: ((answers: boolean) => void)[] = [];
  return {
    store: { reachedAtStart, answerTimeoutMs: 10_000, ping: () => new Promise<boolean>((resolve) => pending.push(resolve)) },
    pings: () => pending.length,
    /** Answers the latest ping. */
    answer: (answers: boolean) => pending.at(-1)?.(answers),
  };
}

/** Every warn line, as [fields, message]. */
function warnings() {
  const lines: [Record<string, unknown>, string | undefined][] = [];
  const quiet = () => undefined;
  return { logger: { info: quiet, error: quiet, warn: (fields: object, message?: string) => void lines.push([fields as Record<string, unknown>, message]) }, lines };
}

describe('watchStore', () => {
  let health: StoreHealth | undefined;
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    health?.stop();
    vi.useRealTimers();
  });

  it('pings every second, one ping at a time, and a slow answer keeps the store reachable', async () => {
    const held = heldStore();
    const { logger, lines } = warnings();
    health = watchStore(held.store, logger);
    await vi.advanceTimersByTimeAsync(1000);
    expect(held.pings()).toBe(1);
    // Unanswered for 9.9 s: still reachable, and no second ping meanwhile.
    await vi.advanceTimersByTimeAsync(9900);
    expect(held.pings()).toBe(1);
    expect(health.reachable()).toBe(true);
    held.answer(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(held.pings()).toBe(2);
    expect(health.reachable()).toBe(true);
    expect(lines).toEqual([]);
  });

  it('is unreachable once a ping fails or goes unanswered for the answer timeout, in one line each time, and reachable again after a ping answers, with the 503s counted', async () => {
    const held = heldStore();
    const { logger, lines } = warnings();
    health = watchStore(held.store, logger);
    await vi.advanceTimersByTimeAsync(1000);
    held.answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(health.reachable()).toBe(false);
    health.requestFailed();
    health.requestFailed();
    held.answer(false);
    await vi.advanceTimersByTimeAsync(1000);
    held.answer(false);
    await vi.advanceTimersByTimeAsync(1000);
    held.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(health.reachable()).toBe(true);
    expect(lines).toEqual([
      [{ reason: 'a ping failed' }, expect.stringMatching(/^store: unreachable \(a ping failed\)/)],
      [{ unreachableForMs: 2000, answered503: 2 }, 'store: reachable again after 2.0 s (requests answered 503 meanwhile: 2)'],
    ]);

    // A database that takes the ping and never answers: unreachable once the ping has waited as long as a request would.
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(health.reachable()).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(health.reachable()).toBe(false);
    expect(lines.at(-1)).toEqual([{ reason: 'no answer to a ping for 10 s' }, expect.stringMatching(/^store: unreachable/)]);
  });

  it('pings at once for a request that could not reach the store: unreachable if that ping fails; one that answers changes nothing', async () => {
    const held = heldStore();
    const { logger, lines } = warnings();
    health = watchStore(held.store, logger);
    health.requestFailed();
    expect(held.pings()).toBe(1);
    held.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(health.reachable()).toBe(true);
    expect(lines).toEqual([]);

    health.requestFailed();
    expect(held.pings()).toBe(2);
    held.answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(health.reachable()).toBe(false);
    health.requestFailed();
    await vi.advanceTimersByTimeAsync(1000);
    held.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    // The isolated 503 before is not this outage's.
    expect(lines.map(([fields]) => fields)).toEqual([{ reason: 'a ping failed' }, { unreachableForMs: 1000, answered503: 2 }]);
  });

  it('starts unreachable, saying nothing, for a store not reached at start, and says when it is reached', async () => {
    const held = heldStore(false);
    const { logger, lines } = warnings();
    health = watchStore(held.store, logger);
    expect(health.reachable()).toBe(false);
    health.requestFailed();
    await vi.advanceTimersByTimeAsync(1000);
    held.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(health.reachable()).toBe(true);
    expect(lines).toEqual([[{ unreachableForMs: 1000, answered503: 1 }, 'store: reachable again after 1.0 s (requests answered 503 meanwhile: 1)']]);
  });
});

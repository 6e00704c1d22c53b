// The delivery loop's commit (a send's point of no return) crossed with a failing store, a second
// question, and a stop: what it writes, and what it leaves the store holding.
import { createInMemoryOutbox, DomainError, type DeliveryOutcome, type Outbox, type OutboxMessage } from '@inkwell/domain';
import { manualClock } from '@inkwell/domain/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeliveryLoop, type DeliveryLoop, type DeliveryTiming } from './mail-delivery.js';

const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Held {
  readonly message: OutboxMessage;
  readonly lease: AbortSignal;
  readonly commit: (holdMs: number) => Promise<void>;
  answer(outcome: DeliveryOutcome): void;
}

describe("the delivery loop's commit, crossed", () => {
  const loops: DeliveryLoop[] = [];
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });

  /** One reset waiting in `outbox` (wrapped by `wrap`), and a loop delivering it into a held delivery. */
  async function delivering(wrap: (outbox: Outbox) => Outbox, timing: Partial<DeliveryTiming>) {
    const outbox = createInMemoryOutbox();
    const clock = manualClock(Date.now());
    const added = await outbox.add({ kind: 'password-reset', to: 'alice@example.com', token: TOKEN, requestedAt: clock.now() });
    const calls: Held[] = [];
    const loop = createDeliveryLoop({
      outbox: wrap(outbox),
      deliver: (message, _holder, lease, commit) => new Promise<DeliveryOutcome>((answer) => calls.push({ message, lease, commit, answer })),
      clock,
      logger: silent,
      timing: { pollMs: 3_600_000, stopGraceMs: 20, ...timing },
    });
    loops.push(loop);
    loop.start();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    return { outbox, clock, added, loop, delivery: calls[0] as Held };
  }

  // Writes budget: a store that fails every long renewal at once (a primary refusing writes
  // during an election) is asked again every renewEveryMs (1 s at most) until the lease could end:
  // production's 20 s make it 20 writes per commit, 80 for a process's four deliveries.
  it('asks a store that fails at once again at most every renewEveryMs, and gives up when the lease could end', async () => {
    let longAsks = 0;
    const { delivery } = await delivering(
      (outbox) => ({
        ...outbox,
        renew: async (...args) => {
          if (args[3] > 1_000) {
            longAsks++;
            throw new DomainError('StoreUnavailable');
          }
          return outbox.renew(...args);
        },
      }),
      { leaseMs: 1_000, renewEveryMs: 200, leaseMarginMs: 300 },
    );
    const askedAt = performance.now();
    await expect(delivery.commit(60_000)).rejects.toMatchObject({ name: 'LeaseLost' });
    const tookMs = performance.now() - askedAt;
    expect(tookMs).toBeLessThan(1_000);
    expect(longAsks).toBeGreaterThanOrEqual(2);
    expect(longAsks).toBeLessThanOrEqual(Math.ceil(tookMs / 200) + 1);
    delivery.answer({ status: 'abandoned' });
  });

  it('a commit asked twice takes the long lease again and never shortens it', async () => {
    const { outbox, clock, added, loop, delivery } = await delivering((outbox) => outbox, { leaseMs: 1_000, renewEveryMs: 200, leaseMarginMs: 300 });
    await delivery.commit(60_000);
    clock.advance(30_000);
    await delivery.commit(1_000);
    clock.advance(30_500);
    expect(await outbox.claim('other', clock.now(), 1_000, 10)).toEqual([]);
    expect(delivery.lease.aborted).toBe(false);
    expect(await outbox.renew(added.id, loop.holder, clock.now(), 1)).toBe(true);
    delivery.answer({ status: 'sent' });
  });

  // The hand-back of a delivery whose commit still waits for the store when the stop's grace
  // runs out is waited for: the process closes its store right after the stop (Inkwell.close),
  // and a hand-back that never got there would leave the message to a long lease the store may
  // still grant (production: 10 min 25 s), nothing sent.
  it('stop() resolves only once the hand-back of a delivery whose commit waited for the store reached the store', async () => {
    let handedBack = false;
    const { outbox, clock, added, loop, delivery } = await delivering(
      (outbox) => ({
        ...outbox,
        renew: (...args) => (args[3] > 1_000 ? new Promise<boolean>(() => undefined) : outbox.renew(...args)),
        retryLater: async (...args) => {
          await sleep(50);
          await outbox.retryLater(...args);
          handedBack = true;
        },
      }),
      { leaseMs: 1_000, renewEveryMs: 200, leaseMarginMs: 300 },
    );
    const committing = delivery.commit(60_000).catch((error: unknown) => error);
    await sleep(20);
    await loop.stop();
    expect(handedBack).toBe(true);
    expect(await committing).toMatchObject({ name: 'LeaseLost' });
    expect((await outbox.claim('other', clock.now(), 1_000, 10)).map((message) => message.id)).toEqual([added.id]);
    delivery.answer({ status: 'abandoned' });
  });
});

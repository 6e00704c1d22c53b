import { createInMemoryOutbox, DomainError, type DeliveryOutcome, type NewMessage, type Outbox, type OutboxMessage } from '@inkwell/domain';
import { manualClock } from '@inkwell/domain/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SmtpFailure } from './adapters/smtp-mail-sender.js';
import { createDeliveryLoop, DEFAULT_DELIVERY_TIMING, type DeliveryLoop, type DeliveryTiming } from './mail-delivery.js';

const TOKEN = 'q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c';
const reset = (requestedAt: number, to = 'alice@example.com'): NewMessage => ({ kind: 'password-reset', to, token: TOKEN, requestedAt });

/** A logger that keeps what it is told. */
function recordingLogger() {
  const lines: { level: 'info' | 'warn' | 'error'; fields: Record<string, unknown>; message: string | undefined }[] = [];
  const at = (level: 'info' | 'warn' | 'error') => (fields: object, message?: string) => void lines.push({ level, fields: { ...fields }, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

/** A delivery the test answers: each call waits until the test settles it. */
interface PendingDelivery {
  readonly message: OutboxMessage;
  readonly holder: string;
  readonly lease: AbortSignal;
  /** What the delivery's sender asks at its point of no return. */
  readonly commit: (holdMs: number) => Promise<void>;
  answer(outcome: DeliveryOutcome): void;
  fail(error: unknown): void;
}

/** `deliver` as a queue of pending deliveries, with a way to wait for the n-th to arrive. */
function heldDeliveries() {
  const calls: PendingDelivery[] = [];
  const waiters = new Set<() => void>();
  return {
    calls,
    deliver: (message: OutboxMessage, holder: string, lease: AbortSignal, commit: (holdMs: number) => Promise<void>) =>
      new Promise<DeliveryOutcome>((resolve, reject) => {
        calls.push({ message, holder, lease, commit, answer: resolve, fail: reject });
        for (const wake of waiters) wake();
      }),
    /** Resolves once `count` deliveries have started. */
    reached: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (calls.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
  };
}

describe('the delivery loop', () => {
  const loops: DeliveryLoop[] = [];
  const start = (
    outbox: Outbox,
    deliver: (message: OutboxMessage, holder: string, lease: AbortSignal, commit: (holdMs: number) => Promise<void>) => Promise<DeliveryOutcome>,
    timing: Partial<DeliveryTiming> = {},
    clock = manualClock(),
  ) => {
    const logger = recordingLogger();
    const loop = createDeliveryLoop({ outbox, deliver, clock, logger, timing: { stopGraceMs: 20, ...timing } });
    loops.push(loop);
    loop.start();
    return { loop, logger, clock };
  };
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });

  it('defaults to 25 s leases renewed every 5 s and given up 5 s before they could end, a look every second and within a second of a message added, four at once, and a 10 s stop', () => {
    expect(DEFAULT_DELIVERY_TIMING).toStrictEqual({ leaseMs: 25_000, renewEveryMs: 5_000, leaseMarginMs: 5_000, pollMs: 1_000, wakeJitterMs: 1_000, concurrency: 4, stopGraceMs: 10_000 });
  });

  it('looks for a message added here at a random moment within wakeJitterMs, never at once', async () => {
    const outbox = createInMemoryOutbox();
    const deliveries = heldDeliveries();
    const claim = vi.spyOn(outbox, 'claim');
    const { loop, clock } = start(outbox, deliveries.deliver, { pollMs: 3_600_000, wakeJitterMs: 300 });
    await vi.waitFor(() => expect(claim).toHaveBeenCalledTimes(1));
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      await outbox.add(reset(clock.now()));
      const added = performance.now();
      loop.wakeSoon();
      await deliveries.reached(i + 1);
      waits.push(performance.now() - added);
      // The loop looks again as soon as a delivery ends: that look is over before the next message is added.
      const claims = claim.mock.calls.length;
      deliveries.calls[i]?.answer({ status: 'dropped', reason: 'no-account' });
      await vi.waitFor(() => expect(claim.mock.calls.length).toBeGreaterThan(claims));
      await claim.mock.results.at(-1)?.value;
      await outbox.remove(deliveries.calls[i]?.message.id ?? '', loop.holder);
    }
    expect(Math.max(...waits)).toBeLessThan(300 + 200);
    // Six uniform draws from 0 to 300 ms all under 20 ms, or all over 280: once in 10^8 runs.
    expect(waits.some((wait) => wait > 20) && waits.some((wait) => wait < 280)).toBe(true);
  });

  it('delivers a message added in this process at once when woken, without waiting for the next poll', async () => {
    const outbox = createInMemoryOutbox();
    const deliveries = heldDeliveries();
    const { loop, clock } = start(outbox, deliveries.deliver, { pollMs: 3_600_000 });
    const added = await outbox.add(reset(clock.now()));
    loop.wake();
    await deliveries.reached(1);
    expect(deliveries.calls[0]?.message).toStrictEqual(added);
    expect(deliveries.calls[0]?.holder).toBe(loop.holder);
  });

  it('finds messages other processes added at its next poll', async () => {
    const outbox = createInMemoryOutbox();
    const deliveries = heldDeliveries();
    const { clock } = start(outbox, deliveries.deliver, { pollMs: 20 });
    await outbox.add(reset(clock.now()));
    await deliveries.reached(1);
  });

  it('claims under its own holder with a lease of leaseMs from now, so no other process gets the message meanwhile', async () => {
    const outbox = createInMemoryOutbox();
    const deliveries = heldDeliveries();
    const clock = manualClock();
    await outbox.add(reset(clock.now()));
    const { loop } = start(outbox, deliveries.deliver, { leaseMs: 25_000 }, clock);
    await deliveries.reached(1);
    expect(loop.holder).toMatch(new RegExp(`^${process.pid}-[0-9a-f]{12}$`));
    expect(await outbox.claim('other', clock.now() + 24_999, 25_000, 10)).toEqual([]);
    expect(await outbox.claim('other', clock.now() + 25_000, 25_000, 10)).toHaveLength(1);
  });

  it('gives every loop a holder name of its own', () => {
    const names = new Set(Array.from({ length: 5 }, () => createDeliveryLoop({ outbox: createInMemoryOutbox(), deliver: async () => ({ status: 'sent' }), clock: manualClock(), logger: recordingLogger() }).holder));
    expect(names.size).toBe(5);
  });

  it('delivers at most `concurrency` messages at once, and claims the next as soon as one ends', async () => {
    const outbox = createInMemoryOutbox();
    const clock = manualClock();
    for (let i = 0; i < 6; i++) await outbox.add(reset(clock.now() - 6 + i));
    const deliveries = heldDeliveries();
    start(outbox, deliveries.deliver, { concurrency: 4, pollMs: 3_600_000 }, clock);
    await deliveries.reached(4);
    expect(deliveries.calls).toHaveLength(4);
    const [first] = deliveries.calls;
    await outbox.remove(first?.message.id ?? '', first?.holder ?? '');
    first?.answer({ status: 'sent' });
    await deliveries.reached(5);
    expect(deliveries.calls).toHaveLength(5);
  });

  it('logs what became of each message, by id, kind and attempt, never with its token or address', async () => {
    const outbox = createInMemoryOutbox();
    const clock = manualClock();
    for (let i = 0; i < 4; i++) await outbox.add(reset(clock.now() - 4 + i, `user${i}@example.com`));
    const deliveries = heldDeliveries();
    const { logger } = start(outbox, deliveries.deliver, { pollMs: 3_600_000 }, clock);
    await deliveries.reached(4);
    const refused = new SmtpFailure({ kind: 'refused', code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' });
    const store = Object.assign(new Error('E11000 duplicate key error dup key: { email: "user3@example.com" }'), { code: 11000 });
    const outcomes: DeliveryOutcome[] = [
      { status: 'sent' },
      { status: 'dropped', reason: 'no-account' },
      { status: 'retried', nextAttemptAt: Date.UTC(2026, 0, 1, 0, 0, 5), error: refused },
      { status: 'expired', error: store },
    ];
    outcomes.forEach((outcome, i) => deliveries.calls[i]?.answer(outcome));
    await vi.waitFor(() => expect(logger.lines).toHaveLength(4));
    const ids = deliveries.calls.map((call) => call.message.id);
    expect(logger.lines).toStrictEqual([
      { level: 'info', fields: { messageId: ids[0], kind: 'password-reset', attempts: 1 }, message: 'mail: sent' },
      { level: 'info', fields: { messageId: ids[1], kind: 'password-reset', attempts: 1, reason: 'no-account' }, message: 'mail: dropped (no-account), nothing sent' },
      {
        level: 'warn',
        fields: {
          messageId: ids[2],
          kind: 'password-reset',
          attempts: 1,
          nextAttemptAt: '2026-01-01T00:00:05.000Z',
          error: { name: 'SmtpFailure', kind: 'refused', code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' },
        },
        message: 'mail: not accepted by the mail server; trying again later',
      },
      {
        level: 'error',
        fields: { messageId: ids[3], kind: 'password-reset', attempts: 1, error: { name: 'Error', code: 11000 } },
        message: 'mail: dropped, not delivered within 24 hours of the request',
      },
    ]);
    const logged = JSON.stringify(logger.lines);
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toMatch(/@example\.com/);
  });

  it('goes on after a delivery that fails on the store, leaving that message to its lease', async () => {
    const outbox = createInMemoryOutbox();
    const clock = manualClock();
    await outbox.add(reset(clock.now()));
    const deliveries = heldDeliveries();
    const { loop, logger } = start(outbox, deliveries.deliver, { pollMs: 3_600_000 }, clock);
    await deliveries.reached(1);
    deliveries.calls[0]?.fail(new DomainError('StoreUnavailable'));
    await vi.waitFor(() => expect(logger.lines.map((line) => line.level)).toEqual(['warn']));
    expect(logger.lines[0]?.message).toMatch(/tried again once its lease ends/);
    await outbox.add(reset(clock.now()));
    loop.wake();
    await deliveries.reached(2);
  });

  it('says once that it cannot claim while the store fails, keeps looking, and says when it claims again', async () => {
    const outbox = createInMemoryOutbox();
    let failing = true;
    let claims = 0;
    const flaky: Outbox = {
      ...outbox,
      claim: async (...args) => {
        claims++;
        if (failing) throw new DomainError('StoreUnavailable');
        return outbox.claim(...args);
      },
    };
    const deliveries = heldDeliveries();
    const { logger, clock } = start(flaky, deliveries.deliver, { pollMs: 5 });
    await vi.waitFor(() => expect(claims).toBeGreaterThanOrEqual(3));
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([['warn', 'mail: cannot claim messages; trying again every poll']]);
    await outbox.add(reset(clock.now()));
    failing = false;
    await deliveries.reached(1);
    expect(logger.lines.map((line) => line.message)).toEqual(['mail: cannot claim messages; trying again every poll', 'mail: claiming messages again']);
  });

  it('stops claiming once stopped, and its stop waits for the delivery in flight', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const outbox = createInMemoryOutbox();
    const clock = manualClock();
    await outbox.add(reset(clock.now()));
    const deliveries = heldDeliveries();
    const claim = vi.spyOn(outbox, 'claim');
    const { loop } = start(outbox, deliveries.deliver, { pollMs: 5, stopGraceMs: 24 * 3_600_000 }, clock);
    await deliveries.reached(1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    const claimsAtStop = claim.mock.calls.length;
    await outbox.add(reset(clock.now()));
    loop.wake();
    // Stopped, it claims nothing however long it is left, and its stop waits for the send in flight.
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(claim.mock.calls.length).toBe(claimsAtStop);
    expect(stopped).toBe(false);
    deliveries.calls[0]?.answer({ status: 'sent' });
    await stopping;
    expect(claim.mock.calls.length).toBe(claimsAtStop);
    expect(deliveries.calls).toHaveLength(1);
  });

  it('stops within its grace when a delivery never ends, and says the message is left to its lease', async () => {
    const outbox = createInMemoryOutbox();
    const clock = manualClock();
    await outbox.add(reset(clock.now()));
    const deliveries = heldDeliveries();
    const { loop, logger } = start(outbox, deliveries.deliver, { stopGraceMs: 50 }, clock);
    await deliveries.reached(1);
    await loop.stop();
    expect(logger.lines.map((line) => [line.level, line.fields])).toEqual([['warn', { inFlight: 1, graceMs: 50 }]]);
    // The send in flight is called off, so that it cannot reach the mail server after the process has gone.
    expect(deliveries.calls[0]?.lease.aborted).toBe(true);
  });

  it('delivers what a claim under way at the stop brings, within the grace', async () => {
    const outbox = createInMemoryOutbox();
    const clock = manualClock();
    await outbox.add(reset(clock.now()));
    let letClaimEnd!: () => void;
    const claimHeld = new Promise<void>((resolve) => (letClaimEnd = resolve));
    let claimStarted!: () => void;
    const claimReached = new Promise<void>((resolve) => (claimStarted = resolve));
    const slow: Outbox = {
      ...outbox,
      claim: async (...args) => {
        claimStarted();
        await claimHeld;
        return outbox.claim(...args);
      },
    };
    const delivered: string[] = [];
    const { loop } = start(slow, async (message) => {
      delivered.push(message.id);
      return { status: 'sent' };
    }, {}, clock);
    await claimReached;
    const stopping = loop.stop();
    letClaimEnd();
    await stopping;
    expect(delivered).toHaveLength(1);
  });

  /** One message in an in-memory outbox, its delivery started and held, under leases of 200 ms renewed every 40 ms and given up 50 ms before they could end. */
  const deliveringOne = async () => {
    const outbox = createInMemoryOutbox();
    const clock = manualClock(Date.now());
    const renew = vi.spyOn(outbox, 'renew');
    const added = await outbox.add(reset(clock.now()));
    const deliveries = heldDeliveries();
    const { loop } = start(outbox, deliveries.deliver, { leaseMs: 200, renewEveryMs: 40, leaseMarginMs: 50, pollMs: 3_600_000 }, clock);
    await deliveries.reached(1);
    return { outbox, clock, renew, added, deliveries, loop };
  };

  describe("a message's lease while it is delivered", () => {
    it('is renewed every renewEveryMs for as long as the delivery takes, so no other holder can claim it, and no more once it ends', async () => {
      const { outbox, clock, renew, added, deliveries, loop } = await deliveringOne();
      // Far past the first lease, by the clock the outbox counts leases by: still held, since it was renewed.
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        clock.advance(100);
        expect(await outbox.claim('other', clock.now(), 200, 10)).toEqual([]);
      }
      expect(renew.mock.calls.length).toBeGreaterThanOrEqual(5);
      expect(renew.mock.calls.every(([id, holder, , leaseMs]) => id === added.id && holder === loop.holder && leaseMs === 200)).toBe(true);
      expect(deliveries.calls[0]?.lease.aborted).toBe(false);
      deliveries.calls[0]?.answer({ status: 'sent' });
      await vi.waitFor(() => expect(deliveries.calls).toHaveLength(1));
      const renewals = renew.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(renew.mock.calls.length).toBe(renewals);
    });

    it('is given up, and the delivery told, once another holder has the message', async () => {
      const outbox = createInMemoryOutbox();
      const clock = manualClock(Date.now());
      await outbox.add(reset(clock.now()));
      const deliveries = heldDeliveries();
      const { logger } = start(outbox, deliveries.deliver, { leaseMs: 10_000, renewEveryMs: 20, pollMs: 3_600_000 }, clock);
      await deliveries.reached(1);
      // The lease ran out by the outbox's clock, and another process took the message.
      clock.advance(10_001);
      expect(await outbox.claim('other', clock.now(), 10_000, 10)).toHaveLength(1);
      await vi.waitFor(() => expect(deliveries.calls[0]?.lease.aborted).toBe(true));
      expect(deliveries.calls[0]?.lease.reason).toMatchObject({ name: 'LeaseLost', message: 'taken over by another holder' });
      deliveries.calls[0]?.answer({ status: 'abandoned' });
      await vi.waitFor(() => expect(logger.lines.map((line) => line.message)).toEqual(['mail: stopped, its lease could not be kept; left to whoever holds it next']));
    });

    it('is given up leaseMarginMs before it could end when the store does not answer the renewals, counted from before the claim was asked', async () => {
      const outbox = createInMemoryOutbox();
      const clock = manualClock();
      await outbox.add(reset(clock.now()));
      let claimAskedAt = 0;
      const stalled: Outbox = {
        ...outbox,
        claim: async (...args) => {
          claimAskedAt ||= performance.now();
          // A slow store: the claim's answer comes 100 ms after it was asked.
          await new Promise((resolve) => setTimeout(resolve, 100));
          return outbox.claim(...args);
        },
        renew: () => new Promise<boolean>(() => undefined),
      };
      const deliveries = heldDeliveries();
      start(stalled, deliveries.deliver, { leaseMs: 400, renewEveryMs: 50, leaseMarginMs: 150, pollMs: 3_600_000 }, clock);
      await deliveries.reached(1);
      await vi.waitFor(() => expect(deliveries.calls[0]?.lease.aborted).toBe(true), { timeout: 2_000, interval: 5 });
      const gaveUpAfter = performance.now() - claimAskedAt;
      expect(gaveUpAfter).toBeGreaterThanOrEqual(240);
      expect(gaveUpAfter).toBeLessThan(400);
      expect(deliveries.calls[0]?.lease.reason).toMatchObject({ message: 'could not be renewed in time' });
    });

    it('is not handed to a second delivery when this process claims a message it is still delivering', async () => {
      const outbox = createInMemoryOutbox();
      const clock = manualClock();
      const added = await outbox.add(reset(clock.now()));
      const deliveries = heldDeliveries();
      const { loop } = start(outbox, deliveries.deliver, { leaseMs: 10_000, renewEveryMs: 3_600_000, leaseMarginMs: 0, pollMs: 10 }, clock);
      await deliveries.reached(1);
      // Its lease runs out by the outbox's clock, with no renewal (the store was too slow): its own next poll gets it back.
      const claim = vi.spyOn(outbox, 'claim');
      clock.advance(10_000);
      await vi.waitFor(() => expect(claim).toHaveBeenCalled());
      await vi.waitFor(async () => expect(await claim.mock.results[0]?.value).toStrictEqual([added]));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(deliveries.calls).toHaveLength(1);
      expect(await outbox.renew(added.id, loop.holder, clock.now(), 10_000)).toBe(true);
    });
  });
  describe("a send's point of no return (commit)", () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it('takes one lease covering holdMs plus leaseMs, stops renewing, and a late short renewal never shortens it', async () => {
      const { outbox, clock, renew, added, deliveries, loop } = await deliveringOne();
      const delivery = deliveries.calls[0] as PendingDelivery;
      await sleep(60);
      const before = renew.mock.calls.length;
      expect(before).toBeGreaterThanOrEqual(1);
      await delivery.commit(60_000);
      expect(renew.mock.calls[before]).toEqual([added.id, loop.holder, clock.now(), 60_200]);
      // No renewal after the commit: the long lease covers the rest of the send.
      await sleep(200);
      expect(renew.mock.calls.length).toBeLessThanOrEqual(before + 2);
      const settled = renew.mock.calls.length;
      await sleep(200);
      expect(renew.mock.calls.length).toBe(settled);
      // A renewal of a short lease that reaches the store after the long one (one in flight at the commit) leaves the long one.
      expect(await outbox.renew(added.id, loop.holder, clock.now(), 200)).toBe(true);
      clock.advance(59_000);
      expect(await outbox.claim('other', clock.now(), 200, 10)).toEqual([]);
      // Far past the short leases, by this process's clock: the delivery's lease still holds.
      expect(delivery.lease.aborted).toBe(false);
      clock.advance(2_000);
      expect(await outbox.claim('other', clock.now(), 200, 10)).toHaveLength(1);
    });

    it('is refused when the store grants the long lease only after the current lease could end within its margin: the lease aborts, the message is handed back at once, and the late grant keeps nothing', async () => {
      const outbox = createInMemoryOutbox();
      const clock = manualClock(Date.now());
      const added = await outbox.add(reset(clock.now()));
      let grant: () => void = () => undefined;
      const slow: Outbox = {
        ...outbox,
        // The store takes its time with the long lease alone; the short renewals come back at once.
        renew: async (id, holder, now, leaseMs) => {
          if (leaseMs > 400) await new Promise<void>((resolve) => (grant = resolve));
          return outbox.renew(id, holder, now, leaseMs);
        },
      };
      const deliveries = heldDeliveries();
      start(slow, deliveries.deliver, { leaseMs: 400, renewEveryMs: 50, leaseMarginMs: 150, pollMs: 3_600_000 }, clock);
      await deliveries.reached(1);
      const delivery = deliveries.calls[0] as PendingDelivery;
      const askedAt = performance.now();
      await expect(delivery.commit(60_000)).rejects.toMatchObject({ name: 'LeaseLost', message: 'could not be renewed in time' });
      // The short lease was last renewed when the commit was asked at the latest: it is given up within it.
      expect(performance.now() - askedAt).toBeLessThan(400);
      expect(delivery.lease.aborted).toBe(true);
      // Nothing of the mail's end went out: another holder may send it at once.
      await vi.waitFor(async () => expect((await outbox.claim('other', clock.now(), 400, 10)).map((m) => m.id)).toEqual([added.id]));
      grant();
      await sleep(20);
      expect(await outbox.renew(added.id, 'other', clock.now(), 400)).toBe(true);
      clock.advance(401);
      expect((await outbox.claim('third', clock.now(), 400, 10)).map((m) => m.id)).toEqual([added.id]);
      delivery.answer({ status: 'abandoned' });
    });

    it('is refused when another holder has the message', async () => {
      const outbox = createInMemoryOutbox();
      const clock = manualClock(Date.now());
      await outbox.add(reset(clock.now()));
      const deliveries = heldDeliveries();
      start(outbox, deliveries.deliver, { leaseMs: 10_000, renewEveryMs: 3_600_000, pollMs: 3_600_000 }, clock);
      await deliveries.reached(1);
      clock.advance(10_001);
      expect(await outbox.claim('other', clock.now(), 10_000, 10)).toHaveLength(1);
      const delivery = deliveries.calls[0] as PendingDelivery;
      await expect(delivery.commit(60_000)).rejects.toMatchObject({ name: 'LeaseLost', message: 'taken over by another holder' });
      expect(delivery.lease.aborted).toBe(true);
      delivery.answer({ status: 'abandoned' });
    });

    it('hands a message past its point of no return back, due at once, when the loop stops with its delivery still in flight', async () => {
      const outbox = createInMemoryOutbox();
      const clock = manualClock(Date.now());
      const added = await outbox.add(reset(clock.now()));
      const deliveries = heldDeliveries();
      const { loop } = start(outbox, deliveries.deliver, { leaseMs: 1_000, renewEveryMs: 200, pollMs: 3_600_000 }, clock);
      await deliveries.reached(1);
      await deliveries.calls[0]?.commit(60_000);
      await loop.stop();
      expect(deliveries.calls[0]?.lease.aborted).toBe(true);
      expect(await outbox.claim('other', clock.now(), 1_000, 10)).toStrictEqual([{ ...added, attempts: 1, nextAttemptAt: clock.now() }]);
    });
  });
});

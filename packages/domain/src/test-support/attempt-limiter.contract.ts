import { beforeEach, describe, expect, it } from 'vitest';
import type { AttemptLimiter, AttemptVerdict } from '../accounts/attempt-limiter.js';
import type { Clock } from '../shared/clock.js';
import { manualClock, type ManualClock } from './fakes.js';

/** The rule a limiter under test enforces, and the clock it must read the time from. */
export interface AttemptLimiterContractOptions {
  readonly max: number;
  readonly windowSeconds: number;
  readonly clock: Clock;
}

/** An attempt counted and allowed, by whichever window. */
const ALLOWED = { allowed: true, window: expect.any(String) };

/** Keys that must be counted apart and stored safely: operators, separators, control characters, a huge one. */
const awkwardKeys = ['a.b', 'a$b', '$ne', '{"$ne":null}', '\u0000', 'ünï 🎉', 'x'.repeat(10_000), '203.0.113.9', '2001:db8::/64'];

/**
 * The behaviour every `AttemptLimiter` must have. `makeLimiter` is called inside each test and
 * must return a limiter for one new rule over an empty store, reading the time from `clock`
 * only (so windows end when the test moves the clock).
 */
export function describeAttemptLimiterContract(
  adapterName: string,
  makeLimiter: (options: AttemptLimiterContractOptions) => AttemptLimiter | Promise<AttemptLimiter>,
): void {
  describe(`AttemptLimiter contract: ${adapterName}`, () => {
    let clock: ManualClock;
    beforeEach(() => {
      clock = manualClock();
    });
    const limiter = (max: number, windowSeconds = 60) => makeLimiter({ max, windowSeconds, clock });
    /** The window an allowed attempt was counted in. */
    const windowOf = (verdict: AttemptVerdict): string => {
      if (!verdict.allowed || verdict.window === undefined) throw new Error(`expected a counted attempt, got ${JSON.stringify(verdict)}`);
      return verdict.window;
    };

    it('allows max attempts per key, then refuses with the seconds left in the window', async () => {
      const limits = await limiter(3, 60);
      for (let i = 0; i < 3; i++) expect(await limits.take('k')).toEqual(ALLOWED);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
      clock.advance(20_500);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 40 });
    });

    it('rounds the wait up, and never answers less than one second', async () => {
      const limits = await limiter(1, 10);
      await limits.take('k');
      clock.advance(9_001);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
      clock.advance(998);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    });

    it('does not count refused attempts: the window ends when it would have anyway', async () => {
      const limits = await limiter(1, 10);
      await limits.take('k');
      for (let i = 0; i < 30; i++) expect((await limits.take('k')).allowed).toBe(false);
      clock.advance(10_000);
      expect(await limits.take('k')).toEqual(ALLOWED);
    });

    it('opens a new window once the old one has ended, never before', async () => {
      const limits = await limiter(2, 900);
      await limits.take('k');
      await limits.take('k');
      clock.advance(899_999);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
      clock.advance(1);
      expect(await limits.take('k')).toEqual(ALLOWED);
      expect(await limits.take('k')).toEqual(ALLOWED);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 900 });
    });

    it('opens the window at the first attempt, not at a fixed time', async () => {
      const limits = await limiter(1, 60);
      clock.advance(12_345);
      await limits.take('k');
      clock.advance(30_000);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    });

    it('keeps keys apart, awkward ones included', async () => {
      const limits = await limiter(1);
      for (const key of awkwardKeys) expect(await limits.take(key)).toEqual(ALLOWED);
      for (const key of awkwardKeys) expect((await limits.take(key)).allowed).toBe(false);
      expect(await limits.take('a')).toEqual(ALLOWED);
    });

    it('gives back one attempt at a time', async () => {
      const limits = await limiter(2);
      const first = windowOf(await limits.take('k'));
      await limits.take('k');
      expect((await limits.take('k')).allowed).toBe(false);
      await limits.giveBack('k', first);
      expect(await limits.take('k')).toEqual({ allowed: true, window: first });
      expect((await limits.take('k')).allowed).toBe(false);
    });

    it('forgets a window whose every attempt was given back: the next attempt opens a new one', async () => {
      const limits = await limiter(1, 60);
      const window = windowOf(await limits.take('k'));
      clock.advance(30_000);
      await limits.giveBack('k', window);
      expect(windowOf(await limits.take('k'))).not.toBe(window);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    });

    it('gives an attempt back to the window that counted it, never to a later one', async () => {
      const limits = await limiter(2, 60);
      const earlier = windowOf(await limits.take('k'));
      clock.advance(60_000);
      // The attempt's window ended while it ran; a new one opened and filled meanwhile.
      const later = windowOf(await limits.take('k'));
      expect(later).not.toBe(earlier);
      await limits.take('k');
      await limits.giveBack('k', earlier);
      expect(await limits.take('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
      // Given back in its own window, an attempt still frees its room.
      await limits.giveBack('k', later);
      expect(await limits.take('k')).toEqual({ allowed: true, window: later });
    });

    it('gives nothing back to a window opened after a reset, even in the same millisecond', async () => {
      const limits = await limiter(2, 60);
      const before = windowOf(await limits.take('k'));
      await limits.reset('k');
      const after = windowOf(await limits.take('k'));
      expect(after).not.toBe(before);
      await limits.take('k');
      await limits.giveBack('k', before);
      expect((await limits.take('k')).allowed).toBe(false);
    });

    it('never counts below zero, and ignores keys and windows it does not know', async () => {
      const limits = await limiter(2);
      const window = windowOf(await limits.take('k'));
      await limits.giveBack('unknown', window);
      await limits.giveBack('k', 'no-such-window');
      for (let i = 0; i < 3; i++) await limits.giveBack('k', window);
      await limits.take('k');
      await limits.take('k');
      expect((await limits.take('k')).allowed).toBe(false);
    });

    it('forgets every attempt of a key on reset, and only of that key', async () => {
      const limits = await limiter(2);
      for (const key of ['k', 'other']) {
        await limits.take(key);
        await limits.take(key);
      }
      await limits.reset('k');
      await limits.reset('never-seen');
      expect(await limits.take('k')).toEqual(ALLOWED);
      expect(await limits.take('k')).toEqual(ALLOWED);
      expect((await limits.take('k')).allowed).toBe(false);
      expect((await limits.take('other')).allowed).toBe(false);
    });

    it('with max 0 allows every attempt and counts none (no window to give back to)', async () => {
      const limits = await limiter(0);
      for (let i = 0; i < 50; i++) expect(await limits.take(`k${i % 3}`)).toEqual({ allowed: true });
    });

    it('counts concurrent attempts exactly: of 50 at once with max 10, 10 pass, on a new key and on an open window', async () => {
      const limits = await limiter(10);
      const fresh = await Promise.all(Array.from({ length: 50 }, () => limits.take('new')));
      expect(fresh.filter((verdict) => verdict.allowed)).toHaveLength(10);

      await limits.take('open');
      const open = await Promise.all(Array.from({ length: 50 }, () => limits.take('open')));
      expect(open.filter((verdict) => verdict.allowed)).toHaveLength(9);
      for (const verdict of [...fresh, ...open]) {
        if (!verdict.allowed) expect(verdict.retryAfterSeconds).toBe(60);
      }
    });

    it('counts concurrent takes and give-backs to the exact balance', async () => {
      const limits = await limiter(100);
      const window = windowOf(await limits.take('k'));
      for (let i = 1; i < 40; i++) await limits.take('k');
      await Promise.all([
        ...Array.from({ length: 30 }, () => limits.take('k')),
        ...Array.from({ length: 20 }, () => limits.giveBack('k', window)),
      ]);
      // 40 + 30 - 20 = 50 counted: exactly 50 more fit.
      const more = await Promise.all(Array.from({ length: 60 }, () => limits.take('k')));
      expect(more.filter((verdict) => verdict.allowed)).toHaveLength(50);
    });
  });
}

import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/fakes.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';

const setup = (max = 3, windowSeconds = 60, maxKeys?: number) => {
  const clock = manualClock();
  return { clock, limiter: createInMemoryAttemptLimiter({ max, windowSeconds, clock, maxKeys }) };
};

describe('createInMemoryAttemptLimiter', () => {
  it('allows max attempts per key, then refuses with the seconds left in the window', async () => {
    const { limiter, clock } = setup(3, 60);
    for (let i = 0; i < 3; i++) expect(await limiter.take('k')).toEqual({ allowed: true });
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 60 });
    clock.advance(20_500);
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 40 });
  });

  it('does not count refused attempts: the window ends when it would have anyway', async () => {
    const { limiter, clock } = setup(1, 10);
    await limiter.take('k');
    for (let i = 0; i < 50; i++) expect((await limiter.take('k')).allowed).toBe(false);
    clock.advance(10_000);
    expect(await limiter.take('k')).toEqual({ allowed: true });
  });

  it('keeps keys apart', async () => {
    const { limiter } = setup(1);
    expect((await limiter.take('a')).allowed).toBe(true);
    expect((await limiter.take('a')).allowed).toBe(false);
    expect((await limiter.take('b')).allowed).toBe(true);
  });

  it('opens a new window once the old one has ended, never before', async () => {
    const { limiter, clock } = setup(2, 900);
    await limiter.take('k');
    await limiter.take('k');
    clock.advance(899_999);
    expect(await limiter.take('k')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1);
    expect(await limiter.take('k')).toEqual({ allowed: true });
    expect(await limiter.take('k')).toEqual({ allowed: true });
    expect((await limiter.take('k')).allowed).toBe(false);
  });

  it('gives back one attempt at a time, and forgets a key on reset', async () => {
    const { limiter } = setup(2);
    await limiter.take('k');
    await limiter.take('k');
    expect((await limiter.take('k')).allowed).toBe(false);
    await limiter.giveBack('k');
    expect((await limiter.take('k')).allowed).toBe(true);
    expect((await limiter.take('k')).allowed).toBe(false);
    await limiter.reset('k');
    expect(limiter.size).toBe(0);
    expect((await limiter.take('k')).allowed).toBe(true);
    await limiter.giveBack('unknown');
    await limiter.giveBack('k');
    await limiter.giveBack('k');
    expect(limiter.size).toBe(0);
  });

  it('with max 0 allows everything and tracks nothing', async () => {
    const { limiter } = setup(0);
    for (let i = 0; i < 1000; i++) expect((await limiter.take(`k${i % 3}`)).allowed).toBe(true);
    expect(limiter.size).toBe(0);
  });

  it('counts concurrent attempts exactly: of 50 at once with max 10, 10 pass', async () => {
    const { limiter } = setup(10);
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => limiter.take('k')));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(10);
  });

  it('drops ended windows as time passes', async () => {
    const { limiter, clock } = setup(5, 60);
    for (let i = 0; i < 1000; i++) await limiter.take(`addr-${i}`);
    expect(limiter.size).toBe(1000);
    clock.advance(60_000);
    await limiter.take('late');
    expect(limiter.size).toBe(1);
  });

  it('stays under its cap when flooded with 100 000 distinct keys, evicting the oldest first', async () => {
    const { limiter } = setup(5, 3600, 10_000);
    await limiter.take('first');
    await limiter.take('first');
    const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    let peak = 0;
    for (let i = 0; i < 100_000; i++) {
      await limiter.take(address(i));
      peak = Math.max(peak, limiter.size);
    }
    expect(peak).toBe(10_000);
    expect(limiter.size).toBe(10_000);
    // The newest keys are still counted, the oldest were forgotten.
    for (let i = 0; i < 4; i++) await limiter.take(address(99_999));
    expect((await limiter.take(address(99_999))).allowed).toBe(false);
    expect((await limiter.take('first')).allowed).toBe(true);
  });
});

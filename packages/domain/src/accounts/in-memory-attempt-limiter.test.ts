import { describe, expect, it } from 'vitest';
import { describeAttemptLimiterContract } from '../test-support/attempt-limiter.contract.js';
import { manualClock } from '../test-support/fakes.js';
import { createInMemoryAttemptLimiter } from './in-memory-attempt-limiter.js';

const setup = (max = 3, windowSeconds = 60, maxKeys?: number) => {
  const clock = manualClock();
  return { clock, limiter: createInMemoryAttemptLimiter({ max, windowSeconds, clock, maxKeys }) };
};

describeAttemptLimiterContract('in-memory', (options) => createInMemoryAttemptLimiter(options));

describe('createInMemoryAttemptLimiter', () => {
  it('tracks nothing with max 0', async () => {
    const { limiter } = setup(0);
    for (let i = 0; i < 1000; i++) await limiter.take(`k${i % 3}`);
    expect(limiter.size).toBe(0);
  });

  it('stops tracking a key on reset and once its attempts are all given back', async () => {
    const { limiter } = setup(2);
    await limiter.take('k');
    await limiter.reset('k');
    expect(limiter.size).toBe(0);
    const verdict = await limiter.take('k');
    await limiter.take('k');
    const window = verdict.allowed ? (verdict.window as string) : '';
    await limiter.giveBack('k', window);
    expect(limiter.size).toBe(1);
    await limiter.giveBack('k', window);
    expect(limiter.size).toBe(0);
  });

  it('drops ended windows as time passes', async () => {
    const { limiter, clock } = setup(5, 60);
    for (let i = 0; i < 1000; i++) await limiter.take(`addr-${i}`);
    expect(limiter.size).toBe(1000);
    clock.advance(60_000);
    await limiter.take('late');
    expect(limiter.size).toBe(1);
  });

  // 100 000 takes are about 2 s of CPU: a busy machine stretches them past vitest's 5 s default.
  it('stays under its cap when flooded with 100 000 distinct keys, evicting the oldest first', { timeout: 30_000 }, async () => {
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

import { describe, expect, it } from 'vitest';
import { DELIVERY_WINDOW_MS, nextAttemptAfterFailure } from './delivery-schedule.js';

const T0 = 1_767_225_600_000;

describe('nextAttemptAfterFailure', () => {
  it('tries again 5 s after the first failure, then doubling, never more than 5 minutes apart', () => {
    const gaps = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((attempts) => (nextAttemptAfterFailure({ attempts, requestedAt: T0 }, T0 + 1000) ?? 0) - (T0 + 1000));
    expect(gaps).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000]);
  });

  it('drops a message once its next try would fall 24 hours or more after it was asked for', () => {
    expect(nextAttemptAfterFailure({ attempts: 10, requestedAt: T0 }, T0 + DELIVERY_WINDOW_MS - 300_001)).toBe(T0 + DELIVERY_WINDOW_MS - 1);
    expect(nextAttemptAfterFailure({ attempts: 10, requestedAt: T0 }, T0 + DELIVERY_WINDOW_MS - 300_000)).toBeNull();
    expect(nextAttemptAfterFailure({ attempts: 0, requestedAt: T0 }, T0 + DELIVERY_WINDOW_MS)).toBeNull();
  });
});

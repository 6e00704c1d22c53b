import { describe, expect, it } from 'vitest';
import { areaUnderCurve, bestThresholdAccuracy } from './stats.js';

describe('areaUnderCurve', () => {
  it('is 1 when every positive is above every negative, 0 the other way round, and 0.5 for the same values', () => {
    expect(areaUnderCurve([3, 4, 5], [0, 1, 2])).toBe(1);
    expect(areaUnderCurve([0, 1, 2], [3, 4, 5])).toBe(0);
    expect(areaUnderCurve([1, 2, 3], [1, 2, 3])).toBe(0.5);
  });

  it('counts ties half: the chance that a positive drawn at random beats a negative', () => {
    // Pairs (p, n): (1,1) tie, (1,0) win, (2,1) win, (2,0) win: 3.5 of 4.
    expect(areaUnderCurve([1, 2], [1, 0])).toBe(0.875);
  });
});

describe('bestThresholdAccuracy', () => {
  it('is 1 for sides a threshold splits, 0.5 for the same values, and reads a split either way round', () => {
    expect(bestThresholdAccuracy([3, 4], [1, 2])).toBe(1);
    expect(bestThresholdAccuracy([1, 2], [3, 4])).toBe(1);
    expect(bestThresholdAccuracy([1, 2], [1, 2])).toBe(0.5);
    expect(bestThresholdAccuracy([2, 3], [1, 3])).toBe(0.75);
  });
});

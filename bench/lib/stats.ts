/** The median of `values` (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The `p`th percentile (0–100) of `values` by the nearest-rank method; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** `value` rounded to `digits` decimals, for tables and JSON that people read. */
export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/**
 * The area under the ROC curve of telling `positives` from `negatives` by a value, the higher
 * meaning positive: the chance that a positive drawn at random is higher than a negative drawn at
 * random, ties counting half (the Mann–Whitney U over the product of the counts). 0.5 tells nothing;
 * 1 or 0 tells every pair apart. NaN when either side is empty.
 */
export function areaUnderCurve(positives: readonly number[], negatives: readonly number[]): number {
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  const all = [...positives.map((value) => ({ value, positive: true })), ...negatives.map((value) => ({ value, positive: false }))].sort(
    (a, b) => a.value - b.value,
  );
  // Ranks from 1, ties sharing the mean of their ranks.
  let rankSum = 0;
  for (let start = 0; start < all.length; ) {
    let end = start;
    while (end + 1 < all.length && (all[end + 1] as { value: number }).value === (all[start] as { value: number }).value) end++;
    const rank = (start + end + 2) / 2;
    for (let i = start; i <= end; i++) if ((all[i] as { positive: boolean }).positive) rankSum += rank;
    start = end + 1;
  }
  const u = rankSum - (positives.length * (positives.length + 1)) / 2;
  return u / (positives.length * negatives.length);
}

/**
 * How often one value alone tells a positive from a negative, at the best threshold (either way
 * round): the accuracy of the best single-request guess, over as many positives as negatives.
 */
export function bestThresholdAccuracy(positives: readonly number[], negatives: readonly number[]): number {
  const thresholds = [...new Set([...positives, ...negatives])];
  let best = 0.5;
  for (const threshold of thresholds) {
    const truePositive = positives.filter((value) => value >= threshold).length / positives.length;
    const trueNegative = negatives.filter((value) => value < threshold).length / negatives.length;
    const accuracy = (truePositive + trueNegative) / 2;
    best = Math.max(best, accuracy, 1 - accuracy);
  }
  return best;
}

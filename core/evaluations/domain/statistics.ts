/** 95% two-sided normal quantile. */
const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval of a proportion (Wilson, 1927): unlike the normal approximation it stays inside
 * [0, 1] and keeps its coverage for small samples and rates near 0 or 1. Null without observations.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The mean and its 95% normal-approximation interval, clipped to [0, 1] (scores live there). Null without observations. */
export function meanInterval(values: number[], z = Z95): { mean: number; interval: Interval | null } | null {
  return meanIntervalOf(values.length, values.reduce((s, v) => s + v, 0), values.reduce((s, v) => s + v * v, 0), z);
}

/** The same from the count, sum and sum of squares of the values (what an aggregate statement gives). */
export function meanIntervalOf(n: number, sum: number, sumSquares: number, z = Z95): { mean: number; interval: Interval | null } | null {
  if (n === 0) return null;
  const mean = sum / n;
  if (n < 2) return { mean, interval: null };
  // Scores lie in [0, 1], so the sums stay small and the difference below keeps its precision; never below 0.
  const variance = Math.max(0, (sumSquares - n * mean * mean) / (n - 1));
  const half = z * Math.sqrt(variance / n);
  return { mean, interval: { low: Math.max(0, mean - half), high: Math.min(1, mean + half) } };
}

/**
 * Always-valid inference for A/B tests: the mixture sequential probability ratio test (mSPRT) of
 * Johari, Koomen, Pekelis & Walsh, "Always Valid Inference: Continuous Monitoring of A/B Tests",
 * Operations Research 70(3), 2022 (arXiv:1512.04922), in its normal form with a N(0, tau^2) mixture.
 *
 * For an estimate `theta` with variance `V`, the mixture likelihood ratio against theta = 0 is
 *   Lambda = sqrt(V / (V + tau^2)) * exp(tau^2 * theta^2 / (2 V (V + tau^2)))
 * and H0 is rejected the first time Lambda >= 1/alpha. Inverting the test gives the always-valid
 * confidence interval theta +/- halfWidth(V), which holds at every look at once: the chance that it ever
 * excludes the true value, however often it is read, is at most alpha. Pure functions, no I/O.
 */

/** Running sums of one arm's observations: enough for its mean and variance. */
export interface Moments {
  n: number;
  sum: number;
  sumSquares: number;
}

export const NO_MOMENTS: Moments = { n: 0, sum: 0, sumSquares: 0 };

/** Moments of a list of values (tests, simulations). */
export function momentsOf(values: readonly number[]): Moments {
  let sum = 0;
  let sumSquares = 0;
  for (const v of values) {
    sum += v;
    sumSquares += v * v;
  }
  return { n: values.length, sum, sumSquares };
}

/** Adds one observation (simulations). */
export const addObservation = (m: Moments, value: number): Moments => ({ n: m.n + 1, sum: m.sum + value, sumSquares: m.sumSquares + value * value });

export const meanOf = (m: Moments): number | null => (m.n > 0 ? m.sum / m.n : null);

/**
 * The sample variance, shrunk toward `priorVariance` by one pseudo-observation, so a handful of identical
 * values (five ratings of 5) does not read as a variance of zero, which would make any difference look
 * certain. With no prior (an unbounded metric such as cost) the sample variance alone, floored just above 0.
 */
export function varianceOf(m: Moments, priorVariance: number | null): number {
  const mean = m.n > 0 ? m.sum / m.n : 0;
  const squares = Math.max(0, m.sumSquares - m.n * mean * mean);
  if (priorVariance !== null) return (squares + priorVariance) / Math.max(1, m.n);
  return Math.max(m.n > 1 ? squares / (m.n - 1) : 0, 1e-12);
}

/** The mixture likelihood ratio of an estimate with variance `v` against "no effect" (tau2: mixture variance). */
export function mixtureLikelihoodRatio(estimate: number, v: number, tau2: number): number {
  return Math.sqrt(v / (v + tau2)) * Math.exp((tau2 * estimate * estimate) / (2 * v * (v + tau2)));
}

/** Half the width of the always-valid (1 - alpha) confidence interval for an estimate of variance `v`. */
export function alwaysValidHalfWidth(v: number, tau2: number, alpha: number): number {
  return Math.sqrt(((v * (v + tau2)) / tau2) * (Math.log((v + tau2) / v) + 2 * Math.log(1 / alpha)));
}

export interface Interval {
  estimate: number;
  low: number;
  high: number;
}

export const intervalOf = (estimate: number, v: number, tau2: number, alpha: number): Interval => {
  const h = alwaysValidHalfWidth(v, tau2, alpha);
  return { estimate, low: estimate - h, high: estimate + h };
};

/** What a metric's observations are like, for the variance and the mixture. */
export interface MetricModel {
  /** Which way is better for the goal. */
  better: 'higher' | 'lower';
  /** A bound on one observation's variance (bounded metrics), used to shrink small samples; null when unbounded. */
  priorVariance: number | null;
}

/** An arm's mean with its always-valid interval (null before its first observation). */
export function armInterval(m: Moments, model: MetricModel, tau2: number, alpha: number): Interval | null {
  const mean = meanOf(m);
  if (mean === null) return null;
  return intervalOf(mean, varianceOf(m, model.priorVariance) / m.n, tau2, alpha);
}

export type Verdict = 'better' | 'worse' | 'equivalent' | 'undecided';

export interface Comparison extends Interval {
  /** The mixture likelihood ratio against "no difference". */
  likelihoodRatio: number;
  verdict: Verdict;
}

/**
 * An arm against the control: the difference of means (arm - control) with its always-valid interval.
 * `better`/`worse` once the interval excludes 0 (the mSPRT rejects "no difference"); `equivalent` once it
 * lies inside (-minimumEffect, +minimumEffect): a difference worth having is then ruled out at the same
 * level (if the true difference were that large, the interval would have had to miss it). Null until
 * both arms hold `minimumObservations`.
 */
export function compareArms(
  control: Moments,
  arm: Moments,
  model: MetricModel,
  options: { tau2: number; alpha: number; minimumEffect: number; minimumObservations: number },
): Comparison | null {
  if (control.n < Math.max(2, options.minimumObservations) || arm.n < Math.max(2, options.minimumObservations)) return null;
  const estimate = arm.sum / arm.n - control.sum / control.n;
  const v = varianceOf(arm, model.priorVariance) / arm.n + varianceOf(control, model.priorVariance) / control.n;
  const interval = intervalOf(estimate, v, options.tau2, options.alpha);
  let verdict: Verdict = 'undecided';
  if (interval.low > 0) verdict = model.better === 'higher' ? 'better' : 'worse';
  else if (interval.high < 0) verdict = model.better === 'higher' ? 'worse' : 'better';
  else if (interval.low > -options.minimumEffect && interval.high < options.minimumEffect) verdict = 'equivalent';
  return { ...interval, likelihoodRatio: mixtureLikelihoodRatio(estimate, v, options.tau2), verdict };
}

/**
 * Observations per arm after which the interval of a difference is narrower than `effect` on either side,
 * for observations of standard deviation `sd` in both arms: about where a true difference of `effect`
 * is decided (half the tests sooner). A planning figure, shown beside the test.
 */
export function expectedObservationsPerArm(effect: number, sd: number, tau2: number, alpha: number): number {
  const variance = sd * sd;
  let low = 1;
  let high = 2;
  while (alwaysValidHalfWidth((2 * variance) / high, tau2, alpha) > effect) {
    low = high;
    high *= 2;
    if (high > 1e12) return Infinity;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (alwaysValidHalfWidth((2 * variance) / mid, tau2, alpha) > effect) low = mid;
    else high = mid;
  }
  return high;
}

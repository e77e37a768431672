import { breachedGuardrail, decide } from '../../../core/experiments/domain/decide';
import { CONTROL_ARM, GOAL_MODELS, MINIMUM_OBSERVATIONS } from '../../../core/experiments/domain/experiment';
import {
  alwaysValidHalfWidth,
  compareArms,
  expectedObservationsPerArm,
  mixtureLikelihoodRatio,
  momentsOf,
  varianceOf,
} from '../../../core/experiments/domain/sequential-test';
import { bernoulliDraw, ratingDraw, simulate } from '../../../bench/support/ab-simulation';

/** `n` observations cycling through `values`. */
const repeat = (values: number[], n: number) => Array.from({ length: n }, (_, i) => values[i % values.length]!);

describe('the mixture sequential probability ratio test (Johari et al. 2022)', () => {
  it('has the closed form of the normal likelihood ratio integrated over the N(0, tau^2) mixture', () => {
    // Numerical integral of exp(theta*x/V - theta^2/(2V)) against the N(0, tau^2) density.
    for (const [x, v, tau2] of [[0.3, 0.01, 0.09], [-0.1, 0.04, 0.25], [0, 0.5, 1], [1.2, 0.2, 0.04]] as const) {
      const tau = Math.sqrt(tau2);
      let integral = 0;
      const step = tau / 2000;
      for (let theta = -12 * tau; theta <= 12 * tau; theta += step) {
        const density = Math.exp(-(theta * theta) / (2 * tau2)) / Math.sqrt(2 * Math.PI * tau2);
        integral += Math.exp((theta * x) / v - (theta * theta) / (2 * v)) * density * step;
      }
      expect(mixtureLikelihoodRatio(x, v, tau2)).toBeCloseTo(integral, 6);
    }
  });

  it('inverts into the always-valid interval: at the edge of the interval the ratio is exactly 1/alpha', () => {
    for (const [v, tau2, alpha] of [[0.01, 0.09, 0.05], [0.002, 0.25, 0.01], [1, 1, 0.1]] as const) {
      const h = alwaysValidHalfWidth(v, tau2, alpha);
      expect(mixtureLikelihoodRatio(h, v, tau2)).toBeCloseTo(1 / alpha, 6);
      expect(mixtureLikelihoodRatio(h * 0.99, v, tau2)).toBeLessThan(1 / alpha);
    }
  });

  it('narrows as observations grow, and is wider than a fixed-horizon interval (the price of looking at will)', () => {
    const widths = [10, 100, 1000, 10_000].map((n) => alwaysValidHalfWidth(1 / n, 0.09, 0.05));
    for (let i = 1; i < widths.length; i++) expect(widths[i]!).toBeLessThan(widths[i - 1]!);
    expect(alwaysValidHalfWidth(1 / 1000, 0.09, 0.05)).toBeGreaterThan(1.96 * Math.sqrt(1 / 1000));
  });

  it('shrinks a small sample’s variance toward the bound of a bounded metric, so five equal ratings are not certainty', () => {
    const fives = momentsOf([5, 5, 5, 5, 5]);
    expect(varianceOf(fives, 4)).toBeCloseTo(4 / 5, 10);
    const many = momentsOf(repeat([2, 3], 500));
    expect(varianceOf(many, 4)).toBeCloseTo((0.25 * 500 + 4) / 500, 10);
    expect(varianceOf(momentsOf([0.01, 0.03]), null)).toBeCloseTo(0.0002, 10);
  });

  it('gives verdicts: better, worse, equivalent within the minimum effect, undecided, and none before enough observations', () => {
    const options = { tau2: 0.25, alpha: 0.05, minimumEffect: 0.5, minimumObservations: MINIMUM_OBSERVATIONS };
    const rating = GOAL_MODELS.rating;
    const low = momentsOf(repeat([2, 3], 20));
    const high = momentsOf(repeat([4, 5], 20));
    expect(compareArms(low, high, rating, options)!.verdict).toBe('better');
    expect(compareArms(high, low, rating, options)!.verdict).toBe('worse');
    // For cost, lower is better.
    expect(compareArms(high, low, GOAL_MODELS.cost_per_conversation, options)!.verdict).toBe('better');
    expect(compareArms(momentsOf(repeat([3, 4], 200)), momentsOf(repeat([4, 3], 200)), rating, options)!.verdict).toBe('equivalent');
    expect(compareArms(momentsOf(repeat([3, 4], 20)), momentsOf(repeat([4, 3], 20)), rating, options)!.verdict).toBe('undecided');
    expect(compareArms(momentsOf(repeat([2, 3], 9)), momentsOf(repeat([4, 5], 9)), rating, options)).toBeNull();
  });

  it('decides among several challengers at the significance shared between them', () => {
    const control = momentsOf(repeat([2, 3], 20));
    const same = momentsOf(repeat([3, 2], 20));
    const better = momentsOf(repeat([4, 5], 20));
    const best = momentsOf(repeat([5, 5], 20));
    const input = { model: GOAL_MODELS.rating, minimumEffect: 0.5, significance: 0.05, control };
    expect(decide({ ...input, challengers: [] }).decision).toEqual({ outcome: 'running' });
    expect(decide({ ...input, challengers: [{ arm: 'a', moments: same }, { arm: 'b', moments: better }, { arm: 'c', moments: best }] }).decision).toEqual({ outcome: 'winner', arm: 'c' });
    expect(decide({ ...input, control: better, challengers: [{ arm: 'a', moments: control }] }).decision).toEqual({ outcome: 'winner', arm: CONTROL_ARM });
    const plenty = momentsOf(repeat([2, 3], 400));
    expect(decide({ ...input, control: plenty, challengers: [{ arm: 'a', moments: momentsOf(repeat([3, 2], 400)) }] }).decision).toEqual({ outcome: 'no_difference' });
    const { arms } = decide({ ...input, challengers: [{ arm: 'b', moments: better }] });
    expect(arms[0]).toMatchObject({ arm: CONTROL_ARM, observations: 20, comparison: null, estimate: { estimate: 2.5 } });
    expect(arms[1]!.estimate!.low).toBeLessThan(4.5);
    expect(arms[1]!.estimate!.high).toBeGreaterThan(4.5);
  });

  it('flags a challenger whose error rate or cost is clearly worse than the control’s, and not one that is as good', () => {
    const sample = (failed: number, n: number, cost: number) => ({ errors: momentsOf([...Array(failed).fill(1), ...Array(n - failed).fill(0)]), cost: momentsOf(repeat([cost * 0.9, cost * 1.1], n)) });
    const control = sample(2, 200, 0.001);
    expect(breachedGuardrail(['error_rate', 'cost'], control, sample(60, 200, 0.001), 0.05, 1)).toBe('error_rate');
    expect(breachedGuardrail(['error_rate', 'cost'], control, sample(2, 200, 0.003), 0.05, 1)).toBe('cost');
    expect(breachedGuardrail(['cost'], control, sample(60, 200, 0.001), 0.05, 1)).toBeNull();
    expect(breachedGuardrail(['error_rate', 'cost'], control, sample(3, 200, 0.001), 0.05, 1)).toBeNull();
  });

  it('plans the observations per arm at which the interval is as narrow as the minimum effect', () => {
    const n = expectedObservationsPerArm(0.3, 1.28, 0.09, 0.05);
    expect(alwaysValidHalfWidth((2 * 1.28 ** 2) / n, 0.09, 0.05)).toBeLessThanOrEqual(0.3);
    expect(alwaysValidHalfWidth((2 * 1.28 ** 2) / (n - 1), 0.09, 0.05)).toBeGreaterThan(0.3);
    expect(expectedObservationsPerArm(0.15, 1.28, 0.0225, 0.05)).toBeGreaterThan(3 * n);
  });
});

describe('the sequential test looked at after every 10 observations (simulated, fixed seed)', () => {
  const ratings = [0.1, 0.1, 0.2, 0.3, 0.3];

  it('names a winner in at most the significance level of tests where the arms do not differ', () => {
    for (const spec of [
      { model: GOAL_MODELS.rating, minimumEffect: 0.3, control: ratingDraw(ratings), challenger: ratingDraw(ratings), seed: 11 },
      { model: GOAL_MODELS.thumbs_up_rate, minimumEffect: 0.05, control: bernoulliDraw(0.6), challenger: bernoulliDraw(0.6), seed: 12 },
    ]) {
      const result = simulate({ ...spec, significance: 0.05, tests: 200, horizon: 600, lookEvery: 10 });
      expect(result.everWinner / result.tests).toBeLessThanOrEqual(0.05);
    }
  });

  it('names the better arm when the difference is the minimum effect', () => {
    const better = [0.05, 0.07, 0.18, 0.33, 0.37]; // 0.3 stars more on average
    const result = simulate({ model: GOAL_MODELS.rating, minimumEffect: 0.3, significance: 0.05, control: ratingDraw(ratings), challenger: ratingDraw(better), tests: 100, horizon: 1500, lookEvery: 10, seed: 13 });
    expect(result.challengerWins / result.tests).toBeGreaterThanOrEqual(0.9);
    expect(result.controlWins).toBe(0);
  });
});

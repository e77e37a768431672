import { decide } from '../../core/experiments/domain/decide';
import type { Decision } from '../../core/experiments/domain/experiment';
import { addObservation, NO_MOMENTS, type MetricModel, type Moments } from '../../core/experiments/domain/sequential-test';

/** mulberry32: a small seeded generator, so a simulation gives the same figures on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws a rating 1-5 with the given probabilities. */
export const ratingDraw = (probabilities: readonly number[]) => (random: () => number): number => {
  let u = random();
  for (let i = 0; i < probabilities.length; i++) {
    u -= probabilities[i]!;
    if (u < 0) return i + 1;
  }
  return probabilities.length;
};

export const bernoulliDraw = (p: number) => (random: () => number): number => (random() < p ? 1 : 0);

export const meanOfRatings = (probabilities: readonly number[]): number => probabilities.reduce((s, p, i) => s + p * (i + 1), 0);

export interface SimulationSpec {
  model: MetricModel;
  minimumEffect: number;
  significance: number;
  control: (random: () => number) => number;
  challenger: (random: () => number) => number;
  tests: number;
  /** Observations per arm after which a test that decided nothing is stopped. */
  horizon: number;
  /** A look after every `lookEvery` observations (counted over both arms). */
  lookEvery: number;
  seed: number;
}

export interface SimulationResult {
  tests: number;
  /** Tests whose first decision named the challenger / the control the winner, or "no difference". */
  challengerWins: number;
  controlWins: number;
  noDifference: number;
  undecided: number;
  /** Tests that named a winner at any look up to the horizon, looking on after a "no difference" too. */
  everWinner: number;
  /** Observations per arm at the first decision, sorted (decided tests only). */
  decidedAt: number[];
}

/** Simulated A/B tests: one observation per arm in turn, the decision read after every `lookEvery`. */
export function simulate(spec: SimulationSpec): SimulationResult {
  const random = seededRandom(spec.seed);
  const result: SimulationResult = { tests: spec.tests, challengerWins: 0, controlWins: 0, noDifference: 0, undecided: 0, everWinner: 0, decidedAt: [] };
  for (let t = 0; t < spec.tests; t++) {
    let control: Moments = NO_MOMENTS;
    let challenger: Moments = NO_MOMENTS;
    let first: Decision | null = null;
    let everWinner = false;
    for (let i = 1; i <= 2 * spec.horizon; i++) {
      if (i % 2 === 1) control = addObservation(control, spec.control(random));
      else challenger = addObservation(challenger, spec.challenger(random));
      if (i % spec.lookEvery !== 0) continue;
      const { decision } = decide({ model: spec.model, minimumEffect: spec.minimumEffect, significance: spec.significance, control, challengers: [{ arm: 'b', moments: challenger }] });
      if (decision.outcome === 'winner') everWinner = true;
      if (!first && decision.outcome !== 'running') {
        first = decision;
        result.decidedAt.push(challenger.n);
      }
      if (everWinner || (first && first.outcome === 'winner')) break;
    }
    if (everWinner) result.everWinner++;
    if (!first) result.undecided++;
    else if (first.outcome === 'no_difference') result.noDifference++;
    else if (first.outcome === 'winner' && first.arm === 'b') result.challengerWins++;
    else result.controlWins++;
  }
  result.decidedAt.sort((a, b) => a - b);
  return result;
}

export const quantile = (sorted: readonly number[], q: number): number | null =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : null;

import { GOAL_MODELS } from '../core/experiments/domain/experiment';
import { expectedObservationsPerArm } from '../core/experiments/domain/sequential-test';
import { bernoulliDraw, meanOfRatings, quantile, ratingDraw, simulate, type SimulationSpec } from './support/ab-simulation';

/**
 * `npx ts-node --swc bench/ab-decisions.bench.ts`: the A/B tests' sequential test (core/experiments) on simulated
 * tests, looked at after every 10 observations (BENCH_TESTS tests per case, 1,000 by default, fixed seeds).
 * Under no true difference: how often a winner is named (must stay at or below the significance level);
 * with a true difference of the minimum effect: how often and how soon the better arm is named, against the
 * planned observations per arm (`expectedObservations` of the decision view).
 */
const TESTS = Number(process.env.BENCH_TESTS ?? 1000);
const LOOK_EVERY = 10;
const ratings = [0.1, 0.1, 0.2, 0.3, 0.3];
const betterRatings = [0.05, 0.07, 0.18, 0.33, 0.37];
const sdOf = (p: number[]) => Math.sqrt(p.reduce((s, x, i) => s + x * (i + 1) ** 2, 0) - meanOfRatings(p) ** 2);

interface Case {
  name: string;
  spec: Omit<SimulationSpec, 'tests' | 'lookEvery'>;
  sd: number;
  trueDifference: number;
}

const cases: Case[] = [
  { name: 'rating, no difference', spec: { model: GOAL_MODELS.rating, minimumEffect: 0.3, significance: 0.05, control: ratingDraw(ratings), challenger: ratingDraw(ratings), horizon: 3000, seed: 101 }, sd: sdOf(ratings), trueDifference: 0 },
  { name: 'rating, no difference, significance 0.01', spec: { model: GOAL_MODELS.rating, minimumEffect: 0.3, significance: 0.01, control: ratingDraw(ratings), challenger: ratingDraw(ratings), horizon: 3000, seed: 102 }, sd: sdOf(ratings), trueDifference: 0 },
  { name: 'thumbs-up rate, no difference', spec: { model: GOAL_MODELS.thumbs_up_rate, minimumEffect: 0.05, significance: 0.05, control: bernoulliDraw(0.6), challenger: bernoulliDraw(0.6), horizon: 5000, seed: 103 }, sd: Math.sqrt(0.24), trueDifference: 0 },
  { name: 'rating, +0.3 stars (the minimum effect)', spec: { model: GOAL_MODELS.rating, minimumEffect: 0.3, significance: 0.05, control: ratingDraw(ratings), challenger: ratingDraw(betterRatings), horizon: 3000, seed: 104 }, sd: sdOf(ratings), trueDifference: 0.3 },
  { name: 'thumbs-up rate, +5 points (the minimum effect)', spec: { model: GOAL_MODELS.thumbs_up_rate, minimumEffect: 0.05, significance: 0.05, control: bernoulliDraw(0.6), challenger: bernoulliDraw(0.65), horizon: 5000, seed: 105 }, sd: Math.sqrt(0.24), trueDifference: 0.05 },
];

const pct = (n: number) => `${((100 * n) / TESTS).toFixed(1)} %`;
console.log(`| case | tests | winner named (false when no difference) | challenger / control / no difference / undecided | observations per arm at the decision (median, 90th pct) | planned per arm | time |`);
console.log('|---|---|---|---|---|---|---|');
for (const c of cases) {
  const started = Date.now();
  const r = simulate({ ...c.spec, tests: TESTS, lookEvery: LOOK_EVERY });
  const planned = expectedObservationsPerArm(c.spec.minimumEffect, c.sd, c.spec.minimumEffect ** 2, c.spec.significance);
  const named = c.trueDifference === 0 ? pct(r.everWinner) : pct(r.challengerWins);
  console.log(
    `| ${c.name} (α ${c.spec.significance}, horizon ${c.spec.horizon}) | ${TESTS} | ${named} | ${r.challengerWins} / ${r.controlWins} / ${r.noDifference} / ${r.undecided} | ${quantile(r.decidedAt, 0.5)}, ${quantile(r.decidedAt, 0.9)} | ${planned} | ${((Date.now() - started) / 1000).toFixed(1)} s |`,
  );
}

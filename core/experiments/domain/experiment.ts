import type { Comparison, Interval, MetricModel } from './sequential-test';

/**
 * What an A/B test of a model config optimises (docs/ab-tests.md):
 * - `rating`: the answers' ratings (1-5), higher is better;
 * - `thumbs_up_rate`: the share of rated answers rated 4 or 5, higher is better;
 * - `cost_per_conversation`: US dollars a conversation of the arm cost, lower is better;
 * - `evaluator_score`: an evaluator's score (0-1) on a sample of live answers, higher is better (read through
 *   the `LiveAnswerScores` port, which the evaluations area implements).
 */
export const GOALS = ['rating', 'thumbs_up_rate', 'cost_per_conversation', 'evaluator_score'] as const;
export type Goal = (typeof GOALS)[number];

/** Guardrails: a challenger clearly worse on one of these is switched off at once. */
export const GUARDRAILS = ['error_rate', 'cost'] as const;
export type Guardrail = (typeof GUARDRAILS)[number];

export const GOAL_MODELS: Record<Goal, MetricModel> = {
  // Ratings lie in [1, 5]: no variance can exceed (5 - 1)^2 / 4.
  rating: { better: 'higher', priorVariance: 4 },
  thumbs_up_rate: { better: 'higher', priorVariance: 0.25 },
  cost_per_conversation: { better: 'lower', priorVariance: null },
  evaluator_score: { better: 'higher', priorVariance: 0.25 },
};

export const GUARDRAIL_MODELS: Record<Guardrail, MetricModel> = {
  error_rate: { better: 'lower', priorVariance: 0.25 },
  cost: { better: 'lower', priorVariance: null },
};

/** Default minimum effects worth detecting, in the goal's own unit. */
export const DEFAULT_MINIMUM_EFFECT: Record<Goal, number> = {
  rating: 0.3,
  thumbs_up_rate: 0.05,
  cost_per_conversation: 0.001,
  evaluator_score: 0.05,
};

/** No verdict on fewer observations per arm: the variance of a few values is too rough to bet on. */
export const MINIMUM_OBSERVATIONS = 20;

/** Guardrails are checked with an error rate difference of 2 points, or a fifth of the cost, as the effect they look for. */
export const GUARDRAIL_ERROR_EFFECT = 0.02;
export const GUARDRAIL_COST_SHARE = 0.2;

export type ExperimentStatus = 'running' | 'winner' | 'no_difference' | 'promoted';

/** The control arm is the config itself; every other arm is one of its versions. */
export const CONTROL_ARM = 'control';

export interface RolledBackArm {
  versionId: string;
  guardrail: Guardrail;
  at: string;
}

/** A test's settings and state, one per model config. */
export interface Experiment {
  id: string;
  configId: string;
  applicationId: string;
  goal: Goal;
  /** The evaluator scoring sampled live answers (goal `evaluator_score` only). */
  evaluatorId: string | null;
  /** The share of the arms' answers the evaluator scores (goal `evaluator_score`), from 0 to 1. */
  sampleRate: number;
  /** At most this many answers sampled for scoring in any hour, so the evaluator's cost stays bounded. */
  samplesPerHour: number;
  /** The smallest difference worth detecting, in the goal's unit (stars, share of answers, US dollars, score). */
  minimumEffect: number;
  /** The chance of a false decision the owner accepts (alpha), however often the test is looked at. */
  significance: number;
  autoPromote: boolean;
  guardrails: Guardrail[];
  status: ExperimentStatus;
  /** Only answers from this moment on are observations of the test (the control's earlier answers are not). */
  startedAt: Date;
  /** The winning arm: `control` or a version id (status `winner` or `promoted`). */
  winnerArm: string | null;
  decidedAt: Date | null;
  promotedAt: Date | null;
  rolledBack: RolledBackArm[];
  createdAt: Date;
  updatedAt: Date;
}

/** One arm's figures in a decision. */
export interface ArmResult {
  arm: string;
  observations: number;
  /** The arm's mean with its always-valid interval; null before its first observation. */
  estimate: Interval | null;
  /** Against the control (challengers only; null until both arms have enough observations). */
  comparison: Comparison | null;
}

export type Decision = { outcome: 'running' } | { outcome: 'winner'; arm: string } | { outcome: 'no_difference' };

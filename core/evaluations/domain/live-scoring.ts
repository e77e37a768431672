import type { EvaluatorSpec, Score } from './evaluator';

/**
 * An evaluator kept by name in an application, so an A/B test can score its arms' live answers with it
 * (`goal: evaluator_score`). Live answers have no expected answer: evaluators that compare with one (exact,
 * similarity) cannot be kept for that.
 */
export interface SavedEvaluator {
  id: string;
  applicationId: string;
  name: string;
  spec: EvaluatorSpec;
  createdAt: Date;
}

/** Evaluators a saved one may be: all but those that need an expected answer. */
export const LIVE_EVALUATOR_TYPES = ['contains', 'regex', 'json', 'json_schema', 'judge', 'latency', 'tokens', 'cost'] as const;

/** An answer of an arm chosen to be scored for a test. */
export interface LiveSample {
  experimentId: string;
  applicationId: string;
  evaluatorId: string;
  messageId: string;
  /** `control` or a version id, as the test's observations name arms. */
  arm: string;
}

/** A running test scored by an evaluator that an answer is an observation of, with the test's sampling settings. */
export interface ScoringCandidate extends LiveSample {
  /** The share of its arms' answers a test scores (0 to 1). */
  sampleRate: number;
  /** At most this many answers queued for scoring per test in any hour, so the judge's cost stays bounded. */
  samplesPerHour: number;
}

/** A sample claimed for scoring (its claim lapses if the process dies, and another takes it up). */
export interface ClaimedSample extends LiveSample {
  id: string;
  attempts: number;
}

/** What a scored answer is read as: the question before it, the answer, and what it took. */
export interface LiveAnswer {
  question: string;
  answer: string;
  provider: string | null;
  model: string | null;
  latencyMs: number;
  promptTokens: number;
  completionTokens: number;
}

export type SampleOutcome = { ok: true; score: Score } | { ok: false; error: string };

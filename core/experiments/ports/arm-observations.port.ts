import type { GuardrailSample } from '../domain/decide';
import type { Moments } from '../domain/sequential-test';

/** Which answers belong to a test: the config's own (the control) and its versions', since the test started. */
export interface ObservationScope {
  applicationId: string;
  /** The control arm: answers without a version from the config's provider and model. */
  control: { provider: string; modelId: string };
  versionIds: string[];
  since: Date;
}

/**
 * The observations of a test's arms, keyed by arm (`control` or a version id). Only answers given since
 * the test started count: a control's rating is never mixed with the config's answers from before.
 */
export interface ArmObservations {
  /** Rated answers: each rating (1-5), or 1 for a rating of 4 or 5 and 0 otherwise (`thumbsUp`). */
  ratings(scope: ObservationScope, thumbsUp: boolean): Promise<Map<string, Moments>>;
  /** Conversations started since the test began with at least one answer: each one's cost in US dollars. */
  costPerConversation(scope: ObservationScope): Promise<Map<string, Moments>>;
  /** Answers' failures (1 failed, 0 not) and priced answers' cost, for the guardrails. */
  guardrails(scope: ObservationScope): Promise<Map<string, GuardrailSample>>;
}

/**
 * An evaluator's scores (0-1) on a sample of each arm's live answers since `scope.since`, keyed by arm.
 * The evaluations area implements it (its evaluators and sampling); until it is composed, a test cannot
 * take `evaluator_score` as its goal.
 */
export interface LiveAnswerScores {
  scores(scope: ObservationScope, evaluatorId: string): Promise<Map<string, Moments>>;
  /** Whether the evaluator exists and the caller's application may use it. */
  usable(applicationId: string, evaluatorId: string): Promise<boolean>;
}

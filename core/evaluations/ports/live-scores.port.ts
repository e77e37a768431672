import type { Moments } from '../../experiments/domain/sequential-test';
import type { ObservationScope } from '../../experiments/ports/arm-observations.port';
import type { EvaluatorSpec } from '../domain/evaluator';
import type { ClaimedSample, LiveAnswer, LiveSample, SampleOutcome, SavedEvaluator, ScoringCandidate } from '../domain/live-scoring';

/** Evaluators kept by name per application. */
export interface SavedEvaluatorRepository {
  create(e: { applicationId: string; name: string; spec: EvaluatorSpec }): Promise<SavedEvaluator>;
  findById(id: string): Promise<SavedEvaluator | null>;
  listByApplication(applicationId: string): Promise<SavedEvaluator[]>;
  /** False when it was not there. */
  delete(id: string): Promise<boolean>;
}

/**
 * Live answers sampled for A/B tests scored by an evaluator, and their scores. A sample is a row from the moment it
 * is chosen: scoring happens off the turn's path, each sample claimed atomically with a lease, so a restart resumes
 * what was left and no sample is scored twice.
 */
export interface LiveScoreRepository {
  /**
   * The running tests with goal `evaluator_score` (and an evaluator that still exists) whose arms this answer is an
   * observation of: a complete assistant answer, given since the test started, by one of its arms.
   */
  candidates(messageId: string): Promise<ScoringCandidate[]>;
  /**
   * Queues a sample in one conditional statement: not when the test queued `samplesPerHour` in the hour before `now`,
   * nor when the evaluator has this answer already. True when this call queued it.
   */
  enqueue(sample: LiveSample, samplesPerHour: number, now: Date): Promise<boolean>;
  /** Claims a test's next sample to score: a pending one, or one whose claim lapsed. Null when none is left. */
  claimNext(experimentId: string, leaseMs: number): Promise<ClaimedSample | null>;
  /** The answer and the question before it; null when the message is gone. */
  answer(messageId: string): Promise<LiveAnswer | null>;
  /** Stores a claimed sample's score or failure; false when it was no longer claimed. */
  finish(sampleId: string, outcome: SampleOutcome): Promise<boolean>;
  /** Tests with samples waiting (pending, or claimed with a lapsed claim). */
  waiting(limit: number): Promise<string[]>;
  /** The scores (0-1) the evaluator gave the arms' answers in the scope, per arm. */
  armScores(scope: ObservationScope, evaluatorId: string): Promise<Map<string, Moments>>;
}

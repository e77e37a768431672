import type { ArmObservations, LiveAnswerScores } from '../../../core/experiments/ports/arm-observations.port';
import type { ExperimentRepository } from '../../../core/experiments/ports/experiment-repository.port';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import { token } from '../../shared/tokens';

export const EXPERIMENT_TOKENS = {
  ExperimentRepository: token<ExperimentRepository>('ExperimentRepository'),
  ArmObservations: token<ArmObservations>('ArmObservations'),
  /** Bound by the evaluations area when it scores live answers; unbound, `evaluator_score` is refused. */
  LiveAnswerScores: token<LiveAnswerScores>('LiveAnswerScores'),
  JobQueue: token<JobQueue>('ExperimentsJobQueue'),
  /** Asks for an application's tests to be evaluated soon (after a rating or an answer). */
  Observed: token<(applicationId: string) => void>('ExperimentsObserved'),
  /** Applications this process is evaluating, and those observed meanwhile (evaluated once more). */
  Runs: token<{ running: Set<string>; again: Set<string> }>('ExperimentsRuns'),
} as const;

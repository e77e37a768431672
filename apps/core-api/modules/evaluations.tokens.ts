import type { DatasetFileParser, JsonSchemaValidator, JudgeModel, RegexEngine, SimilarityEmbedder } from '../../../core/evaluations/ports/evaluation-engines.port';
import type { DatasetRepository, EvaluationRunRepository } from '../../../core/evaluations/ports/evaluation-repository.port';
import type { LiveScoreRepository, SavedEvaluatorRepository } from '../../../core/evaluations/ports/live-scores.port';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import { token } from '../../shared/tokens';

export const EVALUATION_TOKENS = {
  Datasets: token<DatasetRepository>('EvaluationDatasets'),
  Runs: token<EvaluationRunRepository>('EvaluationRuns'),
  Regex: token<RegexEngine>('EvaluationRegex'),
  Schemas: token<JsonSchemaValidator>('EvaluationSchemas'),
  Parser: token<DatasetFileParser>('EvaluationDatasetParser'),
  Judge: token<JudgeModel>('EvaluationJudge'),
  Embedder: token<SimilarityEmbedder>('EvaluationEmbedder'),
  /** Evaluators kept by name, for A/B tests that score live answers. */
  SavedEvaluators: token<SavedEvaluatorRepository>('EvaluationSavedEvaluators'),
  /** Live answers sampled for A/B tests, and their scores. */
  LiveScores: token<LiveScoreRepository>('EvaluationLiveScores'),
  /** The evaluations' own job queue: in-process, or BullMQ when REDIS_URL is set. */
  JobQueue: token<JobQueue>('EvaluationJobQueue'),
} as const;

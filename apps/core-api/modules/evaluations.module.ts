import type { Container } from 'inversify';
import { AjvJsonSchemaValidator } from '../../../adapters/evaluations/ajv.json-schema-validator';
import { CsvJsonlDatasetParser } from '../../../adapters/evaluations/csv-jsonl.dataset-parser';
import { Re2RegexEngine } from '../../../adapters/evaluations/re2.regex-engine';
import { evaluationsRouter } from '../../../adapters/http/evaluations/evaluations.router';
import { apiKeyAuth } from '../../../adapters/http/public-api/api-key.middleware';
import { SqlDatasetRepository, SqlEvaluationRunRepository } from '../../../adapters/persistence/evaluations/sql-evaluation.repository';
import { SqlLiveScoreRepository, SqlSavedEvaluatorRepository } from '../../../adapters/persistence/evaluations/sql-live-scores.repository';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import {
  AddAnnotationsToDatasetUseCase,
  AddDatasetItemsUseCase,
  AddMessagesToDatasetUseCase,
  CreateDatasetUseCase,
  DeleteDatasetUseCase,
  ExportDatasetUseCase,
  GetDatasetUseCase,
  ImportDatasetItemsUseCase,
  ListDatasetsUseCase,
  RemoveDatasetItemUseCase,
  UpdateDatasetUseCase,
} from '../../../core/evaluations/use-cases/datasets.use-cases';
import {
  CreateSavedEvaluatorUseCase,
  DeleteSavedEvaluatorUseCase,
  ListSavedEvaluatorsUseCase,
  SampleLiveAnswerUseCase,
  SCORE_LIVE_ANSWERS_JOB,
  ScoreLiveAnswersUseCase,
  StoredLiveAnswerScores,
  type ScoreLiveAnswersJob,
} from '../../../core/evaluations/use-cases/live-scoring.use-cases';
import { LocalSimilarityEmbedder, ProviderJudgeModel } from '../../../core/evaluations/use-cases/model-services';
import type { DomainEvent } from '../../../core/events/domain/domain-event';
import { EvaluationRunExecutor } from '../../../core/evaluations/use-cases/run-executor';
import {
  CancelEvaluationRunUseCase,
  CompareEvaluationRunsUseCase,
  ExportEvaluationResultsUseCase,
  GetEvaluationRunUseCase,
  ListEvaluationResultsUseCase,
  ListEvaluationRunsUseCase,
  RUN_EVALUATION_JOB,
  StartEvaluationRunUseCase,
  type RunDeps,
  type RunEvaluationJob,
} from '../../../core/evaluations/use-cases/runs.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { EVENT_TOKENS } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { LOGS_TOKENS } from './logs.tokens';
import { EVALUATION_TOKENS } from './evaluations.tokens';
import { EXPERIMENT_TOKENS } from './experiments.tokens';
import { ownJobQueue } from './job-queues';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { MODEL_CONFIG_TOKENS } from './model-configs.tokens';
import { PROMPT_TOKENS } from './prompts.tokens';
import { STUDIO_TOKENS } from './studio.tokens';

export interface EvaluationsModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** How often runs left running (after a restart) are queued again. */
  sweepIntervalMs?: number;
  /** Runs answered at the same time, per process (each answers `concurrency` items at a time). */
  concurrency?: number;
  /** How long a claim on one item lasts before another process may take it over. */
  leaseMs?: number;
}

/**
 * Evaluations (docs/evaluations.md): datasets, evaluators and runs of an application, answered on the job queue
 * through the chat path. Needs the applications, model configs, prompts, studio and conversations areas; the judge
 * and similarity need the knowledge area's key source and embedders. Also the scoring of A/B tests' live answers with
 * a kept evaluator (`evaluator_score`): sampled on `message.completed`, scored on the same job queue, read by the
 * experiments area through `EXPERIMENT_TOKENS.LiveAnswerScores`.
 */
export function evaluationsModule(options: EvaluationsModuleOptions = {}): AppModule {
  const prefix = options.jobPrefix ?? 'evaluations';
  return {
    name: 'evaluations',
    bind(c: Container) {
      provide(c, EVALUATION_TOKENS.Datasets, (get) => new SqlDatasetRepository(get(TOKENS.DataSource)));
      provide(c, EVALUATION_TOKENS.Runs, (get) => new SqlEvaluationRunRepository(get(TOKENS.DataSource)));
      provide(c, EVALUATION_TOKENS.Regex, () => new Re2RegexEngine());
      provide(c, EVALUATION_TOKENS.Schemas, () => new AjvJsonSchemaValidator());
      provide(c, EVALUATION_TOKENS.Parser, () => new CsvJsonlDatasetParser());
      provide(c, EVALUATION_TOKENS.JobQueue, (get) => ownJobQueue(get, prefix));
      provide(c, EVALUATION_TOKENS.Judge, (get) => new ProviderJudgeModel({ providers: get(CHAT_TOKENS.LlmProviderRegistry), keys: get(KNOWLEDGE_TOKENS.EmbeddingKeySource) }));
      provide(c, EVALUATION_TOKENS.Embedder, (get) => new LocalSimilarityEmbedder({ embedder: get(KNOWLEDGE_TOKENS.EmbedderRegistry).get('local'), keys: get(KNOWLEDGE_TOKENS.EmbeddingKeySource) }));

      provide(c, EVALUATION_TOKENS.SavedEvaluators, (get) => new SqlSavedEvaluatorRepository(get(TOKENS.DataSource)));
      provide(c, EVALUATION_TOKENS.LiveScores, (get) => new SqlLiveScoreRepository(get(TOKENS.DataSource)));
      // The A/B tests' `evaluator_score` goal reads the stored scores through the experiments area's port.
      provide(c, EXPERIMENT_TOKENS.LiveAnswerScores, (get) => new StoredLiveAnswerScores({ scores: get(EVALUATION_TOKENS.LiveScores), evaluators: get(EVALUATION_TOKENS.SavedEvaluators) }));
      const evaluatorDeps = (get: Getter) => ({
        applications: get(TOKENS.ApplicationRepository),
        evaluators: get(EVALUATION_TOKENS.SavedEvaluators),
        regex: get(EVALUATION_TOKENS.Regex),
        schemas: get(EVALUATION_TOKENS.Schemas),
      });
      provide(c, ListSavedEvaluatorsUseCase, (get) => new ListSavedEvaluatorsUseCase(evaluatorDeps(get)));
      provide(c, CreateSavedEvaluatorUseCase, (get) => new CreateSavedEvaluatorUseCase(evaluatorDeps(get)));
      provide(c, DeleteSavedEvaluatorUseCase, (get) => new DeleteSavedEvaluatorUseCase(evaluatorDeps(get)));
      provide(c, SampleLiveAnswerUseCase, (get) => new SampleLiveAnswerUseCase({ scores: get(EVALUATION_TOKENS.LiveScores), clock: get(TOKENS.Clock) }));
      provide(c, ScoreLiveAnswersUseCase, (get) =>
        new ScoreLiveAnswersUseCase(
          {
            ...evaluatorDeps(get),
            scores: get(EVALUATION_TOKENS.LiveScores),
            judge: get(EVALUATION_TOKENS.Judge),
            embedder: get(EVALUATION_TOKENS.Embedder),
            prices: get(TOKENS.Config).modelPrices,
            // New scores are new observations: the application's tests are evaluated again (when that area is composed).
            observed: (applicationId) => (c.isBound(EXPERIMENT_TOKENS.Observed) ? get(EXPERIMENT_TOKENS.Observed)(applicationId) : undefined),
          },
          { leaseMs: options.leaseMs },
        ),
      );
      // Each completed answer may be sampled for the tests scored by an evaluator; the scoring is a job, off the turn's path.
      c.bind(EVENT_TOKENS.Subscriber)
        .toDynamicValue(() => {
          const sample = resolve(c, SampleLiveAnswerUseCase);
          const queue = resolve(c, EVALUATION_TOKENS.JobQueue);
          // Most applications have no A/B test: the experiments' cached "none open" spares their turns the lookup.
          const experiments = c.isBound(EXPERIMENT_TOKENS.ExperimentRepository) ? resolve(c, EXPERIMENT_TOKENS.ExperimentRepository) : null;
          return {
            name: 'evaluations.live-scores',
            handle: async (event: DomainEvent) => {
              const messageId = event.data.messageId;
              if (event.type !== 'message.completed' || typeof messageId !== 'string' || event.data.interrupted === true) return;
              if (experiments && event.applicationId && (await experiments.listOpenByApplication(event.applicationId)).length === 0) return;
              for (const experimentId of await sample.execute(messageId)) {
                await queue.enqueue<ScoreLiveAnswersJob>(SCORE_LIVE_ANSWERS_JOB, { experimentId }, { id: `live-${experimentId}` });
              }
            },
          };
        })
        .inSingletonScope();

      const access = (get: Getter) => ({ applications: get(TOKENS.ApplicationRepository), datasets: get(EVALUATION_TOKENS.Datasets) });
      const runDeps = (get: Getter): RunDeps => ({
        ...access(get),
        runs: get(EVALUATION_TOKENS.Runs),
        configs: get(MODEL_CONFIG_TOKENS.ModelConfigRepository),
        versions: get(MODEL_CONFIG_TOKENS.ConfigVersionRepository),
        templates: get(PROMPT_TOKENS.PromptTemplateRepository),
        studio: get(STUDIO_TOKENS.StudioRepository),
        regex: get(EVALUATION_TOKENS.Regex),
        schemas: get(EVALUATION_TOKENS.Schemas),
        queue: get(EVALUATION_TOKENS.JobQueue),
      });
      provide(c, ListDatasetsUseCase, (get) => new ListDatasetsUseCase(access(get)));
      provide(c, CreateDatasetUseCase, (get) => new CreateDatasetUseCase(access(get)));
      provide(c, GetDatasetUseCase, (get) => new GetDatasetUseCase(access(get)));
      provide(c, UpdateDatasetUseCase, (get) => new UpdateDatasetUseCase(access(get)));
      provide(c, DeleteDatasetUseCase, (get) => new DeleteDatasetUseCase(access(get)));
      provide(c, AddDatasetItemsUseCase, (get) => new AddDatasetItemsUseCase(access(get)));
      provide(c, AddAnnotationsToDatasetUseCase, (get) => new AddAnnotationsToDatasetUseCase({ ...access(get), annotations: get(LOGS_TOKENS.AnnotationRepository), add: get(AddDatasetItemsUseCase) }));
      provide(c, AddMessagesToDatasetUseCase, (get) => new AddMessagesToDatasetUseCase({ ...access(get), answers: get(LOGS_TOKENS.AnnotationRepository), add: get(AddDatasetItemsUseCase) }));
      provide(c, RemoveDatasetItemUseCase, (get) => new RemoveDatasetItemUseCase(access(get)));
      provide(c, ImportDatasetItemsUseCase, (get) => new ImportDatasetItemsUseCase({ ...access(get), parser: get(EVALUATION_TOKENS.Parser), add: get(AddDatasetItemsUseCase) }));
      provide(c, ExportDatasetUseCase, (get) => new ExportDatasetUseCase(access(get)));
      provide(c, StartEvaluationRunUseCase, (get) => new StartEvaluationRunUseCase(runDeps(get)));
      provide(c, ListEvaluationRunsUseCase, (get) => new ListEvaluationRunsUseCase(runDeps(get)));
      provide(c, GetEvaluationRunUseCase, (get) => new GetEvaluationRunUseCase(runDeps(get)));
      provide(c, ListEvaluationResultsUseCase, (get) => new ListEvaluationResultsUseCase(runDeps(get)));
      provide(c, CancelEvaluationRunUseCase, (get) => new CancelEvaluationRunUseCase(runDeps(get)));
      provide(c, CompareEvaluationRunsUseCase, (get) => new CompareEvaluationRunsUseCase(runDeps(get)));
      provide(c, ExportEvaluationResultsUseCase, (get) => new ExportEvaluationResultsUseCase(runDeps(get)));
      provide(c, EvaluationRunExecutor, (get) =>
        new EvaluationRunExecutor(
          {
            runs: get(EVALUATION_TOKENS.Runs),
            datasets: get(EVALUATION_TOKENS.Datasets),
            applications: get(TOKENS.ApplicationRepository),
            conversations: get(CHAT_TOKENS.ConversationRepository),
            runner: get(ChatTurnRunner),
            regex: get(EVALUATION_TOKENS.Regex),
            schemas: get(EVALUATION_TOKENS.Schemas),
            judge: get(EVALUATION_TOKENS.Judge),
            embedder: get(EVALUATION_TOKENS.Embedder),
            prices: get(TOKENS.Config).modelPrices,
          },
          { leaseMs: options.leaseMs },
        ),
      );
    },
    routers: (c) => [
      evaluationsRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        apiKey: apiKeyAuth(resolve(c, AuthenticateApiKeyUseCase)),
        listDatasets: resolve(c, ListDatasetsUseCase),
        createDataset: resolve(c, CreateDatasetUseCase),
        getDataset: resolve(c, GetDatasetUseCase),
        updateDataset: resolve(c, UpdateDatasetUseCase),
        deleteDataset: resolve(c, DeleteDatasetUseCase),
        addItems: resolve(c, AddDatasetItemsUseCase),
        addAnnotations: resolve(c, AddAnnotationsToDatasetUseCase),
        addMessages: resolve(c, AddMessagesToDatasetUseCase),
        removeItem: resolve(c, RemoveDatasetItemUseCase),
        importItems: resolve(c, ImportDatasetItemsUseCase),
        exportDataset: resolve(c, ExportDatasetUseCase),
        startRun: resolve(c, StartEvaluationRunUseCase),
        listRuns: resolve(c, ListEvaluationRunsUseCase),
        getRun: resolve(c, GetEvaluationRunUseCase),
        results: resolve(c, ListEvaluationResultsUseCase),
        cancel: resolve(c, CancelEvaluationRunUseCase),
        compare: resolve(c, CompareEvaluationRunsUseCase),
        exportResults: resolve(c, ExportEvaluationResultsUseCase),
        listEvaluators: resolve(c, ListSavedEvaluatorsUseCase),
        createEvaluator: resolve(c, CreateSavedEvaluatorUseCase),
        deleteEvaluator: resolve(c, DeleteSavedEvaluatorUseCase),
      }),
    ],
    async start(c: Container) {
      const queue = resolve(c, EVALUATION_TOKENS.JobQueue);
      const executor = resolve(c, EvaluationRunExecutor);
      const runs = resolve(c, EVALUATION_TOKENS.Runs);
      const scorer = resolve(c, ScoreLiveAnswersUseCase);
      const liveScores = resolve(c, EVALUATION_TOKENS.LiveScores);
      const logger = resolve(c, TOKENS.Logger);
      // One attempt per job: progress is in the result rows, and the sweep queues a run a failed job left running.
      queue.register<RunEvaluationJob>(RUN_EVALUATION_JOB, (job) => executor.execute(job.runId), { attempts: 1, backoffMs: 1000, concurrency: options.concurrency ?? 2 });
      queue.register<ScoreLiveAnswersJob>(SCORE_LIVE_ANSWERS_JOB, async (job) => void (await scorer.execute(job.experimentId)), { attempts: 1, backoffMs: 1000, concurrency: 1 });
      await queue.start();
      let stopping = false;
      // The sweep under way, awaited on stop: one that enqueued after the queue stopped would open a new
      // connection to Redis (BullMQ) that nothing closes, and keep the process alive.
      // Runs left running and live answers left waiting (after a restart, or sampled while their test's job ran) are queued again.
      let sweeping: Promise<void> = Promise.resolve();
      const sweep = () => {
        sweeping = Promise.all([
          runs.running(100).then(async (ids) => {
            for (const runId of ids) if (!stopping) await queue.enqueue<RunEvaluationJob>(RUN_EVALUATION_JOB, { runId }, { id: runId });
          }),
          liveScores.waiting(100).then(async (ids) => {
            for (const experimentId of ids) if (!stopping) await queue.enqueue<ScoreLiveAnswersJob>(SCORE_LIVE_ANSWERS_JOB, { experimentId }, { id: `live-${experimentId}` });
          }),
        ])
          .then(() => undefined)
          .catch((err: Error) => logger.warn({ err: { message: err.message } }, 'evaluation sweep failed'));
      };
      sweep();
      const timer = setInterval(sweep, options.sweepIntervalMs ?? 5_000);
      timer.unref();
      return async () => {
        stopping = true;
        clearInterval(timer);
        await sweeping;
        executor.stop();
        scorer.stop();
        await queue.stop();
      };
    },
  };
}

import type { Container } from 'inversify';
import { experimentsRouter } from '../../../adapters/http/experiments/experiments.router';
import { SqlArmObservations } from '../../../adapters/persistence/experiments/sql-arm-observations';
import { TypeOrmExperimentRepository } from '../../../adapters/persistence/experiments/type-orm-experiment.repository';
import { EVALUATE_EXPERIMENTS_JOB, EvaluateExperimentsUseCase } from '../../../core/experiments/use-cases/evaluate-experiments.use-case';
import { GetExperimentUseCase } from '../../../core/experiments/use-cases/get-experiment.use-case';
import { PromoteExperimentUseCase } from '../../../core/experiments/use-cases/promote-experiment.use-case';
import { SetExperimentUseCase } from '../../../core/experiments/use-cases/set-experiment.use-case';
import type { DomainEvent } from '../../../core/events/domain/domain-event';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { EVENT_TOKENS, eventDeps } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { AUDIT_TOKENS } from './audit.tokens';
import { EXPERIMENT_TOKENS } from './experiments.tokens';
import { ownJobQueue } from './job-queues';
import { MODEL_CONFIG_TOKENS } from './model-configs.tokens';

export interface ExperimentsModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** How often every open test is evaluated even when no observation woke it. */
  sweepIntervalMs?: number;
}

/**
 * A/B tests that decide (docs/ab-tests.md): goal and settings per model config, the sequential test over
 * the arms' answers since the test started, decisions, promotion and guardrail rollbacks. Evaluation runs
 * as a job per application, queued after a rating or an answer (de-duplicated while one waits) and by a
 * periodic sweep.
 */
export function experimentsModule(options: ExperimentsModuleOptions = {}): AppModule {
  return {
    name: 'experiments',
    bind(c: Container) {
      provide(c, EXPERIMENT_TOKENS.ExperimentRepository, (get) => new TypeOrmExperimentRepository(get(TOKENS.DataSource), get(TOKENS.Cache)));
      provide(c, EXPERIMENT_TOKENS.ArmObservations, (get) => new SqlArmObservations(get(TOKENS.DataSource), get(TOKENS.Config).modelPrices));
      provide(c, EXPERIMENT_TOKENS.JobQueue, (get) => ownJobQueue(get, options.jobPrefix ?? 'experiments'));
      provide(c, EXPERIMENT_TOKENS.Observed, (get) => {
        const queue = get(EXPERIMENT_TOKENS.JobQueue);
        const logger = get(TOKENS.Logger);
        const runs = get(EXPERIMENT_TOKENS.Runs);
        // A hint: a lost one is made up by the sweep. One arriving while this process evaluates the application
        // (the queue holds one job per application) makes that evaluation run once more.
        return (applicationId: string) => {
          if (runs.running.has(applicationId)) runs.again.add(applicationId);
          void queue.enqueue(EVALUATE_EXPERIMENTS_JOB, { applicationId }, { id: applicationId }).catch((err: Error) => logger.warn({ err: { message: err.message } }, 'could not queue an A/B test evaluation'));
        };
      });
      provide(c, EXPERIMENT_TOKENS.Runs, () => ({ running: new Set<string>(), again: new Set<string>() }));
      const deps = (get: Getter) => ({
        experiments: get(EXPERIMENT_TOKENS.ExperimentRepository),
        observations: get(EXPERIMENT_TOKENS.ArmObservations),
        scores: c.isBound(EXPERIMENT_TOKENS.LiveAnswerScores) ? get(EXPERIMENT_TOKENS.LiveAnswerScores) : null,
        configs: get(MODEL_CONFIG_TOKENS.ModelConfigRepository),
        versions: get(MODEL_CONFIG_TOKENS.ConfigVersionRepository),
        teams: get(TOKENS.ApplicationRepository),
        audit: get(AUDIT_TOKENS.AuditLog),
        clock: get(TOKENS.Clock),
        ...eventDeps(c, get),
      });
      provide(c, GetExperimentUseCase, (get) => new GetExperimentUseCase(deps(get)));
      provide(c, SetExperimentUseCase, (get) => new SetExperimentUseCase(deps(get)));
      provide(c, PromoteExperimentUseCase, (get) => new PromoteExperimentUseCase(deps(get)));
      provide(c, EvaluateExperimentsUseCase, (get) => new EvaluateExperimentsUseCase(deps(get)));
      // Answers move cost and error rate: each completed one asks for its application's tests to be evaluated.
      c.bind(EVENT_TOKENS.Subscriber)
        .toDynamicValue(() => {
          const observed = resolve(c, EXPERIMENT_TOKENS.Observed);
          return { name: 'experiments', handle: async (event: DomainEvent) => void (event.type === 'message.completed' && event.applicationId && observed(event.applicationId)) };
        })
        .inSingletonScope();
    },
    routers: (c) => [
      experimentsRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        get: resolve(c, GetExperimentUseCase),
        set: resolve(c, SetExperimentUseCase),
        promote: resolve(c, PromoteExperimentUseCase),
      }),
    ],
    async start(c: Container) {
      const queue = resolve(c, EXPERIMENT_TOKENS.JobQueue);
      const evaluate = resolve(c, EvaluateExperimentsUseCase);
      const experiments = resolve(c, EXPERIMENT_TOKENS.ExperimentRepository);
      const observed = resolve(c, EXPERIMENT_TOKENS.Observed);
      const logger = resolve(c, TOKENS.Logger);
      const runs = resolve(c, EXPERIMENT_TOKENS.Runs);
      const evaluateApplication = async ({ applicationId }: { applicationId: string }) => {
        runs.running.add(applicationId);
        try {
          do {
            runs.again.delete(applicationId);
            await evaluate.execute(applicationId);
          } while (runs.again.has(applicationId));
        } finally {
          runs.running.delete(applicationId);
        }
      };
      queue.register<{ applicationId: string }>(EVALUATE_EXPERIMENTS_JOB, evaluateApplication, { attempts: 3, backoffMs: 5000, concurrency: 1 });
      await queue.start();
      const sweep = () =>
        void experiments
          .applicationsWithOpenTests(1000)
          .then((ids) => ids.forEach(observed))
          .catch((err: Error) => logger.warn({ err: { message: err.message } }, 'A/B test sweep failed'));
      const timer = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await queue.stop();
      };
    },
  };
}

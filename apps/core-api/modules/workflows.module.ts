import type { Container } from 'inversify';
import { apiKeyAuth } from '../../../adapters/http/public-api/api-key.middleware';
import { publicWorkflowsRouter, templatesRouter, workflowsRouter } from '../../../adapters/http/workflows/workflows.router';
import { BullMqPluginScheduler } from '../../../adapters/plugins/bullmq.plugin-scheduler';
import { CronerPluginScheduler } from '../../../adapters/plugins/croner.plugin-scheduler';
import { SqlTemplateParts } from '../../../adapters/persistence/workflows/sql-template-parts';
import { CachedWorkflowRepository } from '../../../adapters/cache/cached-event-subscriptions';
import { SsrfSafeWebhookSender } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { JsonataConditionEvaluator } from '../../../adapters/workflows/jsonata.condition-evaluator';
import { PluginBackedWorkflowScheduler } from '../../../adapters/workflows/plugin-scheduler.workflow-scheduler';
import { SsrfSafeWorkflowHttp } from '../../../adapters/workflows/ssrf-safe.workflow-http';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { CreateApplicationUseCase } from '../../../core/applications/use-cases/create-application.use-case';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { SearchKnowledgeUseCase } from '../../../core/knowledge/use-cases/search-knowledge.use-case';
import { CallPluginEndpointUseCase } from '../../../core/plugins/use-cases/call-plugin-endpoint.use-case';
import type { SecretBox } from '../../../core/shared/secret-box.port';
import { workflowSecretAad } from '../../../core/workflows/domain/secrets';
import type { WorkflowRepository } from '../../../core/workflows/ports/workflow-repository.port';
import { CreateWorkflowUseCase, DeleteWorkflowUseCase, GetWorkflowUseCase, ListWorkflowsUseCase, UpdateWorkflowUseCase } from '../../../core/workflows/use-cases/manage-workflows.use-cases';
import { StepRunner } from '../../../core/workflows/use-cases/step-runner';
import { DeployTemplateUseCase, ListTemplatesUseCase } from '../../../core/workflows/use-cases/templates.use-cases';
import type { WorkflowDeps } from '../../../core/workflows/use-cases/workflow-deps';
import { RUN_WORKFLOW_JOB, WorkflowEngine, type RunWorkflowJob } from '../../../core/workflows/use-cases/workflow-engine';
import {
  CancelRunUseCase,
  GetRunUseCase,
  ListRunsUseCase,
  PauseWorkflowUseCase,
  ResumeWorkflowUseCase,
  RunScheduledWorkflowUseCase,
  RunWorkflowByApiUseCase,
  StartRuns,
  TriggerWorkflowUseCase,
  WorkflowEventTrigger,
} from '../../../core/workflows/use-cases/workflow-runs.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { EVENT_TOKENS, eventDeps } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { ownJobQueue } from './job-queues';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { UPLOAD_TOKENS } from './uploads.tokens';
import { WORKFLOW_TOKENS } from './workflows.tokens';

/** A run's workflow secrets, opened for its http headers (the current values: a secret changed since applies). */
function openSecrets(workflows: WorkflowRepository, box: SecretBox) {
  return async (workflowId: string): Promise<Record<string, string>> => {
    const workflow = await workflows.findById(workflowId);
    return Object.fromEntries(Object.entries(workflow?.secretsSealed ?? {}).map(([name, sealed]) => [name, box.open(sealed, workflowSecretAad(workflowId, name))]));
  };
}

export interface WorkflowsModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** How long a claim on a run lasts unless renewed (a crashed process's runs continue after it). */
  leaseMs?: number;
  /** How often running runs nobody holds (after a restart, a wait step's end) are queued. */
  sweepIntervalMs?: number;
  /** Runs executed at the same time, per process. */
  concurrency?: number;
}

/**
 * Workflows and application templates: graphs of steps run durably on the job queue (each step recorded,
 * a run continues after a restart), triggered by hand, by API key, by schedule or by platform event.
 * Needs the applications, conversations, knowledge, plugins and events areas when their steps are used.
 */
export function workflowsModule(options: WorkflowsModuleOptions = {}): AppModule {
  const prefix = options.jobPrefix ?? 'workflows';
  return {
    name: 'workflows',
    bind(c: Container) {
      provide(c, WORKFLOW_TOKENS.Repository, (get) => new CachedWorkflowRepository(get(TOKENS.DataSource), get(TOKENS.Cache)));
      provide(c, WORKFLOW_TOKENS.JobQueue, (get) => ownJobQueue(get, prefix));
      provide(c, WORKFLOW_TOKENS.Conditions, () => new JsonataConditionEvaluator());
      provide(c, WORKFLOW_TOKENS.Http, (get) => {
        const config = get(TOKENS.Config);
        const rules = { allowHttp: config.outboundAllowHttp, allowedPrivateCidrs: config.outboundAllowedPrivateCidrs };
        return new SsrfSafeWorkflowHttp({ ...rules, urlCheck: new SsrfSafeWebhookSender(rules) });
      });
      provide(c, WORKFLOW_TOKENS.Scheduler, (get) => {
        const config = get(TOKENS.Config);
        return new PluginBackedWorkflowScheduler(config.redisUrl ? new BullMqPluginScheduler({ redisUrl: config.redisUrl, prefix: `${prefix}-cron` }) : new CronerPluginScheduler());
      });
      const deps = (get: Getter): WorkflowDeps => ({
        workflows: get(WORKFLOW_TOKENS.Repository),
        applications: get(TOKENS.ApplicationRepository),
        conditions: get(WORKFLOW_TOKENS.Conditions),
        scheduler: get(WORKFLOW_TOKENS.Scheduler),
        queue: get(WORKFLOW_TOKENS.JobQueue),
        secretBox: get(TOKENS.SecretBox),
      });
      provide(c, StartRuns, (get) => new StartRuns(deps(get)));
      const withRuns = (get: Getter) => ({ ...deps(get), runs: get(StartRuns) });
      provide(c, CreateWorkflowUseCase, (get) => new CreateWorkflowUseCase(deps(get)));
      provide(c, ListWorkflowsUseCase, (get) => new ListWorkflowsUseCase(deps(get)));
      provide(c, GetWorkflowUseCase, (get) => new GetWorkflowUseCase(deps(get)));
      provide(c, UpdateWorkflowUseCase, (get) => new UpdateWorkflowUseCase(deps(get)));
      provide(c, DeleteWorkflowUseCase, (get) => new DeleteWorkflowUseCase(deps(get)));
      provide(c, TriggerWorkflowUseCase, (get) => new TriggerWorkflowUseCase(withRuns(get)));
      provide(c, RunWorkflowByApiUseCase, (get) => new RunWorkflowByApiUseCase(withRuns(get)));
      provide(c, ListRunsUseCase, (get) => new ListRunsUseCase(deps(get)));
      provide(c, GetRunUseCase, (get) => new GetRunUseCase(deps(get)));
      provide(c, CancelRunUseCase, (get) => new CancelRunUseCase(deps(get)));
      provide(c, PauseWorkflowUseCase, (get) => new PauseWorkflowUseCase(deps(get)));
      provide(c, ResumeWorkflowUseCase, (get) => new ResumeWorkflowUseCase(withRuns(get)));
      provide(c, RunScheduledWorkflowUseCase, (get) => new RunScheduledWorkflowUseCase(withRuns(get)));
      provide(c, WorkflowEventTrigger, (get) => new WorkflowEventTrigger(withRuns(get)));
      c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => resolve(c, WorkflowEventTrigger)).inSingletonScope();

      provide(c, StepRunner, (get) =>
        new StepRunner({
          applications: get(TOKENS.ApplicationRepository),
          chat: c.isBound(ChatTurnRunner) ? get(ChatTurnRunner) : undefined,
          knowledge: c.isBound(SearchKnowledgeUseCase) ? get(SearchKnowledgeUseCase) : undefined,
          plugins: c.isBound(CallPluginEndpointUseCase) ? get(CallPluginEndpointUseCase) : undefined,
          events: eventDeps(c, get).events,
          http: get(WORKFLOW_TOKENS.Http),
          conditions: get(WORKFLOW_TOKENS.Conditions),
          secrets: openSecrets(get(WORKFLOW_TOKENS.Repository), get(TOKENS.SecretBox)),
        }),
      );
      provide(c, WorkflowEngine, (get) => {
        const workflows = get(WORKFLOW_TOKENS.Repository);
        return new WorkflowEngine(
          { workflows, steps: get(StepRunner), clock: get(TOKENS.Clock), workflowName: async (id) => (await workflows.findById(id))?.name ?? 'Workflow' },
          { leaseMs: options.leaseMs ?? 10_000 },
        );
      });

      provide(c, ListTemplatesUseCase, () => new ListTemplatesUseCase());
      provide(c, DeployTemplateUseCase, (get) =>
        new DeployTemplateUseCase({
          unitOfWork: eventDeps(c, get).unitOfWork,
          createApplication: get(CreateApplicationUseCase),
          applications: get(TOKENS.ApplicationRepository),
          parts: new SqlTemplateParts(get(TOKENS.DataSource)),
          workflows: get(WORKFLOW_TOKENS.Repository),
          ...(c.isBound(KNOWLEDGE_TOKENS.DocumentRepository)
            ? {
                documents: get(KNOWLEDGE_TOKENS.DocumentRepository),
                files: get(UPLOAD_TOKENS.FileStore),
                knowledgeQueue: get(KNOWLEDGE_TOKENS.JobQueue),
                embedders: get(KNOWLEDGE_TOKENS.EmbedderRegistry),
              }
            : {}),
        }),
      );
    },
    routers: (c) => [
      workflowsRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        create: resolve(c, CreateWorkflowUseCase),
        list: resolve(c, ListWorkflowsUseCase),
        get: resolve(c, GetWorkflowUseCase),
        update: resolve(c, UpdateWorkflowUseCase),
        remove: resolve(c, DeleteWorkflowUseCase),
        trigger: resolve(c, TriggerWorkflowUseCase),
        runs: resolve(c, ListRunsUseCase),
        run: resolve(c, GetRunUseCase),
        cancel: resolve(c, CancelRunUseCase),
        pause: resolve(c, PauseWorkflowUseCase),
        resume: resolve(c, ResumeWorkflowUseCase),
      }),
      templatesRouter({ auth: resolve(c, TOKENS.AuthMiddleware), list: resolve(c, ListTemplatesUseCase), deploy: resolve(c, DeployTemplateUseCase) }),
      publicWorkflowsRouter({ apiKey: apiKeyAuth(resolve(c, AuthenticateApiKeyUseCase)), run: resolve(c, RunWorkflowByApiUseCase) }),
    ],
    async start(c: Container) {
      const queue = resolve(c, WORKFLOW_TOKENS.JobQueue);
      const engine = resolve(c, WorkflowEngine);
      const workflows = resolve(c, WORKFLOW_TOKENS.Repository);
      const scheduler = resolve(c, WORKFLOW_TOKENS.Scheduler);
      const scheduled = resolve(c, RunScheduledWorkflowUseCase);
      const logger = resolve(c, TOKENS.Logger);
      // One attempt per job: a run's progress is in the database, and the sweep picks up what a failed job left.
      queue.register<RunWorkflowJob>(RUN_WORKFLOW_JOB, (job) => engine.execute(job.runId), { attempts: 1, backoffMs: 1000, concurrency: options.concurrency ?? 4 });
      await queue.start();
      await scheduler.start((workflowId) => scheduled.execute(workflowId, new Date()));
      for (const w of await workflows.withSchedules()) {
        const s = w.definition.trigger.schedule!;
        await scheduler.schedule(w.id, s.cron, s.timezone).catch((err: Error) => logger.warn({ err: { message: err.message }, workflowId: w.id }, 'could not schedule a workflow'));
      }
      const sweep = () =>
        void workflows
          .dueRuns(100)
          .then(async (ids) => {
            for (const runId of ids) await queue.enqueue<RunWorkflowJob>(RUN_WORKFLOW_JOB, { runId });
          })
          .catch((err: Error) => logger.warn({ err: { message: err.message } }, 'workflow run sweep failed'));
      sweep();
      const timer = setInterval(sweep, options.sweepIntervalMs ?? 1000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await scheduler.close();
        await queue.stop();
      };
    },
  };
}

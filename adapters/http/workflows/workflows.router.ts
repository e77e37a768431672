import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateWorkflowUseCase, DeleteWorkflowUseCase, GetWorkflowUseCase, ListWorkflowsUseCase, UpdateWorkflowUseCase } from '../../../core/workflows/use-cases/manage-workflows.use-cases';
import type { DeployTemplateUseCase, ListTemplatesUseCase } from '../../../core/workflows/use-cases/templates.use-cases';
import type {
  CancelRunUseCase,
  GetRunUseCase,
  ListRunsUseCase,
  PauseWorkflowUseCase,
  ResumeWorkflowUseCase,
  RunWorkflowByApiUseCase,
  TriggerWorkflowUseCase,
} from '../../../core/workflows/use-cases/workflow-runs.use-cases';
import { callerOf } from '../public-api/api-key.middleware';
import { abortOnDisconnect } from '../shared/sse';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';

/** The caller's workflows and their runs. */
export function workflowsRouter(d: {
  auth: Middleware;
  create: CreateWorkflowUseCase;
  list: ListWorkflowsUseCase;
  get: GetWorkflowUseCase;
  update: UpdateWorkflowUseCase;
  remove: DeleteWorkflowUseCase;
  trigger: TriggerWorkflowUseCase;
  runs: ListRunsUseCase;
  run: GetRunUseCase;
  cancel: CancelRunUseCase;
  pause: PauseWorkflowUseCase;
  resume: ResumeWorkflowUseCase;
}): Router {
  const r = new Router({ prefix: '/api/workflows' });
  r.use(d.auth);
  r.get('/', async (ctx) => respondWithPage(ctx, await d.list.execute(ctx.query, actorOf(ctx))));
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/runs/:runId', async (ctx) => {
    ctx.body = await d.run.execute(ctx.params.runId!, actorOf(ctx));
  });
  r.post('/runs/:runId/cancel', async (ctx) => {
    ctx.body = await d.cancel.execute(ctx.params.runId!, actorOf(ctx));
  });
  r.get('/:id', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.id!, actorOf(ctx));
  });
  r.put('/:id', async (ctx) => {
    ctx.body = await d.update.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:id', async (ctx) => {
    await d.remove.execute(ctx.params.id!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/:id/trigger', async (ctx) => {
    ctx.status = 202;
    ctx.body = await d.trigger.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  r.get('/:id/runs', async (ctx) => respondWithPage(ctx, await d.runs.execute(ctx.params.id!, ctx.query, actorOf(ctx))));
  r.post('/:id/pause', async (ctx) => {
    ctx.body = await d.pause.execute(ctx.params.id!, actorOf(ctx));
  });
  r.post('/:id/resume', async (ctx) => {
    ctx.body = await d.resume.execute(ctx.params.id!, actorOf(ctx));
  });
  return r;
}

/** The template catalogue and its deployment. */
export function templatesRouter(d: { auth: Middleware; list: ListTemplatesUseCase; deploy: DeployTemplateUseCase }): Router {
  const r = new Router({ prefix: '/api/templates' });
  r.use(d.auth);
  r.get('/', (ctx) => {
    ctx.body = d.list.execute();
  });
  r.post('/:id/deploy', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.deploy.execute(ctx.params.id!, ctx.request.body, actorOf(ctx));
  });
  return r;
}

/** `POST /api/v1/workflows/:id/run` for API-key holders: 200 with the ended run when waited for, else 202. */
export function publicWorkflowsRouter(d: { apiKey: Middleware; run: RunWorkflowByApiUseCase }): Router {
  const r = new Router();
  r.post('/api/v1/workflows/:id/run', d.apiKey, async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const { finished, run } = await d.run.execute(ctx.params.id!, ctx.request.body, callerOf(ctx), abort.signal);
    ctx.status = finished ? 200 : 202;
    ctx.body = run;
  });
  return r;
}

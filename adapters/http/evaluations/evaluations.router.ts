import Router from '@koa/router';
import type { Context, Middleware, Next } from 'koa';
import { MAX_IMPORT_BYTES } from '../../../core/evaluations/domain/dataset';
import type {
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
import { actorOfKey } from '../../../core/evaluations/use-cases/evaluation-deps';
import type { CreateSavedEvaluatorUseCase, DeleteSavedEvaluatorUseCase, ListSavedEvaluatorsUseCase } from '../../../core/evaluations/use-cases/live-scoring.use-cases';
import type {
  CancelEvaluationRunUseCase,
  CompareEvaluationRunsUseCase,
  ExportEvaluationResultsUseCase,
  GetEvaluationRunUseCase,
  ListEvaluationResultsUseCase,
  ListEvaluationRunsUseCase,
  StartEvaluationRunUseCase,
} from '../../../core/evaluations/use-cases/runs.use-cases';
import type { Actor } from '../../../core/shared/actor';
import { callerOf } from '../public-api/api-key.middleware';
import { actorOf } from '../shared/auth.middleware';
import { attachmentDisposition } from '../uploads/content-disposition';
import { formOf, multipartForm } from '../uploads/multipart';

export interface EvaluationsRouterDeps {
  auth: Middleware;
  apiKey: Middleware;
  listDatasets: ListDatasetsUseCase;
  createDataset: CreateDatasetUseCase;
  getDataset: GetDatasetUseCase;
  updateDataset: UpdateDatasetUseCase;
  deleteDataset: DeleteDatasetUseCase;
  addItems: AddDatasetItemsUseCase;
  addAnnotations: AddAnnotationsToDatasetUseCase;
  addMessages: AddMessagesToDatasetUseCase;
  removeItem: RemoveDatasetItemUseCase;
  importItems: ImportDatasetItemsUseCase;
  exportDataset: ExportDatasetUseCase;
  startRun: StartEvaluationRunUseCase;
  listRuns: ListEvaluationRunsUseCase;
  getRun: GetEvaluationRunUseCase;
  results: ListEvaluationResultsUseCase;
  cancel: CancelEvaluationRunUseCase;
  compare: CompareEvaluationRunsUseCase;
  exportResults: ExportEvaluationResultsUseCase;
  listEvaluators: ListSavedEvaluatorsUseCase;
  createEvaluator: CreateSavedEvaluatorUseCase;
  deleteEvaluator: DeleteSavedEvaluatorUseCase;
}

/** A session, or (for CI) an API key in `X-API-Key`: the gate's two routes take either. */
const sessionOrKey =
  (auth: Middleware, apiKey: Middleware): Middleware =>
  (ctx: Context, next: Next) =>
    ctx.get('X-API-Key') ? apiKey(ctx, next) : auth(ctx, next);

const gateActor = (ctx: Context): Actor => (ctx.state.publicCaller ? actorOfKey(callerOf(ctx), ctx.params.appId!) : actorOf(ctx));

/** Evaluations of an application (docs/evaluations.md): datasets, runs, results, comparison and the CI gate. */
export function evaluationsRouter(d: EvaluationsRouterDeps): Router {
  const r = new Router({ prefix: '/api/applications/:appId' });
  const auth = d.auth;
  const either = sessionOrKey(d.auth, d.apiKey);

  r.get('/datasets', auth, async (ctx) => {
    ctx.body = await d.listDatasets.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.post('/datasets', auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.createDataset.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.get('/datasets/:datasetId', auth, async (ctx) => {
    ctx.body = await d.getDataset.execute(ctx.params.appId!, ctx.params.datasetId!, actorOf(ctx));
  });
  r.put('/datasets/:datasetId', auth, async (ctx) => {
    ctx.body = await d.updateDataset.execute(ctx.params.appId!, ctx.params.datasetId!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/datasets/:datasetId', auth, async (ctx) => {
    await d.deleteDataset.execute(ctx.params.appId!, ctx.params.datasetId!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/datasets/:datasetId/items', auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.addItems.execute(ctx.params.appId!, ctx.params.datasetId!, ctx.request.body, actorOf(ctx));
  });
  r.post('/datasets/:datasetId/items/from-annotations', auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.addAnnotations.execute(ctx.params.appId!, ctx.params.datasetId!, ctx.request.body, actorOf(ctx));
  });
  r.post('/datasets/:datasetId/items/from-messages', auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.addMessages.execute(ctx.params.appId!, ctx.params.datasetId!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/datasets/:datasetId/items/:itemId', auth, async (ctx) => {
    await d.removeItem.execute(ctx.params.appId!, ctx.params.datasetId!, ctx.params.itemId!, actorOf(ctx));
    ctx.status = 204;
  });
  r.post('/datasets/:datasetId/import', auth, multipartForm({ maxFileBytes: MAX_IMPORT_BYTES }), async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.importItems.execute(ctx.params.appId!, ctx.params.datasetId!, formOf(ctx), actorOf(ctx));
  });
  r.get('/datasets/:datasetId/export', auth, async (ctx) => {
    const file = await d.exportDataset.execute(ctx.params.appId!, ctx.params.datasetId!, ctx.query.format, actorOf(ctx));
    ctx.set('Content-Type', file.contentType);
    ctx.set('Content-Disposition', attachmentDisposition(file.fileName));
    ctx.body = file.body;
  });

  r.get('/evaluators', auth, async (ctx) => {
    ctx.body = await d.listEvaluators.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.post('/evaluators', auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.createEvaluator.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/evaluators/:evaluatorId', auth, async (ctx) => {
    await d.deleteEvaluator.execute(ctx.params.appId!, ctx.params.evaluatorId!, actorOf(ctx));
    ctx.status = 204;
  });

  r.get('/evaluations', auth, async (ctx) => {
    ctx.body = await d.listRuns.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.post('/evaluations', either, async (ctx) => {
    const fromKey = Boolean(ctx.state.publicCaller);
    ctx.status = 202;
    ctx.body = await d.startRun.execute(ctx.params.appId!, ctx.request.body, gateActor(ctx), fromKey ? 'api' : 'console');
  });
  // Before `/evaluations/:runId`, which would otherwise take "compare" for an id.
  r.get('/evaluations/compare', auth, async (ctx) => {
    ctx.body = await d.compare.execute(ctx.params.appId!, ctx.query as Record<string, unknown>, actorOf(ctx));
  });
  r.get('/evaluations/:runId', either, async (ctx) => {
    ctx.body = await d.getRun.execute(ctx.params.appId!, ctx.params.runId!, gateActor(ctx));
  });
  r.get('/evaluations/:runId/results', auth, async (ctx) => {
    ctx.body = await d.results.execute(ctx.params.appId!, ctx.params.runId!, actorOf(ctx));
  });
  r.get('/evaluations/:runId/export', auth, async (ctx) => {
    const file = await d.exportResults.execute(ctx.params.appId!, ctx.params.runId!, ctx.query.format, actorOf(ctx));
    ctx.set('Content-Type', file.contentType);
    ctx.set('Content-Disposition', attachmentDisposition(file.fileName));
    ctx.body = file.body;
  });
  r.post('/evaluations/:runId/cancel', auth, async (ctx) => {
    ctx.body = await d.cancel.execute(ctx.params.appId!, ctx.params.runId!, actorOf(ctx));
  });
  return r;
}

import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreateConfigVersionUseCase } from '../../../core/model-configs/use-cases/create-config-version.use-case';
import type { CreateModelConfigUseCase } from '../../../core/model-configs/use-cases/create-model-config.use-case';
import type { DeleteConfigVersionUseCase } from '../../../core/model-configs/use-cases/delete-config-version.use-case';
import type { DeleteModelConfigUseCase } from '../../../core/model-configs/use-cases/delete-model-config.use-case';
import type { GetModelConfigUseCase } from '../../../core/model-configs/use-cases/get-model-config.use-case';
import type { ListConfigVersionsUseCase } from '../../../core/model-configs/use-cases/list-config-versions.use-case';
import type { CompareConfigVersionsUseCase } from '../../../core/model-configs/use-cases/compare-config-versions.use-case';
import type { ListModelConfigsUseCase } from '../../../core/model-configs/use-cases/list-model-configs.use-case';
import type { SetDefaultModelConfigUseCase } from '../../../core/model-configs/use-cases/set-default-model-config.use-case';
import type { UpdateConfigVersionUseCase } from '../../../core/model-configs/use-cases/update-config-version.use-case';
import type { UpdateModelConfigUseCase } from '../../../core/model-configs/use-cases/update-model-config.use-case';
import { actorOf } from '../shared/auth.middleware';

/** Model configs and their A/B versions (SPEC 4.5). */
export function modelConfigsRouter(d: {
  auth: Middleware;
  create: CreateModelConfigUseCase;
  list: ListModelConfigsUseCase;
  get: GetModelConfigUseCase;
  update: UpdateModelConfigUseCase;
  remove: DeleteModelConfigUseCase;
  setDefault: SetDefaultModelConfigUseCase;
  listVersions: ListConfigVersionsUseCase;
  compareVersions: CompareConfigVersionsUseCase;
  createVersion: CreateConfigVersionUseCase;
  updateVersion: UpdateConfigVersionUseCase;
  removeVersion: DeleteConfigVersionUseCase;
}): Router {
  const r = new Router({ prefix: '/api/model-configs' });
  r.use(d.auth);
  r.get('/', async (ctx) => {
    ctx.body = await d.list.execute(ctx.query, actorOf(ctx));
  });
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
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
  r.patch('/:id/default', async (ctx) => {
    ctx.body = await d.setDefault.execute(ctx.params.id!, actorOf(ctx));
  });
  r.get('/:configId/versions', async (ctx) => {
    ctx.body = await d.listVersions.execute(ctx.params.configId!, actorOf(ctx));
  });
  r.get('/:configId/metrics', async (ctx) => {
    ctx.body = await d.compareVersions.execute(ctx.params.configId!, actorOf(ctx));
  });
  r.post('/:configId/versions', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.createVersion.execute(ctx.params.configId!, ctx.request.body, actorOf(ctx));
  });
  r.put('/:configId/versions/:versionId', async (ctx) => {
    ctx.body = await d.updateVersion.execute(ctx.params.configId!, ctx.params.versionId!, ctx.request.body, actorOf(ctx));
  });
  r.delete('/:configId/versions/:versionId', async (ctx) => {
    await d.removeVersion.execute(ctx.params.configId!, ctx.params.versionId!, actorOf(ctx));
    ctx.status = 204;
  });
  return r;
}

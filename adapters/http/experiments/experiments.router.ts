import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { GetExperimentUseCase } from '../../../core/experiments/use-cases/get-experiment.use-case';
import type { PromoteExperimentUseCase } from '../../../core/experiments/use-cases/promote-experiment.use-case';
import type { SetExperimentUseCase } from '../../../core/experiments/use-cases/set-experiment.use-case';
import { actorOf } from '../shared/auth.middleware';

/** The A/B test of a model config: its goal and settings, the decision view, and promotion (docs/ab-tests.md). */
export function experimentsRouter(d: { auth: Middleware; get: GetExperimentUseCase; set: SetExperimentUseCase; promote: PromoteExperimentUseCase }): Router {
  const r = new Router({ prefix: '/api/model-configs' });
  r.use(d.auth);
  r.get('/:configId/experiment', async (ctx) => {
    ctx.body = await d.get.execute(ctx.params.configId!, actorOf(ctx));
  });
  r.put('/:configId/experiment', async (ctx) => {
    ctx.body = await d.set.execute(ctx.params.configId!, ctx.request.body, actorOf(ctx));
  });
  r.post('/:configId/experiment/promote', async (ctx) => {
    ctx.body = await d.promote.execute(ctx.params.configId!, actorOf(ctx));
  });
  return r;
}

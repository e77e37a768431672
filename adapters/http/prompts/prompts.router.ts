import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { CreatePromptTemplateUseCase } from '../../../core/prompts/use-cases/create-prompt-template.use-case';
import type { DeletePromptTemplateUseCase } from '../../../core/prompts/use-cases/delete-prompt-template.use-case';
import type { GetPromptTemplateUseCase } from '../../../core/prompts/use-cases/get-prompt-template.use-case';
import type { ListPromptTemplatesUseCase } from '../../../core/prompts/use-cases/list-prompt-templates.use-case';
import type { RenderPromptUseCase } from '../../../core/prompts/use-cases/render-prompt.use-case';
import type { SetDefaultPromptTemplateUseCase } from '../../../core/prompts/use-cases/set-default-prompt-template.use-case';
import type { UpdatePromptTemplateUseCase } from '../../../core/prompts/use-cases/update-prompt-template.use-case';
import { actorOf } from '../shared/auth.middleware';

/** Prompt templates (SPEC 4.7). */
export function promptsRouter(d: {
  auth: Middleware;
  create: CreatePromptTemplateUseCase;
  list: ListPromptTemplatesUseCase;
  get: GetPromptTemplateUseCase;
  update: UpdatePromptTemplateUseCase;
  remove: DeletePromptTemplateUseCase;
  setDefault: SetDefaultPromptTemplateUseCase;
  render: RenderPromptUseCase;
}): Router {
  const r = new Router({ prefix: '/api/prompts' });
  r.use(d.auth);
  r.post('/render', async (ctx) => {
    ctx.body = await d.render.execute(ctx.request.body, actorOf(ctx));
  });
  r.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.create.execute(ctx.request.body, actorOf(ctx));
  });
  r.get('/', async (ctx) => {
    ctx.body = await d.list.execute(ctx.query, actorOf(ctx));
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
  r.put('/:id/default', async (ctx) => {
    ctx.body = await d.setDefault.execute(ctx.params.id!, actorOf(ctx));
  });
  return r;
}

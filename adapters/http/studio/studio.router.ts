import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { PublishStudioUseCase } from '../../../core/studio/use-cases/publish-studio.use-case';
import type { StudioDebugChatUseCase } from '../../../core/studio/use-cases/studio-debug-chat.use-case';
import type { GetStudioDraftUseCase, SaveStudioDraftUseCase } from '../../../core/studio/use-cases/studio-draft.use-cases';
import type {
  DiffStudioVersionsUseCase,
  GetStudioVersionUseCase,
  ListStudioVersionsUseCase,
  RestoreStudioVersionUseCase,
  StartStudioAbTestUseCase,
} from '../../../core/studio/use-cases/studio-versions.use-cases';
import { actorOf } from '../shared/auth.middleware';
import { respondWithPage } from '../shared/paged-response';
import { abortOnDisconnect, writeSse } from '../shared/sse';

/** The application studio (docs/studio.md): draft, publish, versions, diff, restore, A/B, and the debug chat on the draft. */
export function studioRouter(d: {
  auth: Middleware;
  getDraft: GetStudioDraftUseCase;
  saveDraft: SaveStudioDraftUseCase;
  publish: PublishStudioUseCase;
  listVersions: ListStudioVersionsUseCase;
  getVersion: GetStudioVersionUseCase;
  restore: RestoreStudioVersionUseCase;
  diff: DiffStudioVersionsUseCase;
  startAbTest: StartStudioAbTestUseCase;
  debug: StudioDebugChatUseCase;
}): Router {
  const r = new Router({ prefix: '/api/applications/:appId/studio' });
  r.use(d.auth);
  r.get('/draft', async (ctx) => {
    ctx.body = await d.getDraft.execute(ctx.params.appId!, actorOf(ctx));
  });
  r.put('/draft', async (ctx) => {
    ctx.body = await d.saveDraft.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.post('/publish', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.publish.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx));
  });
  r.get('/versions', async (ctx) => {
    respondWithPage(ctx, await d.listVersions.execute(ctx.params.appId!, ctx.query, actorOf(ctx)));
  });
  r.get('/versions/:number', async (ctx) => {
    ctx.body = await d.getVersion.execute(ctx.params.appId!, ctx.params.number!, actorOf(ctx));
  });
  r.post('/versions/:number/restore', async (ctx) => {
    ctx.body = await d.restore.execute(ctx.params.appId!, ctx.params.number!, actorOf(ctx));
  });
  r.post('/versions/:number/ab-test', async (ctx) => {
    ctx.status = 201;
    ctx.body = await d.startAbTest.execute(ctx.params.appId!, ctx.params.number!, ctx.request.body, actorOf(ctx));
  });
  r.get('/diff', async (ctx) => {
    ctx.body = await d.diff.execute(ctx.params.appId!, { from: ctx.query.from, to: ctx.query.to }, actorOf(ctx));
  });
  r.post('/debug/stream', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const events = await d.debug.execute(ctx.params.appId!, ctx.request.body, actorOf(ctx), abort.signal);
    await writeSse(ctx, events);
  });
  return r;
}

import Router from '@koa/router';
import type { Middleware } from 'koa';
import * as yup from 'yup';
import { parseMessageRequest } from '../../../core/ai/domain/message-request';
import type { ChatEngine, ChatMessageRequest } from '../../../core/ai/ports/chat-engine.port';
import { parsePageRequest } from '../../../core/shared/pagination';
import { num, str, uuidField, validate } from '../../../core/shared/validation';
import { respondWithPage } from '../shared/paged-response';
import { abortOnDisconnect, writeSse } from '../shared/sse';
import { CONNECTION_KINDS } from '../../../core/connections/domain/connection';
import type { Tracer } from '../../../core/traces/use-cases/tracer';
import { engineTrace, tracedSend, tracedStream } from '../../../core/traces/use-cases/engine-trace';

const createSchema = yup.object({
  applicationId: uuidField('applicationId').required('applicationId is required'),
  title: str().max(200),
  source: str().oneOf(['dashboard', 'api', 'widget']),
  apiKeyId: uuidField('apiKeyId').nullable(),
  configVersionId: uuidField('configVersionId').nullable(),
});

/** Internal fields the core API adds to a message (never from end users: the service token guards them). */
const internalSchema = yup.object({
  // Passed through whole (the engine validates it): an object schema without fields would strip every key.
  settings: yup
    .mixed<Record<string, unknown>>()
    .test('settings', 'settings must be an object', (v) => v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v))),
  context: str().max(200_000),
  configVersionId: uuidField('configVersionId').nullable(),
  sources: yup
    .array()
    .of(yup.object({ documentId: str().required(), chunkIndex: num().required(), score: num().required(), fileName: str().max(1000), excerpt: str().max(1000), page: num().integer().nullable(), section: str().max(1000).nullable() }))
    .default(undefined),
  // A first message that opens its conversation under the id in the path.
  startConversation: createSchema.default(undefined),
  // Whose turn it is: its events are written with its messages.
  announce: yup
    .object({ ownerId: uuidField('announce.ownerId').required('announce.ownerId is required'), source: str().oneOf(['dashboard', 'api', 'widget']).required('announce.source is required') })
    .default(undefined),
  // The application's enabled tools and agent settings, read by the core API (docs/tools.md); checked in shape here.
  tools: yup
    .mixed<NonNullable<ChatMessageRequest['tools']>>()
    .test('tools', 'tools must hold tools, settings and ownerId', (v) => v === undefined || isTurnTools(v)),
  // An owner's connection, opened by the core API for this turn (docs/connections.md); checked in shape here.
  connection: yup
    .mixed<NonNullable<ChatMessageRequest['connection']>>()
    .test('connection', 'connection must name a connection, its kind, base URL, headers and models', (v) => v === undefined || isOpenedConnection(v)),
  fallbackConnections: yup
    .mixed<NonNullable<ChatMessageRequest['fallbackConnections']>>()
    // Up to 3 balance members and 3 fallbacks may each name a connection.
    .test('fallbackConnections', 'fallbackConnections must be at most 6 connections', (v) => v === undefined || (Array.isArray(v) && v.length <= 6 && v.every(isOpenedConnection))),
  fallbackKeys: yup
    .mixed<Record<string, string>>()
    .test('fallbackKeys', 'fallbackKeys must map provider ids to keys', (v) => v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((k) => typeof k === 'string'))),
});

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isToolShape(v: unknown): boolean {
  return (
    isObject(v) && typeof v.id === 'string' && typeof v.name === 'string' && typeof v.description === 'string' && isObject(v.parameters) &&
    isObject(v.source) && typeof v.source.type === 'string' && Number.isInteger(v.timeoutMs) && isObject(v.secretsSealed)
  );
}

function isTurnTools(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const t = v as Record<string, unknown>;
  const settings = t.settings as Record<string, unknown> | null;
  return (
    Array.isArray(t.tools) &&
    t.tools.every(isToolShape) &&
    typeof t.ownerId === 'string' &&
    typeof settings === 'object' && settings !== null &&
    Array.isArray(settings.enabledTools) && Number.isInteger(settings.maxToolRounds) && Number.isInteger(settings.timeBudgetMs) && typeof settings.parallelCalls === 'boolean'
  );
}

function isOpenedConnection(v: unknown): v is NonNullable<ChatMessageRequest['connection']> {
  const c = v as Record<string, unknown> | null;
  return (
    typeof c === 'object' && c !== null && typeof c.id === 'string' && typeof c.name === 'string' && (CONNECTION_KINDS as readonly unknown[]).includes(c.kind) &&
    typeof c.baseUrl === 'string' && (c.apiKey === undefined || typeof c.apiKey === 'string') &&
    typeof c.headers === 'object' && c.headers !== null && Object.values(c.headers).every((h) => typeof h === 'string') &&
    Array.isArray(c.models) && c.models.length <= 1000 && c.models.every((m) => typeof m === 'string')
  );
}

async function readMessage(body: unknown, providerKey: string): Promise<ChatMessageRequest> {
  const request = await parseMessageRequest(body);
  const internal = await validate(internalSchema, body);
  return {
    ...request,
    settings: { ...internal.settings, ...request.settings },
    context: internal.context,
    configVersionId: internal.configVersionId,
    sources: internal.sources as ChatMessageRequest['sources'],
    ...(internal.startConversation ? { startConversation: internal.startConversation as ChatMessageRequest['startConversation'] } : {}),
    ...(internal.announce ? { announce: internal.announce as ChatMessageRequest['announce'] } : {}),
    ...(internal.tools ? { tools: internal.tools } : {}),
    ...(internal.connection ? { connection: internal.connection } : {}),
    ...(internal.fallbackKeys ? { fallbackKeys: internal.fallbackKeys } : {}),
    ...(internal.fallbackConnections ? { fallbackConnections: internal.fallbackConnections } : {}),
    apiKey: providerKey || undefined,
  };
}

/** The AI service's API (SPEC 4.4), behind the service token. The user's own key travels in `X-Provider-Key`. */
export function aiRouter(d: { auth: Middleware; engine: ChatEngine; tracer?: Tracer }): Router {
  const r = new Router({ prefix: '/api/ai' });
  r.use(d.auth);
  r.get('/providers', async (ctx) => {
    ctx.body = await d.engine.providers();
  });
  r.get('/providers/:provider/models', async (ctx) => {
    ctx.body = await d.engine.models(ctx.params.provider!);
  });
  r.post('/conversations', async (ctx) => {
    const body = await validate(createSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await d.engine.createConversation(body as Parameters<ChatEngine['createConversation']>[0]);
  });
  r.get('/conversations/by-app/:appId', async (ctx) => {
    respondWithPage(ctx, await d.engine.listConversations(ctx.params.appId!, parsePageRequest(ctx.query)));
  });
  r.get('/conversations/:id', async (ctx) => {
    ctx.body = await d.engine.getConversation(ctx.params.id!);
  });
  r.delete('/conversations/:id', async (ctx) => {
    await d.engine.archiveConversation(ctx.params.id!);
    ctx.status = 204;
  });
  r.post('/conversations/:id/messages', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const request = await readMessage(ctx.request.body, ctx.get('X-Provider-Key'));
    // The turn's trace continues here when the core API sent its `traceparent` (docs/observability.md).
    const trace = engineTrace(d.tracer, ctx.get('traceparent'), ctx.params.id!);
    ctx.body = await tracedSend(trace, request, (r) => d.engine.sendMessage(ctx.params.id!, r, abort.signal));
  });
  r.post('/conversations/:id/stream', async (ctx) => {
    const abort = abortOnDisconnect(ctx);
    const request = await readMessage(ctx.request.body, ctx.get('X-Provider-Key'));
    const trace = engineTrace(d.tracer, ctx.get('traceparent'), ctx.params.id!);
    await writeSse(ctx, await tracedStream(trace, request, (r) => d.engine.streamMessage(ctx.params.id!, r, abort.signal)));
  });
  return r;
}

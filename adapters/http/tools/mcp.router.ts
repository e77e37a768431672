import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { RATE_LIMIT_WINDOW_SECONDS } from '../../../core/api-keys/domain/api-key';
import { ApiKeyRateLimitedError } from '../../../core/api-keys/domain/api-key-rate-limited.error';
import type { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import type { PublicCaller } from '../../../core/public-api/domain/public-caller';
import type { ApplicationMcpUseCase } from '../../../core/tools/use-cases/application-mcp.use-case';
import { AppError, ValidationError } from '../../../core/shared/errors';
import { callerOf } from '../public-api/api-key.middleware';
import { setRateLimitHeaders } from '../public-api/rate-limit-headers';

class MethodNotAllowedError extends AppError {
  readonly kind = 'validation' as const;
  readonly status = 405;
}

class NotAcceptableError extends AppError {
  readonly kind = 'validation' as const;
  readonly status = 406;
}

/**
 * What the transport would refuse with a JSON-RPC error body is refused here first with the platform's
 * error body: an Accept header without both media types Streamable HTTP answers in, and a body that is
 * not one JSON-RPC message (batches were dropped from MCP; the body reader refuses arrays anyway).
 */
function checkEnvelope(ctx: Context): void {
  const accept = ctx.get('Accept');
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new NotAcceptableError('MCP clients must accept both application/json and text/event-stream');
  }
  const body = ctx.request.body as Record<string, unknown> | undefined;
  if (!body || body.jsonrpc !== '2.0') throw ValidationError.field('jsonrpc', 'jsonrpc must be "2.0"');
  if (typeof body.method !== 'string' || body.method === '') throw ValidationError.field('method', 'method must be a JSON-RPC method name');
  if (body.id !== undefined && typeof body.id !== 'string' && !(typeof body.id === 'number' && Number.isInteger(body.id))) throw ValidationError.field('id', 'id must be a string or an integer');
  if (body.params !== undefined && (typeof body.params !== 'object' || body.params === null || Array.isArray(body.params))) throw ValidationError.field('params', 'params must be an object');
}

/** The key from `X-API-Key` or, as MCP clients send it, `Authorization: Bearer <api key>`; counted against its limit. */
function mcpKeyAuth(authenticate: AuthenticateApiKeyUseCase) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1];
    let admitted;
    try {
      admitted = await authenticate.execute(ctx.get('X-API-Key') || bearer || '');
    } catch (error) {
      if (error instanceof ApiKeyRateLimitedError) setRateLimitHeaders(ctx, error.decision, RATE_LIMIT_WINDOW_SECONDS);
      throw error;
    }
    setRateLimitHeaders(ctx, admitted.rateLimit, RATE_LIMIT_WINDOW_SECONDS);
    // MCP clients are not browsers on a page of the application: no origin check applies.
    const caller: PublicCaller = { key: admitted.key, origin: undefined, source: 'api' };
    ctx.state.publicCaller = caller;
    await next();
  };
}

/**
 * `POST /api/v1/mcp`: the application as an MCP server over Streamable HTTP, stateless (a server and
 * transport per request, JSON answers, no session), so any instance answers any request. GET (a
 * server-sent stream) and DELETE (ending a session) have nothing to serve without sessions: 405.
 */
export function mcpRouter(d: { authenticate: AuthenticateApiKeyUseCase; mcp: ApplicationMcpUseCase; serverName: string; serverVersion: string }): Router {
  const r = new Router();
  const auth = mcpKeyAuth(d.authenticate);
  r.post('/api/v1/mcp', auth, async (ctx) => {
    checkEnvelope(ctx);
    const caller = callerOf(ctx);
    const named = ctx.get('X-Application-Id') || (typeof ctx.query.applicationId === 'string' ? ctx.query.applicationId : undefined);
    const application = await d.mcp.application(caller, named);
    const server = new Server({ name: d.serverName, version: d.serverVersion }, { capabilities: { tools: {} }, instructions: `Tools of the application "${application.name}".` });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await d.mcp.list(application) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const args = request.params.arguments && typeof request.params.arguments === 'object' ? request.params.arguments : {};
      const result = await d.mcp.call(application, caller, request.params.name, args, extra.signal);
      return { content: [{ type: 'text' as const, text: result.text }], isError: result.isError };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport writes the answer itself.
    ctx.respond = false;
    await transport.handleRequest(ctx.req, ctx.res, ctx.request.body);
  });
  const notAllowed = async () => {
    throw new MethodNotAllowedError('This MCP server is stateless: send JSON-RPC requests with POST');
  };
  r.get('/api/v1/mcp', notAllowed);
  r.delete('/api/v1/mcp', notAllowed);
  return r;
}

import { NotFoundError, PayloadTooLargeError, UnauthorizedError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Installation } from '../domain/installation';
import type { PluginDefinition } from '../domain/definition';
import { PluginCallError } from '../domain/plugin-errors';
import type { InstallationRepository } from '../ports/installation-repository.port';
import type { PluginRuntime } from './plugin-runtime';

export const MAX_ENDPOINT_BODY_BYTES = 1024 * 1024;

export interface EndpointRequest {
  pluginId: string;
  applicationId: string | undefined;
  method: string;
  /** The path after `/endpoints`, starting with `/`. */
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string>;
  body: unknown;
}

export interface ResolvedEndpoint {
  installation: Installation;
  ownerId: string;
  auth: boolean;
  params: Record<string, string>;
}

/** Who calls a private endpoint: a signed-in user, or an API key of its owner (limited to one application, or not). */
export type EndpointCaller = { userId: string; keyApplicationId?: undefined } | { userId: string; keyApplicationId: string | null };

export interface EndpointResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Request headers never shown to plugin code. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie', 'x-api-key', 'proxy-authorization']);
/** Response headers a plugin may set. */
const ALLOWED_RESPONSE_HEADER = /^(?:content-type|cache-control|etag|last-modified|location|x-[a-z0-9-]+)$/i;

/**
 * `ALL /api/plugins/:pluginId/endpoints/*`: finds the endpoint of the plugin active in the named
 * application (else 404), then calls its handler with 1 s CPU and 10 s wall; its answer is checked.
 */
export class CallPluginEndpointUseCase {
  constructor(private readonly deps: { installations: InstallationRepository; runtime: PluginRuntime }) {}

  async resolve(req: Pick<EndpointRequest, 'pluginId' | 'applicationId' | 'method' | 'path'>): Promise<ResolvedEndpoint> {
    if (!req.applicationId) throw new NotFoundError('Plugin endpoint', 'Plugin endpoint not found: name the application it is active in with ?applicationId= or the X-Application-Id header');
    if (!isUuid(req.pluginId) || !isUuid(req.applicationId)) throw new NotFoundError('Plugin endpoint');
    const installation = (await this.deps.runtime.active(req.applicationId)).find((i) => i.pluginId === req.pluginId);
    if (!installation) throw new NotFoundError('Plugin endpoint');
    const loaded = await this.deps.runtime.load(installation).catch(() => null);
    if (!loaded) throw new NotFoundError('Plugin endpoint');
    const match = matchEndpoint(loaded.definition, req.method, req.path);
    if (!match) throw new NotFoundError('Plugin endpoint');
    return { installation, ownerId: installation.ownerId, auth: match.auth, params: match.params };
  }

  /**
   * A private endpoint (`auth: true`) is the application owner's, by bearer token or by an API key valid for the
   * application; to anyone else it answers 404 exactly as a missing one, so its existence is not confirmed.
   */
  async execute(resolved: ResolvedEndpoint, req: EndpointRequest, caller: EndpointCaller | null): Promise<EndpointResponse> {
    if (resolved.auth && !caller) throw new UnauthorizedError('This endpoint needs a bearer token of the application owner or an API key of the application');
    if (resolved.auth && !mayCall(caller!, resolved)) throw new NotFoundError('Plugin endpoint');
    const user = resolved.auth ? { id: caller!.userId } : null;
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HIDDEN_HEADERS.has(k.toLowerCase())));
    const arg = { method: req.method, path: req.path, params: resolved.params, query: req.query, headers, body: req.body ?? null, ...(user ? { user } : {}) };
    const started = Date.now();
    const { installations, runtime } = this.deps;
    const id = resolved.installation.id;
    let result: unknown;
    try {
      result = await runtime.call(resolved.installation, { kind: 'endpoint', name: `${req.method} ${req.path}` }, arg, runtime.limits.call);
    } catch (error) {
      if (error instanceof PluginCallError) return { status: 502, headers: {}, body: { statusCode: 502, message: `The plugin failed: ${error.message}`, error: 'Bad Gateway' } };
      throw error;
    }
    let response: EndpointResponse;
    try {
      response = checkResponse(result);
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      void installations.recordFailure(id, `endpoint ${req.method} ${req.path}: ${error.message}`).catch(() => undefined);
      return { status: 502, headers: {}, body: { statusCode: 502, message: error.message, error: 'Bad Gateway' } };
    }
    void installations.recordRun({ installationId: id, kind: 'endpoint', name: `${req.method} ${req.path}`, ok: true, error: null, durationMs: Date.now() - started }).catch(() => undefined);
    return response;
  }
}

function mayCall(caller: EndpointCaller, resolved: ResolvedEndpoint): boolean {
  if (caller.userId !== resolved.ownerId) return false;
  return caller.keyApplicationId === undefined || caller.keyApplicationId === null || caller.keyApplicationId === resolved.installation.applicationId;
}

function checkResponse(result: unknown): EndpointResponse {
  const r = (result ?? {}) as { status?: unknown; headers?: unknown; body?: unknown };
  const status = typeof r.status === 'number' && Number.isInteger(r.status) && r.status >= 200 && r.status <= 599 ? r.status : 200;
  const headers: Record<string, string> = {};
  if (r.headers && typeof r.headers === 'object') {
    for (const [k, v] of Object.entries(r.headers as Record<string, unknown>)) {
      if (ALLOWED_RESPONSE_HEADER.test(k) && typeof v === 'string' && !/[\r\n]/.test(v)) headers[k.toLowerCase()] = v;
    }
  }
  const body = r.body === undefined ? null : r.body;
  if (Buffer.byteLength(typeof body === 'string' ? body : JSON.stringify(body)) > MAX_ENDPOINT_BODY_BYTES) throw new PayloadTooLargeError('The plugin answered more than 1 MB');
  return { status, headers, body };
}

/** Matches `GET /items/:id` style paths: literal segments and `:name` parameters. */
export function matchEndpoint(definition: PluginDefinition, method: string, path: string): { auth: boolean; params: Record<string, string> } | null {
  const actual = path.split('/').filter(Boolean);
  for (const endpoint of definition.endpoints) {
    if (endpoint.method !== method.toUpperCase()) continue;
    const pattern = endpoint.path.split('/').filter(Boolean);
    if (pattern.length !== actual.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((segment, i) => {
      if (segment.startsWith(':')) {
        try {
          params[segment.slice(1)] = decodeURIComponent(actual[i]!);
        } catch {
          return false;
        }
        return true;
      }
      return segment === actual[i];
    });
    if (ok) return { auth: endpoint.auth, params };
  }
  return null;
}

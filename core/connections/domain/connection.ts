import { isProviderId, type ProviderId } from '../../ai/domain/provider-id';
import { ValidationError, type ErrorDetail } from '../../shared/errors';

/**
 * A named endpoint an owner runs or rents (docs/connections.md): their own Ollama or vLLM, OpenRouter,
 * Azure OpenAI, any service that speaks one of the APIs the platform speaks. Its key and extra headers
 * are only ever held sealed; views show the key's last characters and the headers' names.
 */
export const CONNECTION_KINDS = ['openai_compatible', 'anthropic_compatible', 'hugging_face_compatible'] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/**
 * The built-in provider whose API (and SDK, given the connection's base URL) a kind speaks, and whose
 * settings rules (the temperature range) its turns follow. Gemini-compatible endpoints are not a kind: the
 * Gemini SDK takes a base URL but not the fetch that applies the connections' address rules.
 */
export const CONNECTION_KIND_SPEAKS: Record<ConnectionKind, ProviderId> = {
  openai_compatible: 'provider_a',
  anthropic_compatible: 'provider_b',
  hugging_face_compatible: 'provider_d',
};

export interface Connection {
  id: string;
  /** Whose personal connection it is; null for a team's, which belongs to the team (not to who added it). */
  ownerId: string | null;
  /** The team that holds it, whose applications may use it; null for a personal connection. */
  teamId: string | null;
  /** Who added it; null once that account is deleted (a team's connection outlives it). */
  addedBy: string | null;
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  /** Sealed with `connectionKeyAad(id)`; null for an endpoint without a key (a local Ollama). */
  sealedKey: string | null;
  keyHint: string | null;
  /** Header name → value sealed with `connectionHeaderAad(id, name)`. */
  sealedHeaders: Record<string, string>;
  models: string[];
  modelsDiscoveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectionView {
  id: string;
  /** The team that holds it; null for the caller's own. */
  teamId: string | null;
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  hasKey: boolean;
  keyHint: string | null;
  /** The names of the extra headers; their values are never shown. */
  headerNames: string[];
  models: string[];
  modelsDiscoveredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toConnectionView = (c: Connection): ConnectionView => ({
  id: c.id,
  teamId: c.teamId,
  name: c.name,
  kind: c.kind,
  baseUrl: c.baseUrl,
  hasKey: c.sealedKey !== null,
  keyHint: c.keyHint,
  headerNames: Object.keys(c.sealedHeaders).sort(),
  models: c.models,
  modelsDiscoveredAt: c.modelsDiscoveredAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export const connectionKeyAad = (id: string): string => `connection-key:${id}`;
export const connectionHeaderAad = (id: string, name: string): string => `connection-header:${id}:${name}`;

/** How many models one connection keeps (an endpoint may list far more: the first ones are kept). */
export const MAX_CONNECTION_MODELS = 1_000;
export const MAX_CONNECTIONS_PER_OWNER = 50;
const MAX_HEADERS = 20;
const NAME = /^[a-z0-9][a-z0-9._-]{0,39}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;
/** Headers the platform sets itself (the key goes in `authorization`). */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'connection', 'transfer-encoding', 'authorization', 'cookie', 'te', 'upgrade', 'expect']);
const MODEL_ID = /^[\x21-\x7e][\x20-\x7e]{0,199}$/;

export interface ConnectionInput {
  name: string;
  kind: ConnectionKind;
  baseUrl: string;
  /** undefined: keep the stored key; null: remove it. */
  apiKey?: string | null;
  /** undefined: keep the stored headers; otherwise the whole new set. */
  headers?: Record<string, string>;
  /** Typed models; undefined keeps the stored (or discovered) list. */
  models?: string[];
}

/** Whether a model id may be used with a connection (printable, at most 200 characters). */
export const isConnectionModelId = (id: unknown): id is string => typeof id === 'string' && MODEL_ID.test(id);

/** The ids an endpoint listed, as a connection keeps them: well-formed, unique, at most MAX_CONNECTION_MODELS. */
export function keptModels(ids: Iterable<unknown>): string[] {
  const kept = new Set<string>();
  for (const id of ids) {
    if (kept.size >= MAX_CONNECTION_MODELS) break;
    if (isConnectionModelId(id)) kept.add(id);
  }
  return [...kept];
}

/** Validates a connection body (create: everything required; update: `partial`). */
export function validateConnectionInput(raw: unknown, partial = false): Partial<ConnectionInput> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError('The body must be a JSON object');
  const body = raw as Record<string, unknown>;
  const errors: ErrorDetail[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message: `${path} ${message}` });
  const out: Partial<ConnectionInput> = {};
  for (const key of Object.keys(body)) if (!['name', 'kind', 'baseUrl', 'apiKey', 'headers', 'models', ...(partial ? [] : ['teamId'])].includes(key)) fail(key, 'is not a connection field');

  if (body.name !== undefined || !partial) {
    if (typeof body.name !== 'string' || !NAME.test(body.name.trim())) fail('name', 'must be 1 to 40 lower-case letters, digits, dots, dashes or underscores, starting with a letter or digit');
    else if (isProviderId(body.name.trim())) fail('name', 'must not be the id of a built-in provider');
    else out.name = body.name.trim();
  }
  if (body.kind !== undefined || !partial) {
    const kind = body.kind ?? 'openai_compatible';
    if (!(CONNECTION_KINDS as readonly unknown[]).includes(kind)) fail('kind', `must be one of ${CONNECTION_KINDS.join(', ')}`);
    else out.kind = kind as ConnectionKind;
  }
  if (body.baseUrl !== undefined || !partial) {
    if (typeof body.baseUrl !== 'string' || body.baseUrl.trim() === '' || body.baseUrl.length > 2000) fail('baseUrl', 'must be a URL of at most 2000 characters');
    else {
      let parsed: URL | undefined;
      try {
        parsed = new URL(body.baseUrl.trim());
      } catch {
        fail('baseUrl', 'must be an absolute URL');
      }
      if (parsed) {
        if (parsed.username || parsed.password) fail('baseUrl', 'must not carry credentials (a user name or password): give the key as the connection key');
        else if (parsed.search || parsed.hash) fail('baseUrl', 'must not carry a query or a fragment');
        else out.baseUrl = parsed.toString().replace(/\/+$/, '');
      }
    }
  }
  if (body.apiKey !== undefined) {
    if (body.apiKey === null || body.apiKey === '') out.apiKey = null;
    else if (typeof body.apiKey !== 'string' || body.apiKey.length > 1000 || /[\r\n]/.test(body.apiKey)) fail('apiKey', 'must be a single-line string of at most 1000 characters');
    else out.apiKey = body.apiKey.trim();
  }
  if (body.headers !== undefined && body.headers !== null) {
    if (typeof body.headers !== 'object' || Array.isArray(body.headers)) fail('headers', 'must be an object of header names and values');
    else {
      const entries = Object.entries(body.headers as Record<string, unknown>);
      if (entries.length > MAX_HEADERS) fail('headers', `must hold at most ${MAX_HEADERS} headers`);
      const headers: Record<string, string> = {};
      for (const [name, value] of entries.slice(0, MAX_HEADERS)) {
        const lower = name.toLowerCase();
        if (!HEADER_NAME.test(name)) fail(`headers.${name.slice(0, 40)}`, 'is not a valid header name');
        else if (RESERVED_HEADERS.has(lower)) fail(`headers.${lower}`, 'is set by the platform itself');
        else if (typeof value !== 'string' || value.length > 4000 || /[\r\n\0]/.test(value)) fail(`headers.${lower}`, 'must be a single-line string of at most 4000 characters');
        else headers[lower] = value;
      }
      out.headers = headers;
    }
  } else if (body.headers === null) out.headers = {};
  if (body.models !== undefined && body.models !== null) {
    if (!Array.isArray(body.models) || body.models.length > MAX_CONNECTION_MODELS) fail('models', `must be a list of at most ${MAX_CONNECTION_MODELS} model ids`);
    else if (!body.models.every(isConnectionModelId)) fail('models', 'must hold model ids of printable characters, at most 200 each');
    else out.models = keptModels(body.models);
  }
  if (errors.length) throw new ValidationError(errors.map((e) => e.message).join('; '), errors);
  return out;
}

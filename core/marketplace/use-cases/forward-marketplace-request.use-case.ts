import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { isSemver } from '../domain/versions';
import type { CatalogRequest, CatalogResponse, MarketplaceCatalog } from '../ports/marketplace-catalog.port';

export interface ForwardInput {
  method: CatalogRequest['method'];
  /** The marketplace path with `:name` parameters (`/plugins/:id/reviews`). */
  template: string;
  params: Record<string, string>;
  /** The query as received; only `accepts` keys are forwarded, each checked. */
  query: Record<string, unknown>;
  accepts: readonly QueryKey[];
  body?: unknown;
  actor?: Actor;
}

export type QueryKey = 'page' | 'limit' | 'skip' | 'search' | 'category' | 'sort';

export const SORTS = ['popular', 'recent', 'rating'] as const;
const MAX_LIMIT = 100;
const CATEGORY = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * `/api/marketplace/*`: checks what the core can check (ids, versions, paging and sort), then forwards to
 * the marketplace with the acting user and answers its status and body. Paging follows SPEC 4.9 (page
 * from 1, limit 1-100, default 20); `search` is at most 200 characters and passed as text (the
 * marketplace binds it as a parameter, so `%`, `_` and quotes are plain characters).
 */
export class ForwardMarketplaceRequestUseCase {
  constructor(private readonly deps: { catalog: MarketplaceCatalog }) {}

  async execute(input: ForwardInput): Promise<CatalogResponse> {
    const path = input.template.replace(/:([A-Za-z]+)/g, (_m, name: string) => {
      const value = input.params[name] ?? '';
      if (name === 'version' ? !isSemver(value) : !isUuid(value)) throw new NotFoundError(name === 'version' ? 'Version' : 'Marketplace item');
      return encodeURIComponent(value);
    });
    const query = checkQuery(input.query, input.accepts);
    const res = await this.deps.catalog.forward({ method: input.method, path, query, body: input.body, actor: input.actor });
    return { status: res.status, body: res.status >= 400 ? errorBody(res) : res.body };
  }
}

export function checkQuery(raw: Record<string, unknown>, accepts: readonly QueryKey[]): Record<string, string> {
  const out: Record<string, string> = {};
  const details: { path: string; message: string }[] = [];
  for (const key of accepts) {
    if (!Object.hasOwn(raw, key) || raw[key] === undefined) continue;
    const value = raw[key];
    if (typeof value !== 'string') {
      details.push({ path: key, message: `${key} must be given once` });
      continue;
    }
    const bad = problem(key, value);
    if (bad) details.push({ path: key, message: bad });
    else out[key] = key === 'search' ? value.trim() : value;
  }
  if (details.length) throw new ValidationError(details.map((d) => d.message).join('; '), details);
  return out;
}

function problem(key: QueryKey, value: string): string | null {
  const int = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  switch (key) {
    case 'page':
      return int >= 1 ? null : 'page must be a whole number from 1';
    case 'limit':
      return int >= 1 && int <= MAX_LIMIT ? null : `limit must be a whole number from 1 to ${MAX_LIMIT}`;
    case 'skip':
      return int >= 0 ? null : 'skip must be a whole number from 0';
    case 'sort':
      return (SORTS as readonly string[]).includes(value) ? null : `sort must be one of ${SORTS.join(', ')}`;
    case 'category':
      return CATEGORY.test(value) ? null : 'category must be a category slug';
    case 'search':
      return value.length <= 200 ? null : 'search must be at most 200 characters';
  }
}

const PHRASES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests' };

/** The marketplace's error body when it has the one shape, else one built from its status. */
function errorBody(res: CatalogResponse): unknown {
  const b = res.body as { statusCode?: unknown; message?: unknown; error?: unknown } | null;
  if (b && typeof b === 'object' && b.statusCode === res.status && typeof b.message === 'string' && typeof b.error === 'string') return b;
  return { statusCode: res.status, message: typeof b?.message === 'string' ? b.message : `The marketplace answered ${res.status}`, error: PHRASES[res.status] ?? 'Error' };
}

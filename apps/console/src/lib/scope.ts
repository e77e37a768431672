import { hashKey, type QueryKey } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

/**
 * The personal/team context the console's lists follow (CONSOLE.md: "lists follow the API's `?teamId=`").
 * `all`: no filter (your own and your teams' resources), `personal`: only your own, else a team's id.
 * Kept in memory and in this tab's sessionStorage (a team id, not a secret), so a reload keeps the choice.
 */
export type Scope = 'all' | 'personal' | (string & {});

const STORAGE_KEY = 'ap-scope';
const listeners = new Set<() => void>();
let current: Scope = read();

function read(): Scope {
  try {
    return (typeof sessionStorage !== 'undefined' && sessionStorage.getItem(STORAGE_KEY)) || 'all';
  } catch {
    return 'all';
  }
}

export const scope = {
  get: (): Scope => current,
  set(next: Scope): void {
    if (next === current) return;
    current = next;
    try {
      if (next === 'all') sessionStorage.removeItem(STORAGE_KEY);
      else sessionStorage.setItem(STORAGE_KEY, next);
    } catch {
      // storage refused: the choice lives in memory only
    }
    for (const listener of listeners) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** The current scope, re-rendering on change. */
export function useScope(): Scope {
  return useSyncExternalStore(scope.subscribe, scope.get, scope.get);
}

/**
 * The list operations that take `?teamId=` (from the OpenAPI documents): the API client adds the scope to
 * these GETs, so every area's lists follow the switcher without knowing of it.
 */
const SCOPED_LISTS = new Set(['/api/applications', '/api/api-keys', '/api/conversations', '/api/custom-domains', '/api/webhooks', '/api/workflows']);
const SCOPED_PREFIXES = ['/api/analytics/'];

/** Whether a request's schema path is a scoped list. */
export function isScopedList(method: string, schemaPath: string): boolean {
  return method === 'GET' && (SCOPED_LISTS.has(schemaPath) || SCOPED_PREFIXES.some((p) => schemaPath.startsWith(p)));
}

/** The request with the scope's `teamId` added, unless it is `all` or the caller named one itself. */
export function withScope(request: Request): Request {
  if (current === 'all') return request;
  const url = new URL(request.url);
  if (url.searchParams.has('teamId')) return request;
  url.searchParams.set('teamId', current);
  return new Request(url, request);
}

/** TanStack Query's key hash with the scope in it: every cached list is per context, and switching refetches. */
export function scopedQueryKeyHash(queryKey: QueryKey): string {
  return hashKey([{ scope: current }, ...queryKey]);
}

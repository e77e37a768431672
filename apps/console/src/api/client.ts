import createClient from 'openapi-fetch';
import { ApiError, NetworkError, toApiError } from '../lib/errors';
import { isScopedList, withScope } from '../lib/scope';
import { Session } from '../lib/session';
import type { paths } from './schema';

/** The one session of the page (the access token lives only here, in memory). */
export const session = new Session();

/**
 * The one typed client of the console: paths, parameters and bodies typed from the core API's OpenAPI
 * document (`schema.d.ts`), every call through the session (bearer token, one silent refresh on 401).
 */
export const api = createClient<paths>({
  baseUrl: typeof window === 'undefined' ? 'http://localhost' : window.location.origin,
  fetch: async (request) => {
    try {
      return await session.fetch(request);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new NetworkError('The platform could not be reached');
    }
  },
});

// The personal/team switcher's scope on every list that takes `?teamId=` (lib/scope.ts).
api.use({ onRequest: ({ request, schemaPath }) => (isScopedList(request.method, schemaPath) ? withScope(request) : undefined) });

/**
 * Unwraps an openapi-fetch answer for TanStack Query: the data, or the API's error thrown as an ApiError.
 * `await data(api.GET('/api/applications'))`.
 */
export async function data<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data: body, error, response } = await call;
  if (!response.ok) throw toApiError(response.status, error);
  return body as T;
}

export { ApiError };

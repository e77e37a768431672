import { parse as parseSetCookie } from 'set-cookie-parser';

/**
 * `fetch` that keeps cookies like a browser tab does (name, path, expiry), for running the console's
 * session logic in Node against the real API. `cookies` shows what the jar holds.
 */
export function cookieJarFetch(): { fetch: (request: Request) => Promise<Response>; cookies: Map<string, { value: string; path: string }> } {
  const cookies = new Map<string, { value: string; path: string }>();
  return {
    cookies,
    async fetch(request: Request) {
      const path = new URL(request.url).pathname;
      const sent = [...cookies].filter(([, c]) => path === c.path || path.startsWith(`${c.path}/`)).map(([name, c]) => `${name}=${c.value}`);
      if (sent.length) request.headers.set('Cookie', sent.join('; '));
      const response = await fetch(request);
      for (const cookie of parseSetCookie(response.headers.getSetCookie())) {
        const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now()) || cookie.value === '';
        if (expired) cookies.delete(cookie.name);
        else cookies.set(cookie.name, { value: cookie.value, path: cookie.path ?? '/' });
      }
      return response;
    },
  };
}

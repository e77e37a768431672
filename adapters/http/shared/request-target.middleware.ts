import type { Context, Next } from 'koa';
import { ValidationError } from '../../../core/shared/errors';
import { canonicalId } from '../../../core/shared/ids';
import { stringProblem } from './untrusted-input';

/**
 * Where every path and query string enters, before routing, on every app:
 * - a path segment or query value that spells a UUID (in any case, percent-encoded or not) is
 *   rewritten to its canonical lower-case form, so every router, use case and cache sees one spelling of an id
 *   (a cache keyed by the id as typed once kept a deleted record readable under another spelling);
 * - NUL or ill-formed text in the path or a query value is a 400, as in bodies.
 */
export async function requestTargetMiddleware(ctx: Context, next: Next): Promise<void> {
  const path = ctx.path;
  let changed = false;
  const segments = path.split('/').map((segment) => {
    if (segment.length < 36) return segment; // the shortest spelling of a UUID
    const decoded = decodeSegment(segment);
    const id = decoded === undefined ? undefined : canonicalId(decoded);
    if (id === undefined || id === segment) return segment;
    changed = true;
    return id;
  });
  if (changed) ctx.path = segments.join('/');
  const decodedPath = decodeSegment(ctx.path);
  const pathProblem = decodedPath === undefined ? undefined : stringProblem(decodedPath);
  if (pathProblem) throw ValidationError.field('path', `The request path ${pathProblem}`);
  if (ctx.querystring === '') return next();
  const query = ctx.query;
  let queryChanged = false;
  for (const [name, value] of Object.entries(query)) {
    for (const text of [name, ...(Array.isArray(value) ? value : [value ?? ''])]) {
      const problem = stringProblem(text);
      if (problem) throw ValidationError.field('query', `Query parameters ${problem}`);
    }
    const canonical = Array.isArray(value) ? value.map(canonicalText) : canonicalText(value ?? '');
    if (String(canonical) !== String(value)) {
      query[name] = canonical;
      queryChanged = true;
    }
  }
  if (queryChanged) ctx.query = query;
  return next();
}

const canonicalText = (text: string): string => (text.length === 36 ? (canonicalId(text) ?? text) : text);

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined; // malformed escapes: the router leaves them as sent, and no id matches them
  }
}

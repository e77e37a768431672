import secureJson from 'secure-json-parse';
import { ValidationError } from '../../../core/shared/errors';

/** ES2024's String.prototype.isWellFormed (Node 20 has it; the compiler's lib is ES2023). */
type WellFormedCheck = string & { isWellFormed(): boolean };

/** Deeper than any body of this API nests (a few levels); far short of what would exhaust a recursive walker. */
export const MAX_JSON_DEPTH = 32;

/**
 * Names an object must not carry: a key like `constructor` or `__proto__` in a body reaches code that
 * looks keys up on ordinary objects (validators, spreads, `in` checks) and finds `Object.prototype`'s
 * member instead of the client's value. No field of this API is named so, so such keys are refused.
 */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Why a string cannot be accepted, or undefined. NUL cannot be stored in PostgreSQL text and is never
 * meaningful in this API; a lone surrogate is not Unicode (PostgreSQL refuses it in JSON, and it cannot
 * be encoded as UTF-8 for a provider).
 */
export function stringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (!(value as WellFormedCheck).isWellFormed()) return 'must be well-formed Unicode (no lone surrogates)';
  return undefined;
}

/**
 * Parses a JSON request body into plain data or throws a ValidationError (400): malformed JSON,
 * `__proto__`/`constructor.prototype` keys (refused by secure-json-parse, never assigned), any
 * other key that names an `Object.prototype` member, nesting deeper than MAX_JSON_DEPTH, NUL or
 * ill-formed strings (keys included), and a top level that is not an object.
 */
export function parseJsonBody(text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype/i.test(error.message)) {
      throw ValidationError.field('', 'Request body must not contain __proto__ or constructor.prototype keys');
    }
    throw new ValidationError('Request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ValidationError('Request body must be a JSON object');
  }
  checkPlainData(parsed);
  return parsed as Record<string, unknown>;
}

/**
 * Walks parsed JSON without recursion (so depth alone cannot exhaust the stack) and refuses what
 * no handler should see. Paths in the error name where the problem is, as validation details do.
 */
export function checkPlainData(root: unknown, maxDepth = MAX_JSON_DEPTH): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) throw ValidationError.field(path, `${path || 'body'} ${problem}`);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxDepth) throw ValidationError.field(path, `Request body nests deeper than ${maxDepth} levels`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push({ value: value[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(value)) {
      const at = path ? `${path}.${shown(key)}` : shown(key);
      if (PROTOTYPE_KEYS.has(key)) throw ValidationError.field(at, `"${key}" is not an accepted field name`);
      const problem = stringProblem(key);
      if (problem) throw ValidationError.field(path, `field names ${problem}`);
      stack.push({ value: (value as Record<string, unknown>)[key], path: at, depth: depth + 1 });
    }
  }
}

/** Keys are the client's text: named in errors, but never at length. */
const shown = (key: string): string => (key.length > 64 ? `${key.slice(0, 64)}…` : key);

/**
 * Variable references in step fields: `{{input.<path>}}` (the run's input) and
 * `{{steps.<id>.output.<path>}}` (an earlier step's output). A path is names or indexes joined by dots.
 * A field that is exactly one reference takes the referenced JSON value; inside longer text the value is
 * written as text (objects and arrays as JSON).
 */
export interface Reference {
  text: string;
  root: 'input' | 'steps' | 'secrets';
  stepId?: string;
  /** For `{{secrets.NAME}}` (allowed in `http` headers only). */
  secret?: string;
  path: string[];
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const SEGMENT = /^[A-Za-z0-9_-]{1,100}$/;

export class ReferenceError extends Error {}

function parse(expr: string): Reference {
  const parts = expr.split('.');
  for (const part of parts) if (!SEGMENT.test(part)) throw new ReferenceError(`{{${expr}}} is not a reference (use {{input.<path>}} or {{steps.<id>.output.<path>}})`);
  if (parts[0] === 'input') return { text: expr, root: 'input', path: parts.slice(1) };
  if (parts[0] === 'secrets' && parts.length === 2) return { text: expr, root: 'secrets', secret: parts[1], path: [] };
  if (parts[0] === 'steps' && parts.length >= 3 && parts[2] === 'output') return { text: expr, root: 'steps', stepId: parts[1], path: parts.slice(3) };
  throw new ReferenceError(`{{${expr}}} is not a reference (use {{input.<path>}} or {{steps.<id>.output.<path>}})`);
}

/** The references a text holds; throws a ReferenceError for a malformed one. */
export function referencesIn(text: string): Reference[] {
  const found: Reference[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) found.push(parse(m[1]!));
  return found;
}

/** What references are read from: the run's input and the outputs of the steps that ran. */
export interface RunScope {
  input: unknown;
  outputs: Record<string, unknown>;
  /** The workflow's secrets, opened only for the fields that may read them (`http` headers). */
  secrets?: Record<string, string>;
}

const MISSING = Symbol('missing');

function lookup(scope: RunScope, ref: Reference): unknown {
  let value: unknown;
  if (ref.root === 'secrets') return scope.secrets && Object.hasOwn(scope.secrets, ref.secret!) ? scope.secrets[ref.secret!] : MISSING;
  if (ref.root === 'input') value = scope.input;
  else {
    if (!Object.hasOwn(scope.outputs, ref.stepId!)) return MISSING;
    value = scope.outputs[ref.stepId!];
  }
  for (const key of ref.path) {
    if (Array.isArray(value) && /^\d+$/.test(key)) value = value[Number(key)];
    else if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)) value = (value as Record<string, unknown>)[key];
    else return MISSING;
    if (value === undefined) return MISSING;
  }
  return value;
}

/** Whether the reference has a value in this scope (rendering it would not fail). */
export const hasValue = (scope: RunScope, ref: Reference): boolean => lookup(scope, ref) !== MISSING;

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Renders one text; a reference without a value (a step that did not run on this path) is an error naming it. */
export function renderText(text: string, scope: RunScope): string {
  return text.replace(PLACEHOLDER, (_whole, expr: string) => {
    const value = lookup(scope, parse(expr.trim()));
    if (value === MISSING) throw new ReferenceError(`{{${expr.trim()}}} has no value in this run`);
    return asText(value);
  });
}

/** Renders every string of a JSON value; a string that is one whole reference becomes the referenced value. */
export function renderValue(value: unknown, scope: RunScope): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(value);
    if (whole) {
      const found = lookup(scope, parse(whole[1]!.trim()));
      if (found === MISSING) throw new ReferenceError(`{{${whole[1]!.trim()}}} has no value in this run`);
      return found;
    }
    return renderText(value, scope);
  }
  if (Array.isArray(value)) return value.map((v) => renderValue(v, scope));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: renderValue(v, scope), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

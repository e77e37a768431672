import fc from 'fast-check';
import { randomUUID } from 'node:crypto';

/** The part of an OpenAPI schema the generators read. */
export interface Shape {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Shape>;
  required?: string[];
  enum?: unknown[];
  items?: Shape;
}

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  security: string[];
  body?: { kind: 'json' | 'form'; shape: Shape };
  /** Media types its documented error answers use besides JSON (a page's 404 is an HTML page). */
  errorMediaTypes: string[];
}

/** The owner the requests act for, and the resources they own. */
export interface Owned {
  userId: string;
  email: string;
  token: string;
  apiKey: string;
  serviceToken: string;
  ids: Record<'application' | 'slug' | 'config' | 'version' | 'prompt' | 'conversation' | 'message' | 'document' | 'upload' | 'apiKey' | 'teamSlug', string>;
  /** The marketplace service's items the requests may reach (a published plugin and theme). */
  marketplace?: { token: string; plugin: string; theme: string };
}

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'];

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

/** Strings no handler should choke on: NUL, lone surrogates, control and bidi characters, huge, id look-alikes. */
const hostileString = fc.oneof(
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\udc00x', 'x\ud800', '\ud83d', '\u202e\u2066', '\r\n\t', '%00', '%E0%A4%A', '../../etc/passwd', "'; DROP TABLE users; --", '<script>alert(1)</script>', '{{name}}', 'null', '1e309', '-1'),
  // Near misses of the formats fields hold (versions, ranges, dates, times), where a parser may throw past its validation.
  fc.constantFrom('x', '1.0', '01.0.0', '1.0.0-', '99999999999999999999.0.0', '>=1.0.0', '^1.2', '1.x', '2026-02-30', '25:61', '* * *'),
  fc.constantFrom(...PROTOTYPE_NAMES),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1_000, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.constant(randomUUID().toUpperCase()),
);

/** Any JSON value a client might send where something else was expected. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, [], {}, [null], [[[]]]),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 20, max: 200 }).map((depth) => nested(depth)),
  fc.constantFrom(...PROTOTYPE_NAMES).map((key) => ({ [key]: { polluted: 1 } })),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), hostileString, { maxKeys: 4 }),
);

/** A plausible value for a field, from its name and type, using the owner's real ids; an object gets its properties. */
function plausible(name: string, shape: Shape, owned: Owned): unknown {
  if (shape.enum?.length) return shape.enum[0];
  if (shape.properties && typeOf(shape) === 'object') return Object.fromEntries(Object.entries(shape.properties).map(([n, s]) => [n, plausible(n, s, owned)]));
  const ids: Record<string, string> = {
    applicationId: owned.ids.application,
    templateId: owned.ids.prompt,
    conversationId: owned.ids.conversation,
    configVersionId: owned.ids.version,
    apiKeyId: owned.ids.apiKey,
    documentId: owned.ids.document,
  };
  if (ids[name]) return ids[name];
  if (/provider/i.test(name)) return 'provider_a';
  if (/^model(Id)?$/.test(name)) return 'gpt-4o-mini';
  if (/email/i.test(name)) return owned.email;
  // Never the owner's real password: a hostile request must not be able to change or delete the account.
  if (/password/i.test(name)) return 'not the password 123';
  if (/^(content|message)$/.test(name)) return 'hello';
  switch (typeOf(shape)) {
    case 'integer':
    case 'number':
      return 50;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'text';
  }
}

const typeOf = (shape: Shape): string | undefined => (Array.isArray(shape.type) ? shape.type.find((t) => t !== 'null') : shape.type);

/** A step of a field's path: a property's name, or the index of an item of a list. */
type PathStep = string | number;

/** How deep the paths go (the documents' deepest objects are four levels down; a schema that nests itself stops here). */
const MAX_PATH_DEPTH = 6;

/**
 * The fields of a body below its own: each property of an object field, at every depth, and the properties
 * of a list's object items (`steps[0].kind`), e.g. `attributeMapping.displayName` or
 * `applications[0].modelConfigs[0].name`, where a validation past the first level can still throw.
 */
function nestedPaths(shape: Shape, at: PathStep[] = []): PathStep[][] {
  if (at.length >= MAX_PATH_DEPTH) return [];
  if (typeOf(shape) === 'array' && at.length && shape.items) return nestedPaths(shape.items, [...at, 0]);
  if (!shape.properties || typeOf(shape) !== 'object') return [];
  return Object.entries(shape.properties).flatMap(([name, field]) => [...(at.length ? [[...at, name]] : []), ...nestedPaths(field, [...at, name])]);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A copy of `container` with `value` at `path`, the objects and lists on the way copied; one missing on the
 * way is made plausible from its shape (a list gets one plausible item), so that only the value is wrong.
 */
function withValueAt(container: unknown, path: PathStep[], value: unknown, shape: Shape | undefined, owned: Owned): unknown {
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const items = Array.isArray(container) ? [...(container as unknown[])] : [];
    const itemShape = shape?.items;
    items[head] = rest.length ? withValueAt(items[head] ?? (itemShape ? plausible('', itemShape, owned) : {}), rest, value, itemShape, owned) : value;
    return items;
  }
  const object = isPlainObject(container) ? container : {};
  const field = shape?.properties?.[head!];
  const inner = object[head!] ?? (field && rest.length ? plausible(head!, field, owned) : undefined);
  return { ...object, [head!]: rest.length ? withValueAt(inner, rest, value, field, owned) : value };
}

/** A valid-looking body for the shape, then one hostile change to it (or a hostile body outright). */
export function mutateBody(body: NonNullable<Operation['body']>, owned: Owned): fc.Arbitrary<unknown> {
  const properties = body.shape.properties ?? {};
  const names = Object.keys(properties);
  const base = (): Record<string, unknown> => Object.fromEntries(names.map((n) => [n, plausible(n, properties[n]!, owned)]));
  const fieldName = names.length ? fc.oneof(fc.constantFrom(...names), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 12 })) : fc.string({ maxLength: 12 });
  const nested = nestedPaths(body.shape);
  const fieldPath: fc.Arbitrary<PathStep[]> = nested.length ? fc.oneof(fieldName.map((name) => [name]), fc.constantFrom(...nested)) : fieldName.map((name) => [name]);
  if (body.kind === 'form') {
    return fc
      .record({ name: fc.oneof(fieldName, fc.constant('applicationId')), value: fc.oneof(hostileString, fc.constant(owned.ids.application.toUpperCase())) })
      .map(({ name, value }) => ({ form: { ...Object.fromEntries(names.filter((n) => n !== 'file').map((n) => [n, String(plausible(n, properties[n]!, owned))])), [name]: value } }));
  }
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(null).map(() => base()) },
    { weight: 5, arbitrary: fc.tuple(fieldPath, hostileValue).map(([path, value]) => withValueAt(base(), path, value, body.shape, owned)) },
    { weight: 2, arbitrary: names.length ? fc.constantFrom(...names).map((name) => ({ ...base(), [name]: undefined })) : fc.constant({}) },
    {
      // A prototype-named key one level down, written as text (a JS object literal would not keep `__proto__`).
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...(names.length ? names : ['x'])), fc.constantFrom(...PROTOTYPE_NAMES), hostileValue).map(([name, key, value]) => {
        const rest = JSON.stringify({ ...base(), [name]: undefined }).slice(1, -1);
        return { raw: `{${rest}${rest ? ',' : ''}${JSON.stringify(name)}:{${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}}` };
      }),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        { raw: 'true' },
        { raw: '0' },
        { raw: '""' },
        { raw: 'null' },
        { raw: '[]' },
        { raw: '[{}]' },
        { raw: '{' },
        { raw: '{"a":1,}' },
        { raw: '{"__proto__":{"polluted":1}}' },
        { raw: '{"constructor":{"prototype":{"polluted":1}}}' },
        { raw: '{"a":"\\u0000"}' },
        { raw: '{"a":"\\udc00"}' },
        { raw: '{"a\\u0000":1}' },
        { raw: `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}` },
      ),
    },
  );
}

/** A path parameter: the owner's real id (for operations that would not destroy it), another spelling, or junk. */
export function pathIdFor(op: Operation, name: string, owned: Owned, destructive: boolean): fc.Arbitrary<string> {
  const real = realIdFor(op, name, owned);
  const junk = fc.oneof(
    fc.constantFrom('__proto__', 'constructor', 'toString', 'null', 'undefined', '0', '-1', '%00', 'a%00b', '%E0%A4%A', '%ZZ', '%2e%2e', 'x'.repeat(5_000)),
    fc.constant(randomUUID()),
    fc.constant(randomUUID().replace(/-/g, '')),
    fc.constant(`${randomUUID()}-`),
    fc.constant(randomUUID().replace(/[0-9]/, 'g')),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  );
  if (real === undefined) return junk;
  const isId = /^[0-9a-f-]{36}$/.test(real);
  if (destructive) return junk; // never the real resource: a success would remove what later requests use
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(real) },
    { weight: 2, arbitrary: fc.constant(isId ? real.toUpperCase() : real) },
    { weight: 5, arbitrary: junk },
  );
}

function realIdFor(op: Operation, name: string, owned: Owned): string | undefined {
  const { ids } = owned;
  if (op.path.startsWith('/marketplace/')) {
    if (name === 'version') return '1.0.0';
    if (name === 'userId') return owned.userId;
    return op.path.startsWith('/marketplace/themes/') || op.path.includes('/admin/themes/') ? owned.marketplace?.theme : owned.marketplace?.plugin;
  }
  if (name === 'provider') return 'provider_a';
  if (name === 'asset') return 'swagger-ui.css';
  if (name === 'slug') return ids.slug;
  if (name === 'teamSlug') return ids.teamSlug;
  if (name === 'appId') return ids.application;
  if (name === 'configId') return ids.config;
  if (name === 'versionId') return ids.version;
  if (name === 'messageId') return ids.message;
  const area = op.path.split('/')[2] === 'ai' || op.path.startsWith('/api/v1/') ? 'conversations' : op.path.split('/')[2];
  const byArea: Record<string, string> = {
    applications: ids.application,
    'model-configs': ids.config,
    prompts: ids.prompt,
    conversations: ids.conversation,
    knowledge: ids.document,
    uploads: ids.upload,
    'api-keys': ids.apiKey,
    admin: owned.userId,
  };
  return byArea[area ?? ''];
}

/** A query string: the operation's parameters with plausible or hostile values, sometimes extra ones. */
export function queryFor(op: Operation, owned: Owned): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom('1', '20', owned.ids.application, owned.ids.application.toUpperCase(), 'kettle'),
    fc.constantFrom('0', '-1', '1.5', '1e309', 'NaN', '', '%00', 'a%00', '%E0%A4%A', '__proto__', 'x'.repeat(3_000), '9'.repeat(40)),
    fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  );
  const names = [...op.queryParams, '__proto__', 'constructor', 'page[]', 'limit[a]', 'x%00'];
  return fc
    .array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 4 })
    .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));
}

/** Values of the wrong type (or refused text) that every declared field receives once, in turn. */
const WRONG_FOR_EVERY_FIELD: unknown[] = [0, true, null, [], { a: 1 }, 'a\u0000b', '\udc00x'];
/** Fewer for the properties of object fields at every depth (there are many), text that is no format among them. */
const WRONG_FOR_EVERY_NESTED_FIELD: unknown[] = [0, null, { a: 1 }, 'x'];

/**
 * The systematic part next to the random one: each declared field of the body (and each property of an
 * object field), in turn, set to each wrong value above while the rest of the body stays plausible.
 */
export function everyFieldWrong(body: NonNullable<Operation['body']>, owned: Owned): unknown[] {
  const properties = body.shape.properties ?? {};
  const names = Object.keys(properties).filter((n) => n !== 'file');
  const base = () => Object.fromEntries(names.map((n) => [n, plausible(n, properties[n]!, owned)]));
  if (body.kind === 'form') {
    return names.flatMap((name) => ['a\u0000b', '\udc00x', owned.ids.application.toUpperCase()].map((value) => ({ form: { ...stringValues(base()), [name]: value } })));
  }
  return [
    ...names.flatMap((name) => WRONG_FOR_EVERY_FIELD.map((value) => ({ ...base(), [name]: value }))),
    ...nestedPaths(body.shape).flatMap((path) => WRONG_FOR_EVERY_NESTED_FIELD.map((value) => withValueAt(base(), path, value, body.shape, owned))),
  ];
}

const stringValues = (o: Record<string, unknown>): Record<string, string> => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));

/** The path id the systematic examples use: the real resource, unless the operation would destroy it. */
export function exampleIdFor(op: Operation, name: string, owned: Owned, destructive: boolean): string {
  const real = realIdFor(op, name, owned);
  return real === undefined || destructive ? randomUUID() : real;
}

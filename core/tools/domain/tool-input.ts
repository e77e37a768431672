import { ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { urlProblemOf, type OutboundUrlRules } from '../../shared/outbound-url-rules.port';
import type { JsonSchemaChecker } from '../ports/json-schema.port';
import { BUILTINS, HTTP_METHODS, MAX_SCHEMA_BYTES, type HttpToolMethod, type JsonObject, type ToolSource } from './tool';

const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const MAX_SECRETS = 20;
const MAX_SECRET_LENGTH = 4096;
const MAX_HEADERS = 20;
const MAX_URL = 2048;
const ARG_PLACEHOLDER = /\{\{\s*args\.([A-Za-z0-9_-]{1,64})\s*\}\}/g;
const SECRET_PLACEHOLDER = /\{\{\s*secrets\.([A-Za-z][A-Za-z0-9_]{0,63})\s*\}\}/g;
/** Headers the platform sets itself or that would let a tool pose as the platform's caller. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'cookie', 'x-api-key']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The arguments' JSON Schema: an object schema, valid for the kept validator, at most 16 KB. */
export function parseParameters(raw: unknown, checker: JsonSchemaChecker): JsonObject {
  if (raw === undefined) return { type: 'object', properties: {} };
  if (!isObject(raw)) throw ValidationError.field('parameters', 'parameters must be a JSON Schema object');
  if (raw.type !== 'object') throw ValidationError.field('parameters.type', 'parameters must describe an object ("type": "object")');
  if (Buffer.byteLength(JSON.stringify(raw)) > MAX_SCHEMA_BYTES) throw ValidationError.field('parameters', `parameters must be at most ${MAX_SCHEMA_BYTES / 1024} KB of JSON`);
  const problem = checker.problemWithSchema(raw);
  if (problem) throw ValidationError.field('parameters', `parameters is not a valid JSON Schema: ${problem}`);
  return raw;
}

/** A tool's source (http or built-in), checked whole; `secretNames` are those the tool will hold. */
export function parseSource(raw: unknown, secretNames: string[]): ToolSource {
  if (!isObject(raw)) throw ValidationError.field('source', 'source must be an object with a type');
  if (raw.type === 'http') return parseHttpSource(raw, secretNames);
  if (raw.type === 'builtin') {
    if (raw.builtin === 'search_knowledge') return { type: 'builtin', builtin: 'search_knowledge' };
    if (raw.builtin === 'run_workflow') {
      if (!isUuid(typeof raw.workflowId === 'string' ? raw.workflowId.toLowerCase() : raw.workflowId)) {
        throw ValidationError.field('source.workflowId', 'source.workflowId must be the id of a workflow of this application');
      }
      return { type: 'builtin', builtin: 'run_workflow', workflowId: (raw.workflowId as string).toLowerCase() };
    }
    throw ValidationError.field('source.builtin', `source.builtin must be one of ${BUILTINS.join(', ')}`);
  }
  throw ValidationError.field('source.type', 'source.type must be one of http, builtin');
}

function parseHttpSource(raw: Record<string, unknown>, secretNames: string[]): ToolSource {
  const method = raw.method === undefined ? 'POST' : raw.method;
  if (typeof method !== 'string' || !(HTTP_METHODS as readonly string[]).includes(method)) {
    throw ValidationError.field('source.method', `source.method must be one of ${HTTP_METHODS.join(', ')}`);
  }
  if (typeof raw.url !== 'string' || raw.url.length > MAX_URL) throw ValidationError.field('source.url', `source.url must be a URL of at most ${MAX_URL} characters`);
  const url = raw.url.trim();
  // Arguments may fill the path and the query, never the scheme, credentials or host.
  const probe = url.replace(ARG_PLACEHOLDER, 'x');
  // The scheme, credentials and addresses are the outbound rules' (checkHttpTarget), the call's own.
  if (!URL.canParse(probe)) throw ValidationError.field('source.url', 'source.url must be an absolute URL');
  const authority = url.slice(url.indexOf('//') + 2).split(/[/?#]/)[0] ?? '';
  if (authority.includes('{{')) throw ValidationError.field('source.url', 'arguments may fill the path and query of source.url, never its host');
  if (/\{\{(?!\s*args\.)/.test(url)) throw ValidationError.field('source.url', 'source.url may hold only {{args.NAME}} placeholders');

  const headers = parseHeaders(raw.headers, secretNames, 'source.headers');
  const allowedHosts: string[] = [];
  if (raw.allowedHosts !== undefined) {
    if (!Array.isArray(raw.allowedHosts) || raw.allowedHosts.length > 20) throw ValidationError.field('source.allowedHosts', 'source.allowedHosts must be a list of at most 20 host names');
    for (const host of raw.allowedHosts) {
      if (typeof host !== 'string' || !/^[a-z0-9.-]{1,253}$/i.test(host)) throw ValidationError.field('source.allowedHosts', 'source.allowedHosts must hold host names');
      allowedHosts.push(host.toLowerCase());
    }
  }
  return { type: 'http', method: method as HttpToolMethod, url, headers, allowedHosts };
}

/** Header names and values of an http tool or MCP server: single lines, no reserved names, `{{secrets.NAME}}` of held secrets only. */
export function parseHeaders(raw: unknown, secretNames: string[], field: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (raw === undefined) return headers;
  if (!isObject(raw)) throw ValidationError.field(field, `${field} must be an object of names and values`);
  const entries = Object.entries(raw);
  if (entries.length > MAX_HEADERS) throw ValidationError.field(field, `${field} holds at most ${MAX_HEADERS} headers`);
  for (const [name, value] of entries) {
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(name.toLowerCase())) throw ValidationError.field(`${field}.${name.slice(0, 64)}`, `"${name.slice(0, 64)}" may not be set as a header`);
    if (typeof value !== 'string' || value.length > 4096 || /[\r\n\0]/.test(value)) throw ValidationError.field(`${field}.${name}`, `header ${name} must be a single-line text`);
    for (const m of value.matchAll(SECRET_PLACEHOLDER)) {
      if (!secretNames.includes(m[1]!)) throw ValidationError.field(`${field}.${name}`, `header ${name} names the secret ${m[1]}, which is not held`);
    }
    if (/\{\{(?!\s*secrets\.)/.test(value)) throw ValidationError.field(`${field}.${name}`, `header ${name} may hold only {{secrets.NAME}} placeholders`);
    headers[name] = value;
  }
  return headers;
}

/** `secrets` of a create or change: name → value, or (changes only) null to remove it. Values are never echoed. */
export function parseToolSecrets(raw: unknown, allowRemoval: boolean): { set: Record<string, string>; remove: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  if (raw === undefined) return { set, remove };
  if (!isObject(raw)) throw ValidationError.field('secrets', 'secrets must be an object of names and values');
  const entries = Object.entries(raw);
  if (entries.length > MAX_SECRETS) throw ValidationError.field('secrets', `a tool holds at most ${MAX_SECRETS} secrets`);
  for (const [name, value] of entries) {
    if (!SECRET_NAME.test(name)) throw ValidationError.field(`secrets.${name.slice(0, 64)}`, 'secret names start with a letter and hold up to 64 letters, digits or _');
    if (value === null && allowRemoval) remove.push(name);
    else if (typeof value !== 'string' || value === '' || value.length > MAX_SECRET_LENGTH || /[\r\n\0]/.test(value)) {
      throw ValidationError.field(`secrets.${name}`, `secret ${name} must be a single-line text of 1 to ${MAX_SECRET_LENGTH} characters${allowRemoval ? ', or null to remove it' : ''}`);
    } else set[name] = value;
  }
  return { set, remove };
}

type HttpSource = Extract<ToolSource, { type: 'http' }>;

/**
 * The host of an http tool's filled URL when the tool may not reach it (not among its `allowedHosts`, or not
 * the URL's own host when that list is empty), or null. The call refuses such a host; the save does too.
 */
export function hostNotAllowed(source: HttpSource, url: URL): string | null {
  const allowed = source.allowedHosts.length ? source.allowedHosts : [new URL(fillUrl(source.url, {})).hostname.toLowerCase()];
  return allowed.includes(url.hostname.toLowerCase()) ? null : url.hostname;
}

/**
 * What a call of an http tool would refuse, refused at save with the reason: the outbound rules (scheme,
 * credentials, every address of the host, the operator's settings) and the tool's allowed hosts.
 */
export async function checkHttpTarget(rules: OutboundUrlRules, source: ToolSource): Promise<void> {
  if (source.type !== 'http') return;
  const url = fillUrl(source.url, {});
  const problem = await rules.problemWith(url);
  if (problem) throw ValidationError.field('source.url', urlProblemOf(problem, 'source.url'));
  const host = hostNotAllowed(source, new URL(url));
  if (host) throw ValidationError.field('source.allowedHosts', `source.allowedHosts does not hold ${host}, the host of source.url, so every call would be refused: add it or leave the list empty`);
}

/** Fills `{{args.NAME}}` in an http tool's URL, each value URL-encoded (missing ones empty). */
export function fillUrl(template: string, args: Record<string, unknown>): string {
  return template.replace(ARG_PLACEHOLDER, (_m, name: string) => {
    const value = Object.hasOwn(args, name) ? args[name] : '';
    return encodeURIComponent(typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));
  });
}

/** Fills `{{secrets.NAME}}` in header values from the opened secrets. */
export function fillHeaders(headers: Record<string, string>, secrets: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, value.replace(SECRET_PLACEHOLDER, (_m, s: string) => (Object.hasOwn(secrets, s) ? secrets[s]! : ''))]),
  );
}

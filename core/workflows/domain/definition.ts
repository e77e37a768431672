import { isEventType, type EventType } from '../../events/domain/domain-event';
import { ValidationError } from '../../shared/errors';
import { referencesIn } from './references';

export const STEP_KINDS = ['llm', 'knowledge', 'http', 'template', 'condition', 'plugin', 'webhook', 'wait'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Retries of a failing step: `attempts` runs in all, waiting `backoffMs`, then twice as long each time. */
export interface StepRetry {
  attempts: number;
  backoffMs: number;
}

interface StepBase {
  id: string;
  kind: StepKind;
  /** The step that follows; absent: the next one in the list; null: the run ends here. */
  next?: string | null;
  retry?: StepRetry;
}

export interface LlmStep extends StepBase {
  kind: 'llm';
  prompt: string;
  provider?: string;
  model?: string;
  settings?: Record<string, unknown>;
}
export interface KnowledgeStep extends StepBase {
  kind: 'knowledge';
  query: string;
  limit?: number;
}
export interface HttpStep extends StepBase {
  kind: 'http';
  method: (typeof HTTP_METHODS)[number];
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}
export interface TemplateStep extends StepBase {
  kind: 'template';
  text: string;
}
export interface ConditionStep extends StepBase {
  kind: 'condition';
  expression: string;
  then: string | null;
  else: string | null;
  /** Makes this condition a bounded loop: a cycle through it may pass it at most this many times per run. */
  maxIterations?: number;
}
export interface PluginStep extends StepBase {
  kind: 'plugin';
  pluginId: string;
  method: (typeof HTTP_METHODS)[number];
  path: string;
  body?: unknown;
}
export interface WebhookStep extends StepBase {
  kind: 'webhook';
  data: Record<string, unknown>;
}
export interface WaitStep extends StepBase {
  kind: 'wait';
  ms: number;
}

export type Step = LlmStep | KnowledgeStep | HttpStep | TemplateStep | ConditionStep | PluginStep | WebhookStep | WaitStep;

export interface RunLimits {
  /** Steps a run may execute in all (loops count each pass). */
  maxSteps: number;
  /** Wall time of a run from its first step, waits included. */
  timeoutMs: number;
  /** Tokens the run's `llm` steps may use together. */
  maxTokens: number;
}

export const DEFAULT_LIMITS: RunLimits = { maxSteps: 50, timeoutMs: 10 * 60_000, maxTokens: 50_000 };
export const LIMIT_CEILINGS: RunLimits = { maxSteps: 1000, timeoutMs: 24 * 3600_000, maxTokens: 2_000_000 };

export interface WorkflowTrigger {
  /** A cron expression (5 or 6 fields), run once per tick across instances. */
  schedule?: { cron: string; timezone?: string };
  /** A platform event of the application's owner (and application) that starts a run with the event as input. */
  event?: EventType;
}

/** The graph of a workflow as stored: what the engine runs. */
export interface WorkflowDefinition {
  steps: Step[];
  /** Hosts `http` steps may call (exact names, lower case). */
  allowedHosts: string[];
  limits: RunLimits;
  trigger: WorkflowTrigger;
}

export const MAX_STEPS_PER_WORKFLOW = 100;
const STEP_ID = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
const MAX_TEXT = 20_000;
const MAX_WAIT_MS = 24 * 3600_000;
const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);

/** Collects the problems of one definition, each naming its step; thrown together as one 400. */
class Problems {
  readonly list: Array<{ path: string; message: string }> = [];
  add(path: string, message: string): void {
    if (this.list.length < 50) this.list.push({ path, message });
  }
}

/** Field checks shared by the step kinds. */
function text(p: Problems, where: string, label: string, step: Record<string, unknown>, key: string, required: boolean, max = MAX_TEXT): string | undefined {
  const v = own(step, key);
  if (v === undefined) {
    if (required) p.add(`${where}.${key}`, `${label}: ${key} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || (required && v.trim() === '')) p.add(`${where}.${key}`, `${label}: ${key} must be a non-empty string`);
  else if (v.length > max) p.add(`${where}.${key}`, `${label}: ${key} must be at most ${max} characters`);
  else return v;
  return undefined;
}

function int(p: Problems, where: string, label: string, step: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = own(step, key);
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    p.add(`${where}.${key}`, `${label}: ${key} must be an integer from ${min} to ${max}`);
    return undefined;
  }
  return v;
}

function jsonSize(v: unknown): number {
  return JSON.stringify(v ?? null).length;
}

function stepRef(p: Problems, where: string, label: string, step: Record<string, unknown>, key: string, allowAbsent: boolean): string | null | undefined {
  const v = own(step, key);
  if (v === undefined) {
    if (!allowAbsent) p.add(`${where}.${key}`, `${label}: ${key} is required (a step id, or null to end the run)`);
    return undefined;
  }
  if (v === null) return null;
  if (typeof v !== 'string' || !STEP_ID.test(v)) {
    p.add(`${where}.${key}`, `${label}: ${key} must be a step id or null`);
    return undefined;
  }
  return v;
}

/** Reads one step; its problems are named `steps[i]` and by its id. */
function readStep(p: Problems, raw: unknown, i: number): Step | null {
  const where = `steps[${i}]`;
  if (!isObject(raw)) {
    p.add(where, `${where} must be an object`);
    return null;
  }
  const id = own(raw, 'id');
  if (typeof id !== 'string' || !STEP_ID.test(id)) {
    p.add(`${where}.id`, `${where}: id must start with a letter and hold up to 40 letters, digits, _ or -`);
    return null;
  }
  const label = `step "${id}"`;
  const kind = own(raw, 'kind');
  if (typeof kind !== 'string' || !(STEP_KINDS as readonly string[]).includes(kind)) {
    p.add(`${where}.kind`, `${label}: kind must be one of ${STEP_KINDS.join(', ')}`);
    return null;
  }
  const base: StepBase = { id, kind: kind as StepKind };
  const next = stepRef(p, where, label, raw, 'next', true);
  if (next !== undefined) base.next = next;
  const retry = own(raw, 'retry');
  if (retry !== undefined) {
    if (!isObject(retry)) p.add(`${where}.retry`, `${label}: retry must be an object { attempts, backoffMs }`);
    else {
      const attempts = int(p, `${where}.retry`, label, retry, 'attempts', 1, 5);
      const backoffMs = int(p, `${where}.retry`, label, retry, 'backoffMs', 0, 60_000);
      base.retry = { attempts: attempts ?? 1, backoffMs: backoffMs ?? 1000 };
    }
  }
  switch (kind as StepKind) {
    case 'llm': {
      const prompt = text(p, where, label, raw, 'prompt', true);
      const provider = text(p, where, label, raw, 'provider', false, 40);
      const model = text(p, where, label, raw, 'model', false, 200);
      const settings = own(raw, 'settings');
      if (settings !== undefined && (!isObject(settings) || jsonSize(settings) > 10_000)) p.add(`${where}.settings`, `${label}: settings must be an object`);
      return { ...base, kind: 'llm', prompt: prompt ?? '', ...(provider ? { provider } : {}), ...(model ? { model } : {}), ...(isObject(settings) ? { settings } : {}) };
    }
    case 'knowledge': {
      const query = text(p, where, label, raw, 'query', true, 2000);
      const limit = int(p, where, label, raw, 'limit', 1, 50);
      return { ...base, kind: 'knowledge', query: query ?? '', ...(limit !== undefined ? { limit } : {}) };
    }
    case 'http': {
      const method = own(raw, 'method') ?? 'GET';
      if (typeof method !== 'string' || !(HTTP_METHODS as readonly string[]).includes(method)) p.add(`${where}.method`, `${label}: method must be one of ${HTTP_METHODS.join(', ')}`);
      const url = text(p, where, label, raw, 'url', true, 2000);
      const headers = own(raw, 'headers');
      if (headers !== undefined && (!isObject(headers) || Object.values(headers).some((v) => typeof v !== 'string' || /[\r\n]/.test(v)) || Object.keys(headers).length > 30)) {
        p.add(`${where}.headers`, `${label}: headers must be an object of up to 30 single-line strings`);
      }
      const body = own(raw, 'body');
      if (body !== undefined && jsonSize(body) > 100_000) p.add(`${where}.body`, `${label}: body must be at most 100000 characters as JSON`);
      return { ...base, kind: 'http', method: method as HttpStep['method'], url: url ?? '', ...(isObject(headers) ? { headers: headers as Record<string, string> } : {}), ...(body !== undefined ? { body } : {}) };
    }
    case 'template':
      return { ...base, kind: 'template', text: text(p, where, label, raw, 'text', true) ?? '' };
    case 'condition': {
      const expression = text(p, where, label, raw, 'expression', true, 1000);
      const then = stepRef(p, where, label, raw, 'then', false);
      const otherwise = stepRef(p, where, label, raw, 'else', false);
      const maxIterations = int(p, where, label, raw, 'maxIterations', 1, 100);
      if (own(raw, 'next') !== undefined) p.add(`${where}.next`, `${label}: a condition goes on through then and else, not next`);
      return { ...base, kind: 'condition', expression: expression ?? '', then: then ?? null, else: otherwise ?? null, ...(maxIterations !== undefined ? { maxIterations } : {}) };
    }
    case 'plugin': {
      const pluginId = own(raw, 'pluginId');
      if (typeof pluginId !== 'string' || !/^[0-9a-f-]{36}$/i.test(pluginId)) p.add(`${where}.pluginId`, `${label}: pluginId must be a plugin's id`);
      const method = own(raw, 'method') ?? 'POST';
      if (typeof method !== 'string' || !(HTTP_METHODS as readonly string[]).includes(method)) p.add(`${where}.method`, `${label}: method must be one of ${HTTP_METHODS.join(', ')}`);
      const path = text(p, where, label, raw, 'path', true, 500);
      if (path !== undefined && !path.startsWith('/')) p.add(`${where}.path`, `${label}: path must start with /`);
      const body = own(raw, 'body');
      if (body !== undefined && jsonSize(body) > 100_000) p.add(`${where}.body`, `${label}: body must be at most 100000 characters as JSON`);
      return { ...base, kind: 'plugin', pluginId: typeof pluginId === 'string' ? pluginId.toLowerCase() : '', method: method as PluginStep['method'], path: path ?? '/', ...(body !== undefined ? { body } : {}) };
    }
    case 'webhook': {
      const data = own(raw, 'data') ?? {};
      if (!isObject(data) || jsonSize(data) > 50_000) p.add(`${where}.data`, `${label}: data must be an object of at most 50000 characters as JSON`);
      return { ...base, kind: 'webhook', data: isObject(data) ? data : {} };
    }
    case 'wait': {
      const ms = int(p, where, label, raw, 'ms', 0, MAX_WAIT_MS);
      if (own(raw, 'ms') === undefined) p.add(`${where}.ms`, `${label}: ms is required`);
      return { ...base, kind: 'wait', ms: ms ?? 0 };
    }
  }
}

/** The steps each step may go on to. */
export function successors(step: Step, steps: Step[]): Array<string> {
  if (step.kind === 'condition') return [step.then, step.else].filter((s): s is string => s !== null);
  if (step.next === null) return [];
  if (step.next !== undefined) return [step.next];
  const i = steps.findIndex((s) => s.id === step.id);
  const following = steps[i + 1];
  return following ? [following.id] : [];
}

/** Steps from which `target` can be reached (its possible predecessors, at any distance). */
function ancestors(steps: Step[], target: string): Set<string> {
  const preds = new Map<string, string[]>();
  for (const s of steps) for (const n of successors(s, steps)) preds.set(n, [...(preds.get(n) ?? []), s.id]);
  const seen = new Set<string>();
  const stack = [...(preds.get(target) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(preds.get(id) ?? []));
  }
  return seen;
}

/**
 * A cycle is allowed only through a bounded loop (a condition with `maxIterations`): with the edges out of
 * those conditions removed, the graph must have no cycle. Returns a step on a cycle, or null.
 */
function unboundedCycle(steps: Step[]): string | null {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const state = new Map<string, 1 | 2>();
  const visit = (id: string): string | null => {
    const mark = state.get(id);
    if (mark === 1) return id;
    if (mark === 2) return null;
    state.set(id, 1);
    const step = byId.get(id)!;
    const next = step.kind === 'condition' && step.maxIterations !== undefined ? [] : successors(step, steps);
    for (const n of next) {
      if (!byId.has(n)) continue;
      const found = visit(n);
      if (found) return found;
    }
    state.set(id, 2);
    return null;
  };
  for (const s of steps) {
    const found = visit(s.id);
    if (found) return found;
  }
  return null;
}

/** Every string inside a JSON value. */
function strings(value: unknown): string[] {
  const all: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') all.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (isObject(v)) Object.values(v).forEach(collect);
  };
  collect(value);
  return all;
}

/** Every string of a step that may hold `{{…}}` references, and whether it may read secrets (http headers only). */
export function templatedTexts(step: Step): Array<{ text: string; secrets: boolean }> {
  const plain = (...values: unknown[]) => strings(values).map((text) => ({ text, secrets: false }));
  switch (step.kind) {
    case 'llm':
      return plain(step.prompt);
    case 'knowledge':
      return plain(step.query);
    case 'http':
      return [...plain(step.url, step.body ?? null), ...strings(step.headers ?? {}).map((text) => ({ text, secrets: true }))];
    case 'template':
      return plain(step.text);
    case 'plugin':
      return plain(step.path, step.body ?? null);
    case 'webhook':
      return plain(step.data);
    default:
      return [];
  }
}

/**
 * Checks a workflow's graph as sent by a client and answers the stored definition; every problem is a
 * 400 naming its step: unknown kinds, missing fields, duplicate ids, links to steps that do not exist,
 * references to steps that cannot have run before, cycles without a bounded loop, hosts, limits, triggers.
 */
export function parseDefinition(input: { steps?: unknown; allowedHosts?: unknown; limits?: unknown; trigger?: unknown }, secretNames: readonly string[] = []): WorkflowDefinition {
  const p = new Problems();
  const rawSteps = input.steps;
  const steps: Step[] = [];
  if (!Array.isArray(rawSteps) || rawSteps.length === 0) p.add('steps', 'steps must be a non-empty array');
  else if (rawSteps.length > MAX_STEPS_PER_WORKFLOW) p.add('steps', `a workflow holds at most ${MAX_STEPS_PER_WORKFLOW} steps`);
  else
    rawSteps.forEach((raw, i) => {
      const step = readStep(p, raw, i);
      if (!step) return;
      if (steps.some((s) => s.id === step.id)) p.add(`steps[${i}].id`, `step "${step.id}": another step has the same id`);
      else steps.push(step);
    });

  const ids = new Set(steps.map((s) => s.id));
  for (const step of steps) {
    const links = step.kind === 'condition' ? [['then', step.then], ['else', step.else]] : [['next', step.next]];
    for (const [field, target] of links) {
      if (typeof target === 'string' && !ids.has(target)) p.add(`steps.${step.id}.${field}`, `step "${step.id}": ${field} names step "${target}", which does not exist`);
    }
  }
  if (p.list.length === 0 && steps.length > 0) {
    const cyclic = unboundedCycle(steps);
    if (cyclic) p.add(`steps.${cyclic}`, `step "${cyclic}" is on a cycle; a cycle must pass a condition with maxIterations (a bounded loop)`);
    for (const step of steps) {
      const before = ancestors(steps, step.id);
      for (const t of templatedTexts(step)) {
        let refs: ReturnType<typeof referencesIn>;
        try {
          refs = referencesIn(t.text);
        } catch (error) {
          p.add(`steps.${step.id}`, `step "${step.id}": ${(error as Error).message}`);
          continue;
        }
        for (const ref of refs) {
          if (ref.root === 'secrets') {
            if (!t.secrets) p.add(`steps.${step.id}`, `step "${step.id}": {{${ref.text}}}: secrets may be used only in the headers of http steps`);
            else if (!secretNames.includes(ref.secret!)) p.add(`steps.${step.id}`, `step "${step.id}": {{${ref.text}}} names secret "${ref.secret}", which the workflow does not have`);
            continue;
          }
          if (ref.root !== 'steps') continue;
          if (!ids.has(ref.stepId!)) p.add(`steps.${step.id}`, `step "${step.id}": {{${ref.text}}} names step "${ref.stepId}", which does not exist`);
          else if (!before.has(ref.stepId!)) p.add(`steps.${step.id}`, `step "${step.id}": {{${ref.text}}} names step "${ref.stepId}", which never runs before it`);
        }
      }
    }
  }

  const allowedHosts: string[] = [];
  if (input.allowedHosts !== undefined) {
    if (!Array.isArray(input.allowedHosts) || input.allowedHosts.length > 50) p.add('allowedHosts', 'allowedHosts must be an array of up to 50 host names');
    else
      for (const h of input.allowedHosts) {
        if (typeof h !== 'string' || !HOST.test(h.toLowerCase())) p.add('allowedHosts', `allowedHosts: ${JSON.stringify(h).slice(0, 80)} is not a host name`);
        else allowedHosts.push(h.toLowerCase());
      }
  }
  for (const step of steps) {
    if (step.kind !== 'http' || referencesIn(step.url).length > 0) continue;
    let host: string | null = null;
    try {
      host = new URL(step.url).hostname.toLowerCase();
    } catch {
      p.add(`steps.${step.id}.url`, `step "${step.id}": url must be an absolute URL`);
      continue;
    }
    if (!allowedHosts.includes(host)) p.add(`steps.${step.id}.url`, `step "${step.id}": host ${host} is not in allowedHosts`);
  }

  const limits: RunLimits = { ...DEFAULT_LIMITS };
  if (input.limits !== undefined) {
    if (!isObject(input.limits)) p.add('limits', 'limits must be an object { maxSteps, timeoutMs, maxTokens }');
    else
      for (const key of ['maxSteps', 'timeoutMs', 'maxTokens'] as const) {
        const v = int(p, 'limits', 'limits', input.limits, key, 1, LIMIT_CEILINGS[key]);
        if (v !== undefined) limits[key] = v;
      }
  }

  const trigger: WorkflowTrigger = {};
  if (input.trigger !== undefined && input.trigger !== null) {
    if (!isObject(input.trigger)) p.add('trigger', 'trigger must be an object { schedule?, event? }');
    else {
      const schedule = own(input.trigger, 'schedule');
      if (schedule !== undefined && schedule !== null) {
        const cron = isObject(schedule) ? own(schedule, 'cron') : undefined;
        const timezone = isObject(schedule) ? own(schedule, 'timezone') : undefined;
        if (typeof cron !== 'string' || cron.trim() === '' || cron.length > 120) p.add('trigger.schedule.cron', 'trigger.schedule.cron must be a cron expression');
        else if (timezone !== undefined && (typeof timezone !== 'string' || timezone.length > 64)) p.add('trigger.schedule.timezone', 'trigger.schedule.timezone must be an IANA time zone');
        else trigger.schedule = { cron: cron.trim(), ...(typeof timezone === 'string' ? { timezone } : {}) };
      }
      const event = own(input.trigger, 'event');
      if (event !== undefined && event !== null) {
        if (!isEventType(event)) p.add('trigger.event', 'trigger.event must be a platform event type');
        else trigger.event = event;
      }
    }
  }

  if (p.list.length > 0) throw new ValidationError(p.list[0]!.message, p.list);
  return { steps, allowedHosts, limits, trigger };
}

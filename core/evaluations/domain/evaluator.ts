import * as yup from 'yup';
import { PROVIDER_IDS, type ProviderId } from '../../ai/domain/provider-id';
import { ValidationError } from '../../shared/errors';
import { bool, num, str } from '../../shared/validation';
import { isPlainObject } from './dataset';

/** What an evaluator checks; each gives a score in [0, 1] and a pass or a fail (docs/evaluations.md). */
export type EvaluatorSpec =
  | { type: 'exact'; name: string; caseSensitive: boolean }
  | { type: 'contains'; name: string; mode: 'any' | 'all'; values: string[]; caseSensitive: boolean }
  | { type: 'regex'; name: string; pattern: string; caseSensitive: boolean }
  | { type: 'json'; name: string }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown> }
  | { type: 'similarity'; name: string; threshold: number }
  | { type: 'judge'; name: string; provider: ProviderId; model: string; rubric: string; scaleMin: number; scaleMax: number; passScore: number }
  | { type: 'latency'; name: string; maxMs: number }
  | { type: 'tokens'; name: string; max: number }
  | { type: 'cost'; name: string; maxUsd: number };

export type EvaluatorType = EvaluatorSpec['type'];
export const EVALUATOR_TYPES: EvaluatorType[] = ['exact', 'contains', 'regex', 'json', 'json_schema', 'similarity', 'judge', 'latency', 'tokens', 'cost'];

export interface Score {
  evaluator: string;
  type: EvaluatorType;
  /** In [0, 1]. */
  score: number;
  passed: boolean;
  /** Why, in words (the judge's reasoning for a judge). */
  reason: string;
}

const MAX_EVALUATORS = 12;
const MAX_PATTERN = 1_000;

const DEFAULT_NAMES: Record<EvaluatorType, string> = {
  exact: 'Exact match',
  contains: 'Contains',
  regex: 'Pattern',
  json: 'Valid JSON',
  json_schema: 'JSON Schema',
  similarity: 'Similarity',
  judge: 'Judge',
  latency: 'Latency',
  tokens: 'Tokens',
  cost: 'Cost',
};

export const evaluatorSchema = yup.object({
  type: str().oneOf(EVALUATOR_TYPES, `type must be one of ${EVALUATOR_TYPES.join(', ')}`).required('type is required'),
  name: str().typeError('name must be text').max(80, 'name must be at most 80 characters'),
  caseSensitive: bool().typeError('caseSensitive must be true or false'),
  mode: str().oneOf(['any', 'all'], 'mode must be any or all'),
  values: yup.array().typeError('values must be a list').max(50, 'values must have at most 50 entries').of(str().typeError('values must be text').min(1, 'a value must not be empty').max(1_000, 'a value must be at most 1000 characters').required()),
  pattern: str().typeError('pattern must be text').max(MAX_PATTERN, `pattern must be at most ${MAX_PATTERN} characters`),
  schema: yup.mixed().test('schema', 'schema must be a JSON Schema object', (v) => v === undefined || isPlainObject(v)),
  threshold: num().typeError('threshold must be a number').min(0, 'threshold must be between 0 and 1').max(1, 'threshold must be between 0 and 1'),
  provider: str().oneOf([...PROVIDER_IDS], `provider must be one of ${PROVIDER_IDS.join(', ')}`),
  model: str().typeError('model must be text').max(200, 'model must be at most 200 characters'),
  rubric: str().typeError('rubric must be text').max(10_000, 'rubric must be at most 10000 characters'),
  scaleMin: num().typeError('scaleMin must be a number').integer('scaleMin must be a whole number').min(0, 'scaleMin must be 0 or more').max(100, 'scaleMin must be at most 100'),
  scaleMax: num().typeError('scaleMax must be a number').integer('scaleMax must be a whole number').min(1, 'scaleMax must be 1 or more').max(100, 'scaleMax must be at most 100'),
  passScore: num().typeError('passScore must be a number'),
  maxMs: num().typeError('maxMs must be a number').integer('maxMs must be a whole number').min(1, 'maxMs must be positive').max(3_600_000, 'maxMs must be at most an hour'),
  max: num().typeError('max must be a number').integer('max must be a whole number').min(1, 'max must be positive').max(10_000_000, 'max is too large'),
  maxUsd: num().typeError('maxUsd must be a number').min(0, 'maxUsd must not be negative').max(1_000, 'maxUsd is too large'),
});

export const evaluatorsField = yup
  .array()
  .typeError('evaluators must be a list')
  .min(1, 'evaluators must have at least one entry')
  .max(MAX_EVALUATORS, `evaluators must have at most ${MAX_EVALUATORS} entries`)
  .of(evaluatorSchema.typeError('each evaluator must be an object').required());

/** Where a field of the i-th evaluator is, in error details: `evaluators[i].` in a run, nothing for one evaluator alone. */
type FieldPrefix = (i: number) => string;
const inList: FieldPrefix = (i) => `evaluators[${i}].`;

/**
 * Checks each evaluator's own fields and gives it a name unique in the run (for aggregates and the comparison).
 * `compilePattern` and `compileSchema` refuse what their engines cannot take, as a 400.
 */
export function toEvaluatorSpecs(
  list: yup.InferType<typeof evaluatorSchema>[],
  checks: { compilePattern(pattern: string, caseSensitive: boolean): void; compileSchema(schema: Record<string, unknown>): void },
  at: FieldPrefix = inList,
): EvaluatorSpec[] {
  const need = <T>(v: T | undefined | null, field: string, i: number): T => {
    if (v === undefined || v === null || v === '') throw ValidationError.field(`${at(i)}${field}`, `${at(i)}${field} is required for this type`);
    return v;
  };
  const seen = new Map<string, number>();
  return list.map((e, i) => {
    const type = e.type as EvaluatorType;
    const base = e.name?.trim() || DEFAULT_NAMES[type];
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const name = count === 1 ? base : `${base} ${count}`;
    const caseSensitive = e.caseSensitive ?? false;
    switch (type) {
      case 'exact':
        return { type, name, caseSensitive };
      case 'contains': {
        const values = need(e.values, 'values', i);
        if (!values.length) throw ValidationError.field(`${at(i)}values`, `${at(i)}values must have at least one entry`);
        return { type, name, mode: (e.mode as 'any' | 'all' | undefined) ?? 'any', values, caseSensitive };
      }
      case 'regex': {
        const pattern = need(e.pattern, 'pattern', i);
        try {
          checks.compilePattern(pattern, caseSensitive);
        } catch (error) {
          throw ValidationError.field(`${at(i)}pattern`, `${at(i)}pattern is not a valid pattern: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`);
        }
        return { type, name, pattern, caseSensitive };
      }
      case 'json':
        return { type, name };
      case 'json_schema': {
        const schema = need(e.schema, 'schema', i) as Record<string, unknown>;
        try {
          checks.compileSchema(schema);
        } catch (error) {
          throw ValidationError.field(`${at(i)}schema`, `${at(i)}schema is not a valid JSON Schema: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}`);
        }
        return { type, name, schema };
      }
      case 'similarity':
        return { type, name, threshold: e.threshold ?? 0.8 };
      case 'judge': {
        const scaleMin = e.scaleMin ?? 1;
        const scaleMax = e.scaleMax ?? 5;
        if (scaleMax <= scaleMin) throw ValidationError.field(`${at(i)}scaleMax`, `${at(i)}scaleMax must be above scaleMin`);
        const passScore = e.passScore ?? Math.ceil((scaleMin + scaleMax) / 2);
        if (passScore < scaleMin || passScore > scaleMax) throw ValidationError.field(`${at(i)}passScore`, `${at(i)}passScore must be within the scale`);
        return { type, name, provider: need(e.provider, 'provider', i) as ProviderId, model: need(e.model, 'model', i), rubric: need(e.rubric, 'rubric', i), scaleMin, scaleMax, passScore };
      }
      case 'latency':
        return { type, name, maxMs: need(e.maxMs, 'maxMs', i) };
      case 'tokens':
        return { type, name, max: need(e.max, 'max', i) };
      case 'cost':
        return { type, name, maxUsd: need(e.maxUsd, 'maxUsd', i) };
    }
  });
}

/** The answer as the deterministic evaluators read it, with what the run measured. */
export interface Observed {
  answer: string;
  expected: string | null;
  latencyMs: number;
  totalTokens: number;
  cost: number | null;
}

const fold = (s: string, caseSensitive: boolean) => (caseSensitive ? s : s.toLowerCase());
const verdict = (evaluator: EvaluatorSpec, passed: boolean, reason: string, score = passed ? 1 : 0): Score => ({ evaluator: evaluator.name, type: evaluator.type, score, passed, reason });

/**
 * The JSON an answer holds: the whole answer when it is JSON, else the span from its first `{` or `[` to the
 * matching last `}` or `]` (models often wrap JSON in words or a code fence).
 */
export function jsonOf(answer: string): { ok: true; value: unknown } | { ok: false } {
  const attempt = (text: string) => {
    try {
      return { ok: true as const, value: JSON.parse(text) as unknown };
    } catch {
      return null;
    }
  };
  const whole = attempt(answer.trim());
  if (whole) return whole;
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ] as const) {
    const start = answer.indexOf(open);
    const end = answer.lastIndexOf(close);
    if (start >= 0 && end > start) {
      const inner = attempt(answer.slice(start, end + 1));
      if (inner) return inner;
    }
  }
  return { ok: false };
}

/** Scores of the evaluators that need no model (all but similarity and the judge). */
export function scoreDeterministic(
  evaluator: Exclude<EvaluatorSpec, { type: 'similarity' | 'judge' }>,
  o: Observed,
  engines: { regexMatches(pattern: string, caseSensitive: boolean, text: string): boolean; schemaErrors(schema: Record<string, unknown>, value: unknown): string[] },
): Score {
  switch (evaluator.type) {
    case 'exact': {
      if (o.expected === null) return verdict(evaluator, false, 'The item has no expected answer to compare with');
      const same = fold(o.answer.trim(), evaluator.caseSensitive) === fold(o.expected.trim(), evaluator.caseSensitive);
      return verdict(evaluator, same, same ? 'The answer is the expected answer' : 'The answer differs from the expected answer');
    }
    case 'contains': {
      const text = fold(o.answer, evaluator.caseSensitive);
      const found = evaluator.values.filter((v) => text.includes(fold(v, evaluator.caseSensitive)));
      const passed = evaluator.mode === 'all' ? found.length === evaluator.values.length : found.length > 0;
      const missing = evaluator.values.filter((v) => !found.includes(v));
      return verdict(evaluator, passed, passed ? `Contains ${found.map((v) => `"${v}"`).join(', ')}` : `Missing ${missing.map((v) => `"${v}"`).join(', ')}`, found.length / evaluator.values.length);
    }
    case 'regex': {
      const matched = engines.regexMatches(evaluator.pattern, evaluator.caseSensitive, o.answer);
      return verdict(evaluator, matched, matched ? 'The answer matches the pattern' : 'The answer does not match the pattern');
    }
    case 'json': {
      const parsed = jsonOf(o.answer);
      return verdict(evaluator, parsed.ok, parsed.ok ? 'The answer holds valid JSON' : 'The answer holds no valid JSON');
    }
    case 'json_schema': {
      const parsed = jsonOf(o.answer);
      if (!parsed.ok) return verdict(evaluator, false, 'The answer holds no valid JSON');
      const errors = engines.schemaErrors(evaluator.schema, parsed.value);
      return verdict(evaluator, errors.length === 0, errors.length === 0 ? 'The JSON matches the schema' : `The JSON does not match the schema: ${errors.slice(0, 3).join('; ')}`);
    }
    case 'latency': {
      const passed = o.latencyMs <= evaluator.maxMs;
      return verdict(evaluator, passed, `Answered in ${o.latencyMs} ms (limit ${evaluator.maxMs} ms)`);
    }
    case 'tokens': {
      const passed = o.totalTokens <= evaluator.max;
      return verdict(evaluator, passed, `Used ${o.totalTokens} tokens (limit ${evaluator.max})`);
    }
    case 'cost': {
      if (o.cost === null) return verdict(evaluator, false, 'The cost of this model is not known');
      const passed = o.cost <= evaluator.maxUsd;
      return verdict(evaluator, passed, `Cost $${o.cost.toFixed(6)} (limit $${evaluator.maxUsd})`);
    }
  }
}

/** Cosine similarity of two unit vectors, as a score in [0, 1]. */
export function similarityScore(evaluator: Extract<EvaluatorSpec, { type: 'similarity' }>, a: number[], b: number[]): Score {
  let dot = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) dot += a[i]! * b[i]!;
  const score = Math.max(0, Math.min(1, dot));
  return verdict(evaluator, score >= evaluator.threshold, `Similarity to the expected answer ${score.toFixed(3)} (needs ${evaluator.threshold})`, score);
}

/**
 * The judge's verdict from its reply: the last JSON object in it with a numeric `score` on the scale, and its
 * `reasoning`. A reply without one fails the item with the reply's start as the reason.
 */
export function judgeScore(evaluator: Extract<EvaluatorSpec, { type: 'judge' }>, reply: string): Score {
  const candidates = reply.match(/\{[^{}]{0,5000}\}/g) ?? [];
  for (let i = candidates.length - 1; i >= 0; i--) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidates[i]!);
    } catch {
      continue;
    }
    if (!isPlainObject(parsed) || typeof parsed.score !== 'number' || !Number.isFinite(parsed.score)) continue;
    const raw = parsed.score;
    if (raw < evaluator.scaleMin || raw > evaluator.scaleMax) continue;
    const reasoning = typeof parsed.reasoning === 'string' ? parsed.reasoning.slice(0, 2_000) : '';
    const score = (raw - evaluator.scaleMin) / (evaluator.scaleMax - evaluator.scaleMin);
    return verdict(evaluator, raw >= evaluator.passScore, `${raw} of ${evaluator.scaleMax}${reasoning ? `: ${reasoning}` : ''}`, score);
  }
  return verdict(evaluator, false, `The judge gave no score: ${reply.slice(0, 300)}`);
}

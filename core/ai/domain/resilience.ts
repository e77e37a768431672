import { isAppError, UpstreamError, ValidationError, type ErrorDetail } from '../../shared/errors';

/**
 * What a model config (or a studio draft) asks of a turn when its provider has a bad day
 * (docs/connections.md, "Resilience"): how often to retry the same model, and which other
 * provider/model pairs answer, in order, once the retries are spent; `balance` names the pairs that share
 * the primary's load (each turn starts at the next of them, round robin).
 */
export interface RetryPolicy {
  /** Retries after the first attempt, per provider/model pair (0: no retry). */
  maxRetries: number;
  /** The first wait; each retry doubles it, with jitter, up to `maxDelayMs` (a provider's `Retry-After` wins). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface FallbackTarget {
  /** A provider id or a connection's name. */
  provider: string;
  model: string;
}

export interface ResiliencePolicy {
  retry: RetryPolicy;
  fallbacks: FallbackTarget[];
  /**
   * Other provider/model pairs (a provider id or a connection's name) that share the primary's load: each
   * turn starts at the next of [primary, ...balance] and tries the others before any fallback. Absent when empty.
   */
  balance?: FallbackTarget[];
}

export const RESILIENCE_LIMITS = {
  maxRetries: 5,
  baseDelayMs: { min: 50, max: 10_000 },
  maxDelayMs: { min: 50, max: 60_000 },
  fallbacks: 3,
  balance: 3,
} as const;

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000 };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Validates `settings.resilience` (absent or null: none). Unknown fields are refused, so a typo
 * does not silently leave a config without the retries its owner meant to give it.
 */
export function validateResiliencePolicy(raw: unknown, path = 'settings.resilience'): ResiliencePolicy | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw ValidationError.field(path, `${path} must be an object`);
  const input = raw as Record<string, unknown>;
  const errors: ErrorDetail[] = [];
  const fail = (field: string, message: string) => errors.push({ path: `${path}.${field}`, message: `${path}.${field} ${message}` });
  for (const key of Object.keys(input)) if (key !== 'retry' && key !== 'fallbacks' && key !== 'balance') fail(key, 'is not a resilience setting (retry, balance, fallbacks)');

  const retry: RetryPolicy = { ...DEFAULT_RETRY };
  if (input.retry !== undefined && input.retry !== null) {
    if (typeof input.retry !== 'object' || Array.isArray(input.retry)) fail('retry', 'must be an object');
    else {
      const r = input.retry as Record<string, unknown>;
      for (const key of Object.keys(r)) if (!['maxRetries', 'baseDelayMs', 'maxDelayMs'].includes(key)) fail(`retry.${key}`, 'is not a retry setting');
      if (r.maxRetries !== undefined) {
        if (!isInt(r.maxRetries) || r.maxRetries < 0 || r.maxRetries > RESILIENCE_LIMITS.maxRetries) fail('retry.maxRetries', `must be an integer between 0 and ${RESILIENCE_LIMITS.maxRetries}`);
        else retry.maxRetries = r.maxRetries;
      }
      for (const field of ['baseDelayMs', 'maxDelayMs'] as const) {
        const value = r[field];
        if (value === undefined) continue;
        const { min, max } = RESILIENCE_LIMITS[field];
        if (!isInt(value) || value < min || value > max) fail(`retry.${field}`, `must be an integer between ${min} and ${max}`);
        else retry[field] = value;
      }
      if (retry.maxDelayMs < retry.baseDelayMs) fail('retry.maxDelayMs', 'must be at least retry.baseDelayMs');
    }
  }

  const pairs = (field: 'fallbacks' | 'balance'): FallbackTarget[] => {
    const list: FallbackTarget[] = [];
    const value = input[field];
    if (value === undefined || value === null) return list;
    if (!Array.isArray(value)) fail(field, 'must be a list');
    else if (value.length > RESILIENCE_LIMITS[field]) fail(field, `must hold at most ${RESILIENCE_LIMITS[field]} provider/model pairs`);
    else {
      value.forEach((f: unknown, i) => {
        const item = f as Record<string, unknown> | null;
        const provider = typeof item?.provider === 'string' ? item.provider.trim() : '';
        const model = typeof item?.model === 'string' ? item.model.trim() : '';
        if (!item || typeof item !== 'object' || !provider || provider.length > 100 || !model || model.length > 200) {
          fail(`${field}.${i}`, 'must name a provider and a model');
        } else list.push({ provider, model });
      });
    }
    return list;
  };
  const fallbacks = pairs('fallbacks');
  const balance = pairs('balance');
  if (errors.length) throw new ValidationError(errors.map((e) => e.message).join('; '), errors);
  return { retry, fallbacks, ...(balance.length ? { balance } : {}) };
}

/**
 * How long to wait before retry number `retry` (1 for the first): the provider's `Retry-After`
 * when it gave one, else exponential backoff with full jitter between half and all of the step.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, retryAfterMs: number | undefined, random: () => number): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/** Whether a failure is the provider's bad moment (429, 5xx, timeout, connection) rather than the request's fault. */
export function isRetryable(error: unknown): boolean {
  if (!isAppError(error)) return false;
  if (error.kind === 'upstream_timeout') return true;
  return error instanceof UpstreamError && (error.status === 429 || error.status === 502);
}

/** Whether a failure is the provider's rate limit (429): the key cools down (see `RateLimitCooldowns`). */
export function isRateLimited(error: unknown): boolean {
  return error instanceof UpstreamError && error.status === 429;
}

/** Whether a failure counts against a breaker: the provider's bad moment, not a refused key or request. */
export const countsAgainstBreaker = isRetryable;

export function retryAfterOfError(error: unknown): number | undefined {
  return error instanceof UpstreamError ? error.retryAfterMs : undefined;
}

/** One call to a provider during a turn, as the message metadata (and later the trace) records it. */
export interface ProviderAttempt {
  provider: string;
  model: string;
  fallback: boolean;
  /** The key's last four characters (as provider key views show them), '' for a connection without a key. */
  keyHint: string;
  outcome: 'answered' | 'failed' | 'skipped';
  /** Why it failed or was skipped (already free of keys and addresses: the providers' error texts). */
  reason?: string;
  status?: number;
  startedAt: string;
  durationMs: number;
}

/** Which provider and model answered a turn, and whether it was a fallback (message metadata and the answer). */
export interface AnsweredBy {
  provider: string;
  model: string;
  fallback: boolean;
}

/** What an answer's message keeps of how it was answered (message metadata). */
export interface AnswerMetadata {
  answeredBy?: AnsweredBy;
  /** Every provider call of the turn, in order (failed, skipped and the one that answered). */
  attempts?: ProviderAttempt[];
  /** The usage is the platform's estimate: the provider reported none. */
  usageEstimated?: boolean;
}

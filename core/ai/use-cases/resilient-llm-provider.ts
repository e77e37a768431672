import { createHash } from 'node:crypto';
import { ATTR } from '../../traces/domain/attributes';
import type { SpanHandle } from '../../traces/domain/turn-trace';
import { isAppError, UnavailableError } from '../../shared/errors';
import { CircuitBreakers } from '../domain/circuit-breaker';
import { backoffDelay, countsAgainstBreaker, isRetryable, retryAfterOfError, type AnsweredBy, type ProviderAttempt, type RetryPolicy } from '../domain/resilience';

export type { AnsweredBy, ProviderAttempt } from '../domain/resilience';
import type { ProviderId } from '../domain/provider-id';
import type { ChatRequest, ChatResult, LlmProvider, ModelSettings, StreamPart } from '../ports/llm-provider.port';

/** One provider/model pair a turn may be answered by, with the keys (or the connection's key) it may use. */
export interface ModelRoute {
  /** A provider id or a connection's name. */
  providerId: string;
  provider: LlmProvider;
  model: string;
  /** At least one; several are balanced (round robin), each behind its own breaker. */
  keys: string[];
  fallback: boolean;
  /** What the route's breakers are kept under when the id alone is not unique (a connection: its id). */
  scope?: string;
  /** The route's own settings (a fallback's maxTokens bounded by its model); the request's otherwise. */
  settings?: ModelSettings;
}

/** What a resilient turn shares with the process: breakers, key balancing, time and chance. */
export interface ResilienceRuntime {
  breakers: CircuitBreakers;
  balancer: KeyBalancer;
  now(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Counts failed attempts apart from the quota (the `/metrics` counter). */
  onFailedAttempt?(provider: string): void;
}

/** Round robin over several keys of one provider (or several connections standing for one). */
export class KeyBalancer {
  private readonly counters = new Map<string, number>();

  order(route: string, keys: string[]): string[] {
    if (keys.length < 2) return keys;
    const next = this.counters.get(route) ?? 0;
    this.counters.set(route, (next + 1) % keys.length);
    return [...keys.slice(next % keys.length), ...keys.slice(0, next % keys.length)];
  }
}

export function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function defaultResilienceRuntime(overrides: Partial<ResilienceRuntime> = {}): ResilienceRuntime {
  return { breakers: new CircuitBreakers(), balancer: new KeyBalancer(), now: Date.now, random: Math.random, sleep: sleepFor, ...overrides };
}

/**
 * The one place a provider attempt is recorded: into the turn's attempt list (stored in the message
 * metadata). When traces land, this is where each attempt becomes a span.
 */
export function recordProviderAttempt(attempts: ProviderAttempt[], attempt: ProviderAttempt): void {
  if (attempts.length < 50) attempts.push(attempt);
}

const OUTCOME = 'app.provider.outcome';

/** A span for one attempt along a route, under the model round's span when the turn is traced (never the key). */
function attemptSpan(request: ChatRequest, route: ModelRoute, previous: number): SpanHandle | undefined {
  return request.span?.child(
    'provider.attempt',
    { [ATTR.providerName]: route.providerId, [ATTR.requestModel]: route.model, [ATTR.attempt]: previous + 1, 'app.provider.fallback': route.fallback },
    'client',
  );
}

/** The breaker of one key of one provider (or one connection): the key itself is never kept, only its digest. */
export function breakerKey(providerId: string, apiKey: string): string {
  return `${providerId}:${createHash('sha256').update(apiKey).digest('base64url').slice(0, 16)}`;
}

/**
 * The breaker keys of a key list, by the list's identity: the platform's lists are the registry's own,
 * the same array every turn, so their digests are computed once (a per-turn list is digested each time).
 */
const breakerKeysOf = new WeakMap<string[], Map<string, string>>();
function cachedBreakerKey(keys: string[], scope: string, apiKey: string): string {
  let byScope = breakerKeysOf.get(keys);
  if (!byScope) breakerKeysOf.set(keys, (byScope = new Map()));
  const id = `${scope}\u0000${keys.indexOf(apiKey)}`;
  let key = byScope.get(id);
  if (key === undefined) byScope.set(id, (key = breakerKey(scope, apiKey)));
  return key;
}

const keyHint = (apiKey: string): string => (apiKey.length >= 8 ? apiKey.slice(-4) : '');

/**
 * A decorator around the LLM provider port (docs/connections.md, "Resilience"): retries a route on
 * 429, 5xx and connection failures with exponential backoff and jitter (the provider's `Retry-After`
 * when it gave one) within the turn's deadline, then tries the fallback routes in order; skips a key
 * whose breaker is open. A stream is retried or handed to a fallback only before its first part:
 * once something reached the caller, a failure ends the turn. One instance serves one turn, and
 * remembers who answered and every attempt.
 */
export class ResilientLlmProvider implements LlmProvider {
  readonly id: ProviderId;
  readonly attempts: ProviderAttempt[] = [];
  answeredBy: AnsweredBy | undefined;

  private readonly routes: ModelRoute[];

  constructor(
    routes: ModelRoute[],
    private readonly retry: RetryPolicy,
    private readonly runtime: ResilienceRuntime,
    /** When the turn's time budget ends (epoch ms): no retry waits past it. */
    private readonly deadline: number,
    /**
     * The routes after `routes` (the fallbacks), asked for only when `routes` are spent; it may record
     * the fallbacks it cannot use as skipped attempts.
     */
    private more?: (attempts: ProviderAttempt[]) => ModelRoute[],
  ) {
    if (!routes.length) throw new Error('a resilient provider needs at least one route');
    this.routes = [...routes];
    this.id = routes[0]!.provider.id;
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    return this.run(request, async (route, call) => {
      const result = await route.provider.chat(call);
      return { value: result };
    });
  }

  stream(request: ChatRequest): AsyncIterable<StreamPart> {
    // The first part is awaited under the retry loop; what follows is the provider's own iterator, handed
    // through without a generator of ours in between (no added promise or frame per part).
    return {
      [Symbol.asyncIterator]: () => {
        let opened: Promise<{ iterator: AsyncIterator<StreamPart>; first: IteratorResult<StreamPart> }> | undefined;
        let inner: AsyncIterator<StreamPart> | undefined;
        const open = async (): Promise<IteratorResult<StreamPart>> => {
          opened ??= this.run(request, async (route, call) => {
            const iterator = route.provider.stream(call)[Symbol.asyncIterator]();
            const first = await iterator.next();
            return { value: { iterator, first } };
          });
          const { iterator, first } = await opened;
          // A second call made while the first part was awaited (not done by for-await) moves on.
          const already = inner as AsyncIterator<StreamPart> | undefined;
          if (already) return already.next();
          inner = iterator;
          return first;
        };
        return {
          // Once open, the provider's own promise is returned as it is.
          next: (): Promise<IteratorResult<StreamPart>> => (inner ? inner.next() : open()),
          return: async (): Promise<IteratorResult<StreamPart>> => {
            const done = { done: true as const, value: undefined };
            if (!inner) return done;
            return (await inner.return?.()) ?? done;
          },
        };
      },
    };
  }

  listModels(apiKey: string, signal?: AbortSignal): Promise<string[]> {
    return this.routes[0]!.provider.listModels(apiKey, signal);
  }

  /**
   * Runs `call` along the routes. For a stream the breaker's verdict on the attempt that opened it is
   * given now (its first part came); a failure later in the stream is the caller's to report.
   */
  private async run<T>(request: ChatRequest, call: (route: ModelRoute, request: ChatRequest) => Promise<{ value: T }>): Promise<T> {
    const { breakers, balancer } = this.runtime;
    let lastError: unknown;
    for (let r = 0; ; r++) {
      // The fallbacks are worked out only once the routes before them are spent: a turn that answers at
      // once never resolves their settings or keys.
      if (r === this.routes.length && this.more) {
        this.routes.push(...this.more(this.attempts));
        this.more = undefined;
      }
      if (r === this.routes.length) break;
      const route = this.routes[r]!;
      const keys = balancer.order(`${route.providerId}/${route.model}`, route.keys);
      let retries = 0;
      let index = 0;
      while (true) {
        const picked = this.pickKey(route, keys, index);
        if (!picked) {
          const reason = `${route.providerId} is paused after repeated failures (circuit open)`;
          this.note(route, '', 'skipped', this.runtime.now(), { reason });
          attemptSpan(request, route, this.attempts.length)?.set(OUTCOME, 'skipped').fail(reason, 'circuit_open').end();
          lastError ??= new UnavailableError(`${route.providerId} is paused after repeated failures`);
          break;
        }
        index = picked.index;
        const { apiKey, breaker } = picked;
        const started = this.runtime.now();
        // Each attempt is a span under the model round's (docs/observability.md); what the provider records goes beneath it.
        const span = attemptSpan(request, route, this.attempts.length);
        try {
          const { value } = await call(route, { ...request, model: route.model, apiKey, ...(route.settings ? { settings: route.settings } : {}), ...(span ? { span } : {}) });
          breakers.succeeded(breaker);
          // A turn answered at its first attempt keeps no attempt list (answeredBy and the trace's span say it
          // all): a policy that is never needed adds nothing to the stored message.
          if (this.attempts.length) this.note(route, apiKey, 'answered', started);
          span?.set(OUTCOME, 'answered').end();
          this.answeredBy = { provider: route.providerId, model: route.model, fallback: route.fallback };
          return value;
        } catch (error) {
          if (request.signal?.aborted) {
            breakers.released(breaker);
            span?.set(OUTCOME, 'aborted').end();
            throw error;
          }
          if (countsAgainstBreaker(error)) breakers.failed(breaker, `${route.providerId} …${keyHint(apiKey)}`);
          else breakers.released(breaker);
          const reason = isAppError(error) ? error.message : 'The provider request failed';
          this.note(route, apiKey, 'failed', started, { reason, status: statusOf(error) });
          span?.set(OUTCOME, 'failed').set('http.response.status_code', statusOf(error)).fail(reason.slice(0, 300), 'provider_error').end();
          this.runtime.onFailedAttempt?.(route.providerId);
          lastError = error;
          if (!isRetryable(error)) throw error;
          if (retries >= this.retry.maxRetries) break;
          retries++;
          const delay = backoffDelay(retries, this.retry, retryAfterOfError(error), this.runtime.random);
          // A wait that would end past the turn's budget is not made: the next route is tried at once.
          if (this.runtime.now() + delay > this.deadline) break;
          await this.runtime.sleep(delay, request.signal);
          index++;
        }
      }
    }
    throw lastError;
  }

  /** The first key from `start` on (wrapping) whose breaker lets a call through. */
  private pickKey(route: ModelRoute, keys: readonly string[], start: number): { apiKey: string; breaker: string; index: number } | undefined {
    for (let i = 0; i < keys.length; i++) {
      const index = start + i;
      const apiKey = keys[index % keys.length]!;
      const breaker = cachedBreakerKey(route.keys, route.scope ?? route.providerId, apiKey);
      if (this.runtime.breakers.admit(breaker, `${route.providerId} …${keyHint(apiKey)}`) !== 'open') return { apiKey, breaker, index };
    }
    return undefined;
  }

  private note(route: ModelRoute, apiKey: string, outcome: ProviderAttempt['outcome'], started: number, extra: { reason?: string; status?: number } = {}): void {
    recordProviderAttempt(this.attempts, {
      provider: route.providerId,
      model: route.model,
      fallback: route.fallback,
      keyHint: keyHint(apiKey),
      outcome,
      ...(extra.reason !== undefined ? { reason: extra.reason.slice(0, 300) } : {}),
      ...(extra.status !== undefined ? { status: extra.status } : {}),
      startedAt: new Date(started).toISOString(),
      durationMs: Math.max(0, this.runtime.now() - started),
    });
  }
}

function statusOf(error: unknown): number | undefined {
  if (!isAppError(error)) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

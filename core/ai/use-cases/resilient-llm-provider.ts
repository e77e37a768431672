import { createHash } from 'node:crypto';
import { ATTR } from '../../traces/domain/attributes';
import type { SpanHandle } from '../../traces/domain/turn-trace';
import { isAppError, UnavailableError } from '../../shared/errors';
import { CircuitBreakers } from '../domain/circuit-breaker';
import { RateLimitCooldowns } from '../domain/rate-limit-cooldowns';
import { backoffDelay, countsAgainstBreaker, isRateLimited, isRetryable, retryAfterOfError, type AnsweredBy, type ProviderAttempt, type RetryPolicy } from '../domain/resilience';

export type { AnsweredBy, ProviderAttempt } from '../domain/resilience';
import type { ProviderId } from '../domain/provider-id';
import type { ChatRequest, ChatResult, LlmProvider, ModelSettings, StreamPart } from '../ports/llm-provider.port';

/** One provider/model pair a turn may be answered by, with the keys (or the connection's key) it may use. */
export interface ModelRoute {
  /** A provider id or a connection's name. */
  providerId: string;
  provider: LlmProvider;
  model: string;
  /** At least one; several are balanced (round robin, a cooling-down key last), each behind its own breaker. */
  keys: string[];
  fallback: boolean;
  /** What the route's breakers are kept under when the id alone is not unique (a connection: its id). */
  scope?: string;
  /** The route's own settings (a fallback's maxTokens bounded by its model); the request's otherwise. */
  settings?: ModelSettings;
}

/** What a resilient turn shares with the process: breakers, key balancing, rate-limit cooldowns, time and chance. */
export interface ResilienceRuntime {
  breakers: CircuitBreakers;
  balancer: KeyBalancer;
  /** Keys and connections that answered 429, until their Retry-After passes: balancing takes them last. */
  cooldowns: RateLimitCooldowns;
  now(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Counts failed attempts apart from the quota (the `/metrics` counter). */
  onFailedAttempt?(provider: string): void;
}

/**
 * Round robin over several keys of one provider (or the members of a balanced model config): one counter
 * per route in this process, bounded to `maxEntries` routes.
 */
export class KeyBalancer {
  private readonly counters = new Map<string, number>();

  constructor(private readonly maxEntries = 10_000) {}

  /** Where the route's next turn starts (0 to `size` - 1), and the counter moved on. */
  next(route: string, size: number): number {
    if (size < 2) return 0;
    const next = this.counters.get(route);
    if (next === undefined && this.counters.size >= this.maxEntries) this.counters.delete(this.counters.keys().next().value!);
    this.counters.set(route, ((next ?? 0) + 1) % size);
    return (next ?? 0) % size;
  }

  /** The keys in this turn's order: round robin, then those `cooling` says cool down after the others. */
  order<T>(route: string, keys: T[], cooling?: (key: T) => boolean): T[] {
    if (keys.length < 2) return keys;
    const at = this.next(route, keys.length);
    const rotated = [...keys.slice(at), ...keys.slice(0, at)];
    return cooling ? lastWhen(rotated, cooling) : rotated;
  }
}

/** `items` with those `late` holds for moved behind the others, both in their order. */
function lastWhen<T>(items: T[], late: (item: T) => boolean): T[] {
  const first: T[] = [];
  const last: T[] = [];
  for (const item of items) (late(item) ? last : first).push(item);
  return last.length ? [...first, ...last] : items;
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
  return { breakers: new CircuitBreakers(), balancer: new KeyBalancer(), cooldowns: new RateLimitCooldowns(), now: Date.now, random: Math.random, sleep: sleepFor, ...overrides };
}

/**
 * The one place a provider attempt is recorded: into the turn's attempt list (stored in the message
 * metadata). When traces land, this is where each attempt becomes a span.
 */
export function recordProviderAttempt(attempts: ProviderAttempt[], attempt: ProviderAttempt): void {
  if (attempts.length < 50) attempts.push(attempt);
}

const OUTCOME = 'app.provider.outcome';
const ONE = [0];

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

/** A balance member after the first, worked out when it is needed (undefined: it cannot be used; it recorded itself as skipped). */
export type LazyRoute = (attempts: ProviderAttempt[]) => ModelRoute | undefined;

/** The pairs that share a model config's load (`settings.resilience.balance`), after its primary. */
export interface BalancedMembers {
  /** The round robin's counter (one per member list in this process). */
  key: string;
  members: LazyRoute[];
}

/**
 * A decorator around the LLM provider port (docs/connections.md, "Resilience"): retries a route on
 * 429, 5xx and connection failures with exponential backoff and jitter (the provider's `Retry-After`
 * when it gave one) within the turn's deadline, then tries the fallback routes in order; skips a key
 * whose breaker is open. With balance members, each turn starts at the next member (round robin, one
 * cooling down after a 429 taken last) and tries the others before any fallback; a member that answers
 * 429 hands over to the next member at once. A stream is retried or handed on only before its first
 * part: once something reached the caller, a failure ends the turn. One instance serves one turn, and
 * remembers who answered and every attempt.
 */
export class ResilientLlmProvider implements LlmProvider {
  readonly id: ProviderId;
  readonly attempts: ProviderAttempt[] = [];
  answeredBy: AnsweredBy | undefined;

  /** The members sharing the load (resolved, still to resolve, or null: cannot be used), and this turn's rotation of them. */
  private readonly members: (ModelRoute | LazyRoute | null)[];
  private readonly rotation: number[];
  private readonly fallbacks: ModelRoute[] = [];

  constructor(
    /** The routes tried first (the primary), in order. */
    routes: ModelRoute[],
    private readonly retry: RetryPolicy,
    private readonly runtime: ResilienceRuntime,
    /** When the turn's time budget ends (epoch ms): no retry waits past it. */
    private readonly deadline: number,
    /**
     * The routes after the members (the fallbacks), asked for only when the members are spent; it may record
     * the fallbacks it cannot use as skipped attempts.
     */
    private more?: (attempts: ProviderAttempt[]) => ModelRoute[],
    balance?: BalancedMembers,
  ) {
    if (!routes.length) throw new Error('a resilient provider needs at least one route');
    this.id = routes[0]!.provider.id;
    if (!balance?.members.length) {
      this.members = routes;
      this.rotation = routes.length === 1 ? ONE : routes.map((_, i) => i);
    } else {
      // The first route and the members share the load: this turn starts at the next of them.
      this.members = [routes[0]!, ...balance.members, ...routes.slice(1)];
      const size = balance.members.length + 1;
      const at = runtime.balancer.next(balance.key, size);
      this.rotation = [...Array.from({ length: size }, (_, i) => (at + i) % size), ...routes.slice(1).map((_, i) => size + i)];
    }
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
    return (this.members[0] as ModelRoute).provider.listModels(apiKey, signal);
  }

  /** A member by its index, resolved on first need (a member that cannot be used records itself as skipped, once). */
  private member(i: number): ModelRoute | undefined {
    let m = this.members[i];
    if (typeof m === 'function') this.members[i] = m = m(this.attempts) ?? null;
    return m ?? undefined;
  }

  /** What a key's rate-limit cooldown is kept under: its breaker's digest and the model (never the key). */
  private cooldownKey(route: ModelRoute, apiKey: string): string {
    return `${cachedBreakerKey(route.keys, route.scope ?? route.providerId, apiKey)}/${route.model}`;
  }

  /** The members in this run's order: the turn's rotation, with those cooling down (every key after a 429) last. */
  private memberOrder(now: number): number[] {
    if (this.rotation.length < 2 || !this.runtime.cooldowns.size) return this.rotation;
    const usable = this.rotation.filter((i) => this.member(i));
    return lastWhen(usable, (i) => {
      const route = this.member(i)!;
      return route.keys.every((k) => this.runtime.cooldowns.isCooling(this.cooldownKey(route, k), now));
    });
  }

  /**
   * Runs `call` along the members, then the fallbacks. For a stream the breaker's verdict on the attempt
   * that opened it is given now (its first part came); a failure later in the stream is the caller's to report.
   */
  private async run<T>(request: ChatRequest, call: (route: ModelRoute, request: ChatRequest) => Promise<{ value: T }>): Promise<T> {
    const { breakers, balancer, cooldowns } = this.runtime;
    const order = this.memberOrder(this.runtime.now());
    let lastError: unknown;
    for (let r = 0; ; r++) {
      let route: ModelRoute | undefined;
      if (r < order.length) {
        route = this.member(order[r]!);
        if (!route) continue;
      } else {
        // The fallbacks are worked out only once the members are spent: a turn that answers at once never
        // resolves their settings or keys.
        const f = r - order.length;
        if (f === this.fallbacks.length && this.more) {
          this.fallbacks.push(...this.more(this.attempts));
          this.more = undefined;
        }
        if (f >= this.fallbacks.length) break;
        route = this.fallbacks[f]!;
      }
      const member = r < order.length;
      const now = cooldowns.size ? this.runtime.now() : 0;
      const keys = balancer.order(`${route.providerId}/${route.model}`, route.keys, cooldowns.size ? (k) => cooldowns.isCooling(this.cooldownKey(route, k), now) : undefined);
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
          if (cooldowns.size) cooldowns.clear(this.cooldownKey(route, apiKey));
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
          const limited = isRateLimited(error);
          // A rate-limited key cools down until its Retry-After (else the next backoff step) passes.
          if (limited) cooldowns.coolDown(this.cooldownKey(route, apiKey), this.runtime.now(), retryAfterOfError(error) ?? backoffDelay(retries + 1, this.retry, undefined, () => 1));
          // A rate-limited member hands the turn to the next member at once: its retries are not waited out.
          if (limited && member && order.slice(r + 1).some((i) => this.member(i))) break;
          if (retries >= this.retry.maxRetries) break;
          retries++;
          // After a 429, another key of the route that is not cooling down is tried at once.
          const spare = limited && keys.length > 1 && !cooldowns.isCooling(this.cooldownKey(route, keys[(index + 1) % keys.length]!), this.runtime.now());
          if (!spare) {
            const delay = backoffDelay(retries, this.retry, retryAfterOfError(error), this.runtime.random);
            // A wait that would end past the turn's budget is not made: the next route is tried at once.
            if (this.runtime.now() + delay > this.deadline) break;
            await this.runtime.sleep(delay, request.signal);
          }
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

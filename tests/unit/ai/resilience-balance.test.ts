import { resolveModelSettings } from '../../../core/ai/domain/model-settings';
import { RateLimitCooldowns } from '../../../core/ai/domain/rate-limit-cooldowns';
import { validateResiliencePolicy, type ProviderAttempt } from '../../../core/ai/domain/resilience';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { ChatRequest, ChatResult, LlmProvider, LlmProviderRegistry } from '../../../core/ai/ports/llm-provider.port';
import { defaultResilienceRuntime, KeyBalancer, type ResilienceRuntime } from '../../../core/ai/use-cases/resilient-llm-provider';
import { providerForTurn } from '../../../core/ai/use-cases/turn-routes';
import { UpstreamError, ValidationError } from '../../../core/shared/errors';

/**
 * Balance members and rate-limit cooldowns (docs/connections.md, "Resilience") with in-memory providers
 * that answer or fail per model and key, and a clock the test moves.
 */
type Fault = () => Error;

function registry(keys: Partial<Record<ProviderId, string[]>>) {
  const calls: string[] = [];
  const faults = new Map<string, Fault>();
  const provider = (id: ProviderId): LlmProvider => ({
    id,
    async chat(request: ChatRequest): Promise<ChatResult> {
      calls.push(`${id}/${request.model} ${request.apiKey.slice(-2)}`);
      const fault = faults.get(`${request.model} ${request.apiKey}`) ?? faults.get(request.model);
      if (fault) throw fault();
      return { content: `${id}/${request.model}`, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 }, model: request.model };
    },
    stream: () => {
      throw new Error('not used');
    },
    listModels: async () => [],
  });
  const providers = new Map<ProviderId, LlmProvider>();
  const registry: LlmProviderRegistry = {
    get: (id) => providers.get(id) ?? (providers.set(id, provider(id)), providers.get(id)!),
    platformKey: (id) => keys[id]?.[0],
    platformKeys: (id) => keys[id] ?? [],
  };
  return { registry, calls, faults };
}

let clock = 1_000_000;
const runtimeWithClock = (): ResilienceRuntime => defaultResilienceRuntime({ now: () => clock, random: () => 1, sleep: async (ms) => void (clock += ms) });

function turn(deps: { registry: LlmProviderRegistry; runtime: ResilienceRuntime }, resilience: Record<string, unknown>, primary: { provider?: ProviderId; model?: string } = {}) {
  const providerId = primary.provider ?? 'provider_a';
  const model = primary.model ?? 'gpt-4o';
  const { settings } = resolveModelSettings(providerId, model, { resilience });
  const routed = providerForTurn({ providers: deps.registry, resilience: deps.runtime }, { providerId, model, settings }, deps.registry.platformKey(providerId)!);
  return {
    answer: () => routed.provider.chat({ model, messages: [{ role: 'user', content: 'hi' }], settings, apiKey: deps.registry.platformKey(providerId)! }),
    resilient: routed.resilient!,
  };
}

const rateLimited = (retryAfterMs?: number): Fault => () => new UpstreamError('provider_a is rate limited', 429, retryAfterMs);
const outcomes = (attempts: ProviderAttempt[]) => attempts.map((a) => `${a.provider}/${a.model} ${a.outcome}${a.fallback ? ' (fallback)' : ''}`);

describe('balance members', () => {
  const KEYS = { provider_a: ['sk-platform-a-0001'], provider_b: ['sk-ant-platform-b-0002'] };
  const balance = [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }];

  it('are validated like fallbacks: at most 3 pairs, each naming a provider and a model, kept only when given', () => {
    expect(validateResiliencePolicy({ balance })).toEqual({ retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 }, fallbacks: [], balance });
    expect(validateResiliencePolicy({ balance: [] })).not.toHaveProperty('balance');
    const refused = (raw: unknown) => {
      try {
        validateResiliencePolicy(raw);
      } catch (error) {
        return (error as ValidationError).details.map((d) => [d.path, d.message]);
      }
      return [];
    };
    expect(refused({ balance: [{}, {}, {}, {}] })).toEqual([['settings.resilience.balance', 'settings.resilience.balance must hold at most 3 provider/model pairs']]);
    expect(refused({ balance: [{ provider: 'provider_b' }] })).toEqual([['settings.resilience.balance.0', 'settings.resilience.balance.0 must name a provider and a model']]);
    expect(refused({ balance: 'provider_b' })).toEqual([['settings.resilience.balance', 'settings.resilience.balance must be a list']]);
    expect(refused({ balanced: [] })).toEqual([['settings.resilience.balanced', 'settings.resilience.balanced is not a resilience setting (retry, balance, fallbacks)']]);
  });

  it('take turns round robin, each turn starting at the next member, and are no fallback', async () => {
    const fake = registry(KEYS);
    const deps = { registry: fake.registry, runtime: runtimeWithClock() };
    const answered = [];
    for (let i = 0; i < 4; i++) {
      const t = turn(deps, { balance });
      await t.answer();
      answered.push(t.resilient.answeredBy);
      // Answered at the first attempt: nothing else was tried, nothing recorded.
      expect(t.resilient.attempts).toEqual([]);
    }
    expect(answered).toEqual([
      { provider: 'provider_a', model: 'gpt-4o', fallback: false },
      { provider: 'provider_b', model: 'claude-3-5-haiku-latest', fallback: false },
      { provider: 'provider_a', model: 'gpt-4o', fallback: false },
      { provider: 'provider_b', model: 'claude-3-5-haiku-latest', fallback: false },
    ]);
    expect(fake.calls).toEqual(['provider_a/gpt-4o 01', 'provider_b/claude-3-5-haiku-latest 02', 'provider_a/gpt-4o 01', 'provider_b/claude-3-5-haiku-latest 02']);
  });

  it('are tried, with the retry policy, before any fallback', async () => {
    const fake = registry(KEYS);
    const deps = { registry: fake.registry, runtime: runtimeWithClock() };
    fake.faults.set('gpt-4o', () => new UpstreamError('provider_a failed', 502));
    const t = turn(deps, { retry: { maxRetries: 1, baseDelayMs: 100, maxDelayMs: 100 }, balance, fallbacks: [{ provider: 'provider_a', model: 'gpt-4o-mini' }] });
    await t.answer();
    expect(t.resilient.answeredBy).toEqual({ provider: 'provider_b', model: 'claude-3-5-haiku-latest', fallback: false });
    expect(outcomes(t.resilient.attempts)).toEqual(['provider_a/gpt-4o failed', 'provider_a/gpt-4o failed', 'provider_b/claude-3-5-haiku-latest answered']);

    // Every member failing: the fallback answers, and only it is flagged as one.
    fake.faults.set('claude-3-5-haiku-latest', () => new UpstreamError('provider_b failed', 502));
    const next = turn(deps, { retry: { maxRetries: 0 }, balance, fallbacks: [{ provider: 'provider_a', model: 'gpt-4o-mini' }] });
    await next.answer();
    expect(next.resilient.answeredBy).toEqual({ provider: 'provider_a', model: 'gpt-4o-mini', fallback: true });
    expect(outcomes(next.resilient.attempts)).toEqual(['provider_b/claude-3-5-haiku-latest failed', 'provider_a/gpt-4o failed', 'provider_a/gpt-4o-mini answered (fallback)']);
  });

  it('record a member that cannot be used as skipped, not as a fallback, when its turn comes', async () => {
    const fake = registry({ provider_a: KEYS.provider_a });
    const deps = { registry: fake.registry, runtime: runtimeWithClock() };
    const members = [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }, { provider: 'no-such-connection', model: 'x' }, { provider: 'provider_a', model: 'not-a-model' }];
    // The primary answers first: the members are never worked out.
    const first = turn(deps, { balance: members });
    await first.answer();
    expect(first.resilient.attempts).toEqual([]);
    // The next turn starts at a member without a key: it and the other unusable ones are skipped on the way to the primary.
    const second = turn(deps, { balance: members });
    await second.answer();
    expect(second.resilient.answeredBy).toEqual({ provider: 'provider_a', model: 'gpt-4o', fallback: false });
    expect(second.resilient.attempts.map((a) => [a.provider, a.outcome, a.fallback, a.reason])).toEqual([
      ['provider_b', 'skipped', false, 'No API key is available for provider_b'],
      ['no-such-connection', 'skipped', false, "no-such-connection is neither a provider this platform knows nor one of the owner's connections"],
      ['provider_a', 'skipped', false, 'not-a-model is not a provider_a model'],
      ['provider_a', 'answered', false, undefined],
    ]);
  });

  it('hand over at once when a member answers 429, which then cools down until its Retry-After and is taken last', async () => {
    const fake = registry(KEYS);
    const deps = { registry: fake.registry, runtime: runtimeWithClock() };
    fake.faults.set('gpt-4o', rateLimited(20_000));
    const retry = { maxRetries: 2, baseDelayMs: 100, maxDelayMs: 400 };
    const t = turn(deps, { retry, balance });
    const started = clock;
    await t.answer();
    // No retry of the rate-limited member and no wait: the other member answered.
    expect(t.resilient.answeredBy).toEqual({ provider: 'provider_b', model: 'claude-3-5-haiku-latest', fallback: false });
    expect(outcomes(t.resilient.attempts)).toEqual(['provider_a/gpt-4o failed', 'provider_b/claude-3-5-haiku-latest answered']);
    expect(clock).toBe(started);

    // Its next turn would start at the primary, but it cools down: the other member goes first, twice.
    fake.calls.length = 0;
    for (let i = 0; i < 2; i++) {
      const next = turn(deps, { retry, balance });
      await next.answer();
      expect(next.resilient.answeredBy?.provider).toBe('provider_b');
    }
    expect(fake.calls).toEqual(['provider_b/claude-3-5-haiku-latest 02', 'provider_b/claude-3-5-haiku-latest 02']);

    // The Retry-After passes and the provider recovers: the primary takes its turns again.
    clock += 20_001;
    fake.faults.clear();
    const answered = [];
    for (let i = 0; i < 2; i++) {
      const next = turn(deps, { retry, balance });
      await next.answer();
      answered.push(next.resilient.answeredBy?.provider);
    }
    expect(answered.sort()).toEqual(['provider_a', 'provider_b']);
  });

  it('still try a cooling member, last, when every other member fails', async () => {
    const fake = registry(KEYS);
    const deps = { registry: fake.registry, runtime: runtimeWithClock() };
    fake.faults.set('gpt-4o', rateLimited());
    await turn(deps, { retry: { maxRetries: 0 }, balance }).answer();
    fake.faults.clear();
    fake.faults.set('claude-3-5-haiku-latest', () => new UpstreamError('provider_b failed', 502));
    const t = turn(deps, { retry: { maxRetries: 0 }, balance });
    await t.answer();
    expect(outcomes(t.resilient.attempts)).toEqual(['provider_b/claude-3-5-haiku-latest failed', 'provider_a/gpt-4o answered']);
  });
});

describe('several platform keys with a rate limit', () => {
  it('take a key that answered 429 last while it cools down (the backoff step without Retry-After), and move to another key without waiting', async () => {
    const fake = registry({ provider_a: ['sk-platform-a-0001', 'sk-platform-a-0002'] });
    const deps = { registry: fake.registry, runtime: runtimeWithClock() };
    const retry = { maxRetries: 1, baseDelayMs: 1000, maxDelayMs: 1000 };
    fake.faults.set('gpt-4o sk-platform-a-0001', rateLimited());
    const started = clock;
    const t = turn(deps, { retry });
    await t.answer();
    expect(fake.calls).toEqual(['provider_a/gpt-4o 01', 'provider_a/gpt-4o 02']);
    expect(clock).toBe(started);

    // Round robin would start the next turns at key 2 then key 1; key 1 cools down, so key 2 answers both.
    fake.calls.length = 0;
    await turn(deps, { retry }).answer();
    await turn(deps, { retry }).answer();
    expect(fake.calls).toEqual(['provider_a/gpt-4o 02', 'provider_a/gpt-4o 02']);

    // The cooldown (one backoff step, 1 s) passes: key 1 takes its turn again.
    clock += 1_001;
    fake.faults.clear();
    fake.calls.length = 0;
    await turn(deps, { retry }).answer();
    await turn(deps, { retry }).answer();
    expect(fake.calls.sort()).toEqual(['provider_a/gpt-4o 01', 'provider_a/gpt-4o 02']);
  });

  it('keeps digests, never the key, and forgets a cooldown once it passed or the key answered', async () => {
    const cooldowns = new RateLimitCooldowns(2);
    cooldowns.coolDown('provider_a:abc/gpt-4o', 0, 1000);
    expect(cooldowns.isCooling('provider_a:abc/gpt-4o', 999)).toBe(true);
    expect(cooldowns.isCooling('provider_a:abc/gpt-4o', 1000)).toBe(false);
    expect(cooldowns.size).toBe(0);
    cooldowns.coolDown('a', 0, 10);
    cooldowns.coolDown('b', 0, 10);
    cooldowns.coolDown('c', 0, 10);
    expect([cooldowns.isCooling('a', 1), cooldowns.isCooling('c', 1)]).toEqual([false, true]);
    cooldowns.clear('c');
    expect(cooldowns.isCooling('c', 1)).toBe(false);

    const runtime = runtimeWithClock();
    const fake = registry({ provider_a: ['sk-platform-a-0001'] });
    fake.faults.set('gpt-4o', rateLimited(5_000));
    await expect(turn({ registry: fake.registry, runtime }, { retry: { maxRetries: 0 } }).answer()).rejects.toMatchObject({ status: 429 });
    const kept = [...(runtime.cooldowns as unknown as { until: Map<string, number> }).until.keys()];
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/^provider_a:[\w-]{16}\/gpt-4o$/);
  });

  it('a balancer keeps a counter per route and bounds how many it keeps', () => {
    const balancer = new KeyBalancer(2);
    expect([balancer.next('a', 3), balancer.next('a', 3), balancer.next('a', 3), balancer.next('a', 3)]).toEqual([0, 1, 2, 0]);
    balancer.next('b', 2);
    balancer.next('c', 2);
    // 'a' was the oldest counter: it starts over.
    expect(balancer.next('a', 3)).toBe(0);
    expect(balancer.order('k', ['x', 'y', 'z'], (k) => k === 'x')).toEqual(['y', 'z', 'x']);
  });
});

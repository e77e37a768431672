import type { ConnectionEndpoints, OpenedConnection } from '../../connections/ports/connection-endpoints.port';
import { UnavailableError } from '../../shared/errors';
import { DEFAULT_TIME_BUDGET_MS } from '../../tools/domain/agent-settings';
import { findModel } from '../domain/model-catalog';
import { MAX_TOKENS_LIMIT, maxTemperature, resolveConnectionSettings, resolveModelSettings } from '../domain/model-settings';
import { isProviderId, type ProviderId } from '../domain/provider-id';
import type { FallbackTarget } from '../domain/resilience';
import type { LlmProvider, LlmProviderRegistry, ModelSettings } from '../ports/llm-provider.port';
import { defaultResilienceRuntime, recordProviderAttempt, ResilientLlmProvider, type BalancedMembers, type ModelRoute, type ProviderAttempt, type ResilienceRuntime } from './resilient-llm-provider';

/** The runtime of a chat engine built without one (tests, embedders): shared by every turn of this process. */
let processRuntime: ResilienceRuntime | undefined;
/** Failed provider attempts of this process by provider or connection name, counted apart from the quota (`/metrics`). */
export const failedAttempts = new Map<string, number>();
export const sharedResilienceRuntime = (): ResilienceRuntime =>
  (processRuntime ??= defaultResilienceRuntime({
    onFailedAttempt: (provider) => {
      if (failedAttempts.has(provider) || failedAttempts.size < 1_000) failedAttempts.set(provider, (failedAttempts.get(provider) ?? 0) + 1);
    },
  }));

export interface TurnRouting {
  providers: LlmProviderRegistry;
  resilience?: ResilienceRuntime;
  connections?: Pick<ConnectionEndpoints, 'provider'>;
}

export interface PrimaryRoute {
  providerId: ProviderId;
  model: string;
  settings: ModelSettings;
  /** The caller's own key; absent: the platform's key(s). */
  ownKey?: string;
  /** The caller's own keys for fallback providers, by provider id. */
  fallbackKeys?: Record<string, string>;
  /** The owner's connections the balance members and fallbacks name, opened for this turn. */
  fallbackConnections?: OpenedConnection[];
  /** The turn's time budget (ms): retries never wait past it. */
  budgetMs?: number;
  /** The provider of a connection's turn (the registry's otherwise), and its breakers' scope (the connection's id). */
  base?: LlmProvider;
  scope?: string;
}

/** What an OpenAI-compatible SDK is given for a connection without a key (a local Ollama ignores it). */
export const NO_KEY = 'no-key';

/** The provider of a connection's turn: the engine's connection endpoints, or a 503 where the engine has none. */
export function connectionProvider(deps: { connections?: Pick<ConnectionEndpoints, 'provider'> }, connection: OpenedConnection): LlmProvider {
  if (!deps.connections) throw new UnavailableError('This chat engine cannot reach connections');
  return deps.connections.provider(connection);
}

/**
 * The provider a turn talks to. Without a resilience policy it is the registry's provider itself (no
 * cost added); with one, a ResilientLlmProvider over the primary route and the balance members (each
 * turn starts at the next of them), then, once those are spent, the fallbacks this turn has a key for. A
 * member or fallback the turn cannot use (unknown provider, connection or model, no key) is recorded as a
 * skipped attempt when its turn comes rather than failing the turn; both are worked out only then.
 */
export function providerForTurn(deps: TurnRouting, primary: PrimaryRoute, apiKey: string): { provider: LlmProvider; resilient?: ResilientLlmProvider } {
  const policy = primary.settings.resilience;
  const base = primary.base ?? deps.providers.get(primary.providerId);
  if (!policy) return { provider: base };
  const platformKeys = (id: ProviderId): string[] => deps.providers.platformKeys?.(id) ?? [deps.providers.platformKey(id)].filter((k): k is string => !!k);
  const { resilience: _own, ...plainSettings } = primary.settings;
  const routes: ModelRoute[] = [
    { providerId: primary.providerId, provider: base, model: primary.model, keys: primary.ownKey ? [primary.ownKey] : primary.base ? [apiKey] : platformKeys(primary.providerId).length ? platformKeys(primary.providerId) : [apiKey], fallback: false, settings: plainSettings, ...(primary.scope ? { scope: primary.scope } : {}) },
  ];
  const runtime = deps.resilience ?? sharedResilienceRuntime();
  /** A balance member or fallback as a route, or undefined (recorded as skipped) when the turn cannot use it. */
  const routeTo = (target: FallbackTarget, fallback: boolean, attempts: ProviderAttempt[]): ModelRoute | undefined => {
    const skip = (reason: string) => {
      recordProviderAttempt(attempts, { provider: target.provider, model: target.model, fallback, keyHint: '', outcome: 'skipped', reason, startedAt: new Date(runtime.now()).toISOString(), durationMs: 0 });
      return undefined;
    };
    if (!isProviderId(target.provider)) {
      const connection = primary.fallbackConnections?.find((c) => c.name === target.provider);
      if (!connection || !deps.connections) return skip(`${target.provider} is neither a provider this platform knows nor one of the owner's connections`);
      try {
        // A connection's settings rules and models (a model it does not list is skipped).
        const { settings } = resolveConnectionSettings(connection, target.model, plainSettings);
        return { providerId: connection.name, provider: connectionProvider(deps, connection), model: target.model, keys: [connection.apiKey ?? NO_KEY], fallback, settings, scope: connection.id };
      } catch {
        return skip(`${target.model} is not a model of the connection ${connection.name}`);
      }
    }
    let settings: ModelSettings;
    try {
      // The pair's own bounds: maxTokens is capped to its model's output, temperature to its range.
      const { maxTokens, temperature, ...rest } = plainSettings;
      const found = findModel(target.provider, target.model);
      if (!found) throw new Error('unknown model');
      settings = resolveModelSettings(target.provider, found.id, { ...rest, temperature: Math.min(temperature, maxTemperature(target.provider)), maxTokens: Math.min(maxTokens, found.maxOutputTokens, MAX_TOKENS_LIMIT) }).settings;
    } catch {
      return skip(`${target.model} is not a ${target.provider} model`);
    }
    // The caller's own key for that provider; the platform's only when the turn runs on the platform's keys anyway.
    const own = primary.fallbackKeys?.[target.provider] ?? (primary.ownKey && target.provider === primary.providerId ? primary.ownKey : undefined);
    const keys = own ? [own] : primary.ownKey ? [] : platformKeys(target.provider);
    if (!keys.length) return skip(`No API key is available for ${target.provider}`);
    return { providerId: target.provider, provider: deps.providers.get(target.provider), model: target.model, keys, fallback, settings };
  };
  // The fallbacks are resolved only if the members are spent (a turn that answers at once pays nothing for them).
  const fallbacks = (attempts: ProviderAttempt[]): ModelRoute[] => policy.fallbacks.map((target) => routeTo(target, true, attempts)).filter((r): r is ModelRoute => !!r);
  // The balance members, each resolved only when its turn comes; one round robin per member list in this process.
  const balance: BalancedMembers | undefined = policy.balance?.length
    ? {
        key: `${primary.scope ?? primary.providerId}/${primary.model}\u0000${policy.balance.map((m) => `${m.provider}/${m.model}`).join('\u0000')}`,
        members: policy.balance.map((target) => (attempts: ProviderAttempt[]) => routeTo(target, false, attempts)),
      }
    : undefined;
  const resilient = new ResilientLlmProvider(routes, policy.retry, runtime, runtime.now() + (primary.budgetMs ?? DEFAULT_TIME_BUDGET_MS), policy.fallbacks.length ? fallbacks : undefined, balance);
  return { provider: resilient, resilient };
}

import { CircuitBreakers } from '../../../core/ai/domain/circuit-breaker';
import { backoffDelay, isRetryable, validateResiliencePolicy } from '../../../core/ai/domain/resilience';
import { resolveModelSettings } from '../../../core/ai/domain/model-settings';
import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../../core/shared/errors';
import { retryAfterOf } from '../../../adapters/providers/provider-errors';
import { KeyBalancer } from '../../../core/ai/use-cases/resilient-llm-provider';

describe('resilience policy', () => {
  it('validates retries and fallbacks, refusing unknown fields and out-of-range values', () => {
    expect(validateResiliencePolicy(undefined)).toBeUndefined();
    expect(validateResiliencePolicy({ fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] })).toEqual({
      retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 },
      fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }],
    });
    const refused = (raw: unknown) => {
      try {
        validateResiliencePolicy(raw);
      } catch (error) {
        return (error as ValidationError).details.map((d) => d.path);
      }
      return [];
    };
    // A misspelt setting (here `backoff`, which is not one) is refused by its name, not silently ignored.
    expect(refused({ backoff: 3 })).toEqual(['settings.resilience.backoff']);
    expect(refused({ retry: { maxRetries: 9 } })).toEqual(['settings.resilience.retry.maxRetries']);
    expect(refused({ retry: { baseDelayMs: 2000, maxDelayMs: 1000 } })).toEqual(['settings.resilience.retry.maxDelayMs']);
    expect(refused({ fallbacks: [{}, {}, {}, {}] })).toEqual(['settings.resilience.fallbacks']);
    expect(refused({ fallbacks: [{ provider: 'provider_b' }] })).toEqual(['settings.resilience.fallbacks.0']);
    expect(refused('often')).toEqual(['settings.resilience']);
  });

  it('is kept with the settings of a model config by the one settings validator', () => {
    const { settings } = resolveModelSettings('provider_a', 'gpt-4o', { resilience: { retry: { maxRetries: 1 } } });
    expect(settings.resilience).toEqual({ retry: { maxRetries: 1, baseDelayMs: 500, maxDelayMs: 8000 }, fallbacks: [] });
    expect(() => resolveModelSettings('provider_a', 'gpt-4o', { resilience: { retry: { maxRetries: -1 } } })).toThrow(ValidationError);
  });

  it('backs off exponentially with jitter, capped, and honours Retry-After', () => {
    const policy = { maxRetries: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy, undefined, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffDelay(3, policy, undefined, () => 0)).toBe(200);
    expect(backoffDelay(1, policy, 1000, () => 0.5)).toBe(1000);
  });

  it('retries throttling, provider failures and time-outs, not refused keys or requests', () => {
    expect(isRetryable(new UpstreamError('x', 429))).toBe(true);
    expect(isRetryable(new UpstreamError('x', 502))).toBe(true);
    expect(isRetryable(new UpstreamTimeoutError('x'))).toBe(true);
    expect(isRetryable(new UpstreamError('x', 424))).toBe(false);
    expect(isRetryable(new UpstreamError('x', 400))).toBe(false);
    expect(isRetryable(new Error('x'))).toBe(false);
  });

  it('reads Retry-After in seconds or as a date from the headers the SDK kept', () => {
    expect(retryAfterOf({ headers: new Headers({ 'retry-after': '1' }) })).toBe(1000);
    expect(retryAfterOf({ headers: { 'retry-after': new Date(10_000).toUTCString() } }, 8_000)).toBe(2000);
    expect(retryAfterOf({ headers: new Headers() })).toBeUndefined();
    expect(retryAfterOf({ headers: { 'retry-after': 'soon' } })).toBeUndefined();
  });
});

describe('circuit breakers', () => {
  it('open after consecutive failures, let one half-open probe through, and close when it succeeds', () => {
    let now = 0;
    const breakers = new CircuitBreakers({ failureThreshold: 2, openMs: 1000, now: () => now });
    expect(breakers.admit('k', 'provider_a …0001')).toBe('closed');
    breakers.failed('k', 'provider_a …0001');
    expect(breakers.state('k')).toBe('closed');
    breakers.failed('k', 'provider_a …0001');
    expect(breakers.admit('k', 'provider_a …0001')).toBe('open');
    now = 1500;
    expect(breakers.state('k')).toBe('half_open');
    expect(breakers.admit('k', 'provider_a …0001')).toBe('probe');
    // One probe at a time.
    expect(breakers.admit('k', 'provider_a …0001')).toBe('open');
    breakers.failed('k', 'provider_a …0001');
    expect(breakers.state('k')).toBe('open');
    now = 3000;
    expect(breakers.admit('k', 'provider_a …0001')).toBe('probe');
    breakers.succeeded('k');
    expect(breakers.state('k')).toBe('closed');
    expect(breakers.snapshot()).toEqual([]);
  });

  it('balances several keys round robin', () => {
    const balancer = new KeyBalancer();
    expect([1, 2, 3].map(() => balancer.order('provider_a/gpt-4o', ['a', 'b', 'c'])[0])).toEqual(['a', 'b', 'c']);
    expect(balancer.order('provider_a/gpt-4o', ['only'])).toEqual(['only']);
  });
});

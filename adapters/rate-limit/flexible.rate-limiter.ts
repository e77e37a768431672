import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter, RateLimitRule } from '../../core/shared/rate-limiter.port';

/**
 * Fixed-window limits on rate-limiter-flexible: in process memory by default, or in Redis so that
 * every instance of the app counts against the same window.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly options: { redis?: Redis; keyPrefix?: string } = {}) {}

  async consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    try {
      const res = await this.limiter(rule).consume(key, 1);
      return decision(rule, res, true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(rule, rejection, false);
      throw rejection;
    }
  }

  async peek(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    const res = await this.limiter(rule).get(key);
    if (!res) {
      return { allowed: true, limit: rule.limit, remaining: rule.limit, resetAt: new Date(Date.now() + rule.windowSeconds * 1000), retryAfterSeconds: 0 };
    }
    return decision(rule, res, res.consumedPoints < rule.limit);
  }

  async reset(key: string): Promise<void> {
    await Promise.all([...this.limiters.values()].map((l) => l.delete(key)));
  }

  /** One limiter per distinct rule (keys of different rules are kept apart by their prefix). */
  private limiter(rule: RateLimitRule): RateLimiterAbstract {
    const id = `${rule.limit}/${rule.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const opts = { points: rule.limit, duration: rule.windowSeconds, keyPrefix: `${this.options.keyPrefix ?? 'rl'}:${id}` };
      limiter = this.options.redis ? new RateLimiterRedis({ ...opts, storeClient: this.options.redis, useRedisPackage: false }) : new RateLimiterMemory(opts);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

function decision(rule: RateLimitRule, res: RateLimiterRes, allowed: boolean): RateLimitDecision {
  const remaining = Math.max(0, rule.limit - res.consumedPoints);
  return {
    allowed,
    limit: rule.limit,
    remaining,
    resetAt: new Date(Date.now() + res.msBeforeNext),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}

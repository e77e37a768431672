export interface RateLimitRule {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window ends. */
  resetAt: Date;
  /** Seconds until another request is allowed (0 when allowed). */
  retryAfterSeconds: number;
}

/** Fixed-window counters by key; in-process or shared through Redis across instances. */
export interface RateLimiter {
  consume(key: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  /** The current state without counting a request. */
  peek(key: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  reset(key: string): Promise<void>;
}

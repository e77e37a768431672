import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { MemoryCache, type MemoryCacheOptions } from './memory.cache';


interface Invalidation {
  from: string;
  keys?: string[];
  region?: string;
}

/**
 * The cache of an instance among several: values stay in each process (a hit costs no round trip) and
 * every invalidation is published on Redis, so the other instances drop the same keys within
 * milliseconds. A message lost while Redis is unreachable is healed by the time to live.
 */
export class RedisInvalidatedCache extends MemoryCache {
  private readonly id = randomUUID();
  private readonly subscriber: Redis;
  private readonly ready: Promise<unknown>;
  private readonly channel: string;

  constructor(
    private readonly redis: Redis,
    options: MemoryCacheOptions & { onError?: (error: Error) => void; /** Instances that share this channel invalidate one another. */ channel?: string },
  ) {
    super(options);
    this.channel = options.channel ?? 'cache:invalidate';
    this.subscriber = redis.duplicate();
    this.subscriber.on('error', (error) => options.onError?.(error));
    this.subscriber.on('message', (_channel: string, text: string) => {
      let message: Invalidation;
      try {
        message = JSON.parse(text) as Invalidation;
      } catch {
        return;
      }
      if (message.from === this.id) return;
      this.forgetLocally({ keys: Array.isArray(message.keys) ? message.keys.filter((k) => typeof k === 'string') : undefined, region: typeof message.region === 'string' ? message.region : undefined });
    });
    this.ready = this.subscriber.subscribe(this.channel).catch((error: Error) => options.onError?.(error));
  }

  /** Resolves once this instance hears other instances' invalidations. */
  whenReady(): Promise<unknown> {
    return this.ready;
  }

  override async invalidate(...keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    this.forgetLocally({ keys });
    await this.publish({ from: this.id, keys });
  }

  override async invalidateRegion(region: string): Promise<void> {
    this.forgetLocally({ region });
    await this.publish({ from: this.id, region });
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
  }

  private async publish(message: Invalidation): Promise<void> {
    // The write has happened; a failed broadcast only delays the other instances until the TTL.
    await this.redis.publish(this.channel, JSON.stringify(message)).catch(() => undefined);
  }
}

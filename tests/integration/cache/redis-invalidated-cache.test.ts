import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisInvalidatedCache } from '../../../adapters/cache/redis-invalidated.cache';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the Redis cache invalidation tests are skipped\n');
const describeRedis = REDIS_URL ? describe : describe.skip;

async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeRedis('RedisInvalidatedCache: two instances on one Redis', () => {
  let redis: Redis;
  let first: RedisInvalidatedCache;
  let second: RedisInvalidatedCache;

  beforeEach(async () => {
    redis = new Redis(REDIS_URL!);
    // A channel of its own, so parallel test files do not invalidate one another.
    const channel = `test-cache-${randomBytes(4).toString('hex')}`;
    first = new RedisInvalidatedCache(redis, { ttlMs: 60_000, channel });
    second = new RedisInvalidatedCache(redis, { ttlMs: 60_000, channel });
    await Promise.all([first.whenReady(), second.whenReady()]);
  });

  afterEach(async () => {
    await first.close();
    await second.close();
    redis.disconnect();
  });

  it('an invalidated key is reloaded by the other instance too', async () => {
    let stored = 'free';
    const load = async () => stored;
    await first.getOrLoad('sub:u1', load);
    await second.getOrLoad('sub:u1', load);
    stored = 'pro';
    await first.invalidate('sub:u1');
    expect(await first.getOrLoad('sub:u1', load)).toBe('pro');
    await eventually(async () => (await second.getOrLoad('sub:u1', load)) === 'pro');
  });

  it('an invalidated region is reloaded by the other instance too, and other regions stay', async () => {
    let defaultConfig = 'gpt-4o-mini';
    await second.getOrLoad('mc:app1', async () => defaultConfig);
    await second.getOrLoad('app:app1', async () => 'Support bot');
    defaultConfig = 'claude-3-5-haiku';
    await first.invalidateRegion('mc');
    await eventually(async () => (await second.getOrLoad('mc:app1', async () => defaultConfig)) === 'claude-3-5-haiku');
    expect(await second.getOrLoad('app:app1', async () => 'reloaded')).toBe('Support bot');
  });

  it('ignores malformed messages on its channel', async () => {
    await second.getOrLoad('user:1', async () => 'kept');
    const publisher = new Redis(REDIS_URL!);
    try {
      await publisher.publish((second as unknown as { channel: string }).channel, 'not json');
      await publisher.publish((second as unknown as { channel: string }).channel, JSON.stringify({ from: 'x', keys: 'user:1' }));
    } finally {
      publisher.disconnect();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(await second.getOrLoad('user:1', async () => 'reloaded')).toBe('kept');
  });
});

import { MemoryCache } from '../../../adapters/cache/memory.cache';

/** A load the test finishes when it wants, counting how often it was started. */
function controlledLoad<T>() {
  let calls = 0;
  const pending: Array<(value: T) => void> = [];
  return {
    load: () => {
      calls++;
      return new Promise<T>((resolve) => pending.push(resolve));
    },
    finish: (index: number, value: T) => pending[index]!(value),
    get calls() {
      return calls;
    },
  };
}

describe('MemoryCache', () => {
  let now = 1_000;
  const cacheOf = (ttlMs = 10_000, maxEntries?: number) => new MemoryCache({ ttlMs, maxEntries, now: () => now });

  beforeEach(() => {
    now = 1_000;
  });

  it('loads a key once and answers the cached value until the time to live ends', async () => {
    const cache = cacheOf(5_000);
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await cache.getOrLoad('user:1', load)).toEqual({ n: 1 });
    now += 4_999;
    expect(await cache.getOrLoad('user:1', load)).toEqual({ n: 1 });
    now += 1;
    expect(await cache.getOrLoad('user:1', load)).toEqual({ n: 2 });
  });

  it('caches null answers too (an absent row is a fact as well)', async () => {
    const cache = cacheOf();
    const load = jest.fn(async () => null);
    await cache.getOrLoad('app:x', load);
    expect(await cache.getOrLoad('app:x', load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reloads a key after it is invalidated, and keeps the others', async () => {
    const cache = cacheOf();
    let version = 1;
    await cache.getOrLoad('user:1', async () => version);
    await cache.getOrLoad('user:2', async () => version);
    version = 2;
    await cache.invalidate('user:1');
    expect(await cache.getOrLoad('user:1', async () => version)).toBe(2);
    expect(await cache.getOrLoad('user:2', async () => version)).toBe(1);
  });

  it('reloads every key of an invalidated region and no key of another region', async () => {
    const cache = cacheOf();
    await cache.getOrLoad('mc:a', async () => 'a1');
    await cache.getOrLoad('mc:b', async () => 'b1');
    await cache.getOrLoad('pt:a', async () => 't1');
    await cache.invalidateRegion('mc');
    expect(await cache.getOrLoad('mc:a', async () => 'a2')).toBe('a2');
    expect(await cache.getOrLoad('mc:b', async () => 'b2')).toBe('b2');
    expect(await cache.getOrLoad('pt:a', async () => 't2')).toBe('t1');
    // Values loaded after the invalidation are cached again.
    expect(await cache.getOrLoad('mc:a', async () => 'a3')).toBe('a2');
  });

  it('lets concurrent misses of one key share a single load', async () => {
    const cache = cacheOf();
    const loads = controlledLoad<string>();
    const answers = Promise.all([cache.getOrLoad('sub:1', loads.load), cache.getOrLoad('sub:1', loads.load), cache.getOrLoad('sub:1', loads.load)]);
    loads.finish(0, 'pro');
    expect(await answers).toEqual(['pro', 'pro', 'pro']);
    expect(loads.calls).toBe(1);
  });

  it('does not keep a value whose load overlapped an invalidation of its key', async () => {
    const cache = cacheOf();
    const loads = controlledLoad<string>();
    const stale = cache.getOrLoad('sub:1', loads.load);
    await cache.invalidate('sub:1'); // the plan changed while the old row was on its way
    // A read after the invalidation does not join the stale load: it starts its own.
    const fresh = cache.getOrLoad('sub:1', loads.load);
    expect(loads.calls).toBe(2);
    loads.finish(1, 'pro');
    loads.finish(0, 'free');
    expect(await stale).toBe('free');
    expect(await fresh).toBe('pro');
    expect(await cache.getOrLoad('sub:1', async () => 'loaded again')).toBe('pro');
  });

  it('does not keep a value whose load overlapped an invalidation of its region', async () => {
    const cache = cacheOf();
    const loads = controlledLoad<string>();
    const stale = cache.getOrLoad('mc:a', loads.load);
    await cache.invalidateRegion('mc');
    loads.finish(0, 'old default');
    expect(await stale).toBe('old default');
    expect(await cache.getOrLoad('mc:a', async () => 'new default')).toBe('new default');
  });

  it('does not cache a failed load', async () => {
    const cache = cacheOf();
    await expect(cache.getOrLoad('user:1', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.getOrLoad('user:1', async () => 'back')).toBe('back');
  });

  it('does not keep a value its caller says not to keep (a miss anyone can provoke)', async () => {
    const cache = cacheOf();
    const load = jest.fn(async () => null as string | null);
    await cache.getOrLoad('apikey:unknown', load, { keep: (v) => v !== null });
    await cache.getOrLoad('apikey:unknown', load, { keep: (v) => v !== null });
    expect(load).toHaveBeenCalledTimes(2);
    expect(await cache.getOrLoad('apikey:known', async () => 'key', { keep: (v) => v !== null })).toBe('key');
    expect(await cache.getOrLoad('apikey:known', async () => 'reloaded')).toBe('key');
  });

  it('freezes cached values so no request can change what the next one reads', async () => {
    const cache = cacheOf();
    const value = await cache.getOrLoad('app:1', async () => ({ name: 'App', settings: { colours: ['#fff'] } }));
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.settings.colours)).toBe(true);
    expect(() => {
      (value as { name: string }).name = 'changed';
    }).toThrow(TypeError);
  });

  it('keeps at most maxEntries, dropping the oldest first', async () => {
    const cache = cacheOf(10_000, 2);
    await cache.getOrLoad('user:1', async () => 1);
    await cache.getOrLoad('user:2', async () => 2);
    await cache.getOrLoad('user:3', async () => 3);
    expect(await cache.getOrLoad('user:1', async () => 'reloaded')).toBe('reloaded');
    expect(await cache.getOrLoad('user:3', async () => 'reloaded')).toBe(3);
  });

  it('with a time to live of 0 always loads', async () => {
    const cache = cacheOf(0);
    const load = jest.fn(async () => 'x');
    await cache.getOrLoad('user:1', load);
    await cache.getOrLoad('user:1', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

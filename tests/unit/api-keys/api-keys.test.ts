import { Sha256KeyHasher } from '../../../adapters/crypto/sha256.key-hasher';
import { InMemoryApiKeyRepository } from '../../../adapters/persistence/api-keys/in-memory-api-key.repository';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { FlexibleRateLimiter } from '../../../adapters/rate-limit/flexible.rate-limiter';
import { ApiKeyRateLimitedError } from '../../../core/api-keys/domain/api-key-rate-limited.error';
import { ApiKeyLookup } from '../../../core/api-keys/use-cases/api-key-lookup';
import { MemoryCache } from '../../../adapters/cache/memory.cache';
import { ApiKeyUsageTracker } from '../../../core/api-keys/use-cases/api-key-usage-tracker';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { CreateApiKeyUseCase, type ApiKeyQuotaGuard } from '../../../core/api-keys/use-cases/create-api-key.use-case';
import { DeleteApiKeyUseCase } from '../../../core/api-keys/use-cases/delete-api-key.use-case';
import { ListApiKeysUseCase } from '../../../core/api-keys/use-cases/list-api-keys.use-case';
import { RevokeApiKeyUseCase } from '../../../core/api-keys/use-cases/revoke-api-key.use-case';
import type { Actor } from '../../../core/shared/actor';
import { PaymentRequiredError, UnauthorizedError } from '../../../core/shared/errors';

const CACHE_TTL_MS = 10_000;

const anActor = (userId = '11111111-1111-4111-8111-111111111111'): Actor => ({ userId, role: 'developer' });

/** The API-key use cases on in-memory adapters, with a clock the test moves. */
function aSystem(options: { guard?: ApiKeyQuotaGuard } = {}) {
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = { now: () => now };
  const applications = new InMemoryApplicationRepository();
  const keys = new InMemoryApiKeyRepository(applications);
  const hasher = new Sha256KeyHasher();
  const lookup = new ApiKeyLookup({ keys, cache: new MemoryCache({ ttlMs: CACHE_TTL_MS, now: () => now.getTime() }) });
  const usage = new ApiKeyUsageTracker({ keys });
  return {
    keys,
    applications,
    usage,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    create: new CreateApiKeyUseCase({ keys, applications, hasher, guard: options.guard }),
    list: new ListApiKeysUseCase({ keys, usage }),
    revoke: new RevokeApiKeyUseCase({ keys, lookup, clock }),
    remove: new DeleteApiKeyUseCase({ keys, lookup }),
    authenticate: new AuthenticateApiKeyUseCase({ lookup, hasher, limiter: new FlexibleRateLimiter(), usage, clock }),
  };
}

describe('API keys', () => {
  it('returns the raw key at creation and keeps only its SHA-256 digest', async () => {
    const s = aSystem();
    const created = await s.create.execute({ name: 'Server' }, anActor());
    expect(created.key).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    const [stored] = [...s.keys.keys.values()];
    expect(stored!.keyHash).toBe(new Sha256KeyHasher().hash(created.key));
    expect(JSON.stringify(stored)).not.toContain(created.key.slice(8));
    expect(JSON.stringify(await s.list.execute({}, anActor()))).not.toContain(created.key.slice(8));
  });

  it('runs the plan guard before storing anything, with the owner and the caller', async () => {
    const seen: Array<[string, string]> = [];
    const s = aSystem({
      guard: async (ownerId, callerId) => {
        seen.push([ownerId, callerId]);
        throw new PaymentRequiredError('The Free plan allows 2 API keys');
      },
    });
    await expect(s.create.execute({}, anActor())).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(seen).toEqual([[anActor().userId, anActor().userId]]);
    expect(s.keys.keys.size).toBe(0);
  });

  it("stores no more active keys than the plan's limit, even when the creations overlap", async () => {
    const exceeded = () => new PaymentRequiredError('The Free plan allows 2 API keys');
    const s = aSystem({ guard: async () => ({ max: 2, exceeded }) });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => s.create.execute({}, anActor())));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof PaymentRequiredError)).toBe(true);
    const [first] = [...s.keys.keys.values()];
    await s.revoke.execute(first!.id, anActor());
    expect((await s.create.execute({}, anActor())).isActive).toBe(true);
    expect(await s.keys.countActiveByOwner(anActor().userId)).toBe(2);
  });

  it('admits a key by its raw value and counts the request against its limit', async () => {
    const s = aSystem();
    const created = await s.create.execute({ rateLimit: 10 }, anActor());
    const admitted = await s.authenticate.execute(created.key);
    expect(admitted.key.id).toBe(created.id);
    expect(admitted.rateLimit).toMatchObject({ allowed: true, limit: 10, remaining: 9 });
  });

  it.each([
    [undefined, 'An API key is required in the X-API-Key header'],
    ['', 'An API key is required in the X-API-Key header'],
    ['pk_live_short', 'The API key is not valid'],
    [`pk_live_${'x'.repeat(43)}`, 'The API key is not valid'],
  ])('refuses %j with 401', async (raw, message) => {
    const s = aSystem();
    await expect(s.authenticate.execute(raw)).rejects.toEqual(new UnauthorizedError(message));
  });

  it('refuses the request past the limit with the decision, and does not count it as used', async () => {
    const s = aSystem();
    const created = await s.create.execute({ rateLimit: 10 }, anActor());
    for (let i = 0; i < 10; i++) await s.authenticate.execute(created.key);
    const refusal = await s.authenticate.execute(created.key).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiKeyRateLimitedError);
    expect((refusal as ApiKeyRateLimitedError).decision).toMatchObject({ allowed: false, limit: 10, remaining: 0 });
    expect((refusal as ApiKeyRateLimitedError).retryAfterSeconds).toBeGreaterThan(0);
    expect((await s.list.execute({}, anActor()))[0]!.requestCount).toBe(10);
  });

  it('refuses a revoked key at once, although the key was cached', async () => {
    const s = aSystem();
    const created = await s.create.execute({}, anActor());
    await s.authenticate.execute(created.key);
    await s.revoke.execute(created.id, anActor());
    await expect(s.authenticate.execute(created.key)).rejects.toEqual(new UnauthorizedError('The API key has been revoked'));
  });

  it('refuses a deleted key at once', async () => {
    const s = aSystem();
    const created = await s.create.execute({}, anActor());
    await s.authenticate.execute(created.key);
    await s.remove.execute(created.id, anActor());
    await expect(s.authenticate.execute(created.key)).rejects.toEqual(new UnauthorizedError('The API key is not valid'));
  });

  it('notices a revocation made behind its back once the cache entry expires', async () => {
    const s = aSystem();
    const created = await s.create.execute({}, anActor());
    await s.authenticate.execute(created.key);
    await s.keys.revoke(created.id, new Date()); // as another instance would, behind this one's cache
    await expect(s.authenticate.execute(created.key)).resolves.toBeDefined();
    s.advance(CACHE_TTL_MS + 1);
    await expect(s.authenticate.execute(created.key)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("lists only the caller's keys, newest first", async () => {
    const s = aSystem();
    const first = await s.create.execute({ name: 'first' }, anActor());
    const second = await s.create.execute({ name: 'second' }, anActor());
    await s.create.execute({ name: 'theirs' }, anActor('22222222-2222-4222-8222-222222222222'));
    expect((await s.list.execute({}, anActor())).map((k) => k.id)).toEqual([second.id, first.id]);
  });
});

describe('API key usage tracking', () => {
  it('writes nothing per request, then one batch per flush with the counts and the latest use', async () => {
    const s = aSystem();
    const a = await s.create.execute({}, anActor());
    const b = await s.create.execute({}, anActor());
    const writes = jest.spyOn(s.keys, 'addUsage');
    s.usage.record(a.id, new Date('2026-01-01T00:00:05Z'));
    s.usage.record(a.id, new Date('2026-01-01T00:00:09Z'));
    s.usage.record(a.id, new Date('2026-01-01T00:00:07Z'));
    s.usage.record(b.id, new Date('2026-01-01T00:00:01Z'));
    expect(writes).not.toHaveBeenCalled();
    await s.usage.flush();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(await s.keys.findById(a.id)).toMatchObject({ requestCount: 3, lastUsedAt: new Date('2026-01-01T00:00:09Z') });
    expect(await s.keys.findById(b.id)).toMatchObject({ requestCount: 1 });
    await s.usage.flush();
    expect(writes).toHaveBeenCalledTimes(1);
  });

  it('keeps the counts of a failed flush for the next one', async () => {
    const s = aSystem();
    const a = await s.create.execute({}, anActor());
    s.usage.record(a.id, new Date('2026-01-01T00:00:05Z'));
    jest.spyOn(s.keys, 'addUsage').mockRejectedValueOnce(new Error('database unavailable'));
    await expect(s.usage.flush()).rejects.toThrow('database unavailable');
    s.usage.record(a.id, new Date('2026-01-01T00:00:06Z'));
    await s.usage.flush();
    expect(await s.keys.findById(a.id)).toMatchObject({ requestCount: 2, lastUsedAt: new Date('2026-01-01T00:00:06Z') });
  });

  it('never counts twice when flushes overlap', async () => {
    const s = aSystem();
    const a = await s.create.execute({}, anActor());
    for (let i = 0; i < 5; i++) s.usage.record(a.id, new Date());
    await Promise.all([s.usage.flush(), s.usage.flush(), s.usage.flush()]);
    expect((await s.keys.findById(a.id))!.requestCount).toBe(5);
  });
});

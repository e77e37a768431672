import { TypeOrmApiKeyRepository } from '../../../adapters/persistence/api-keys/type-orm-api-key.repository';
import { InMemoryApiKeyRepository } from '../../../adapters/persistence/api-keys/in-memory-api-key.repository';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryUserRepository } from '../../../adapters/persistence/in-memory/in-memory-user.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { ApiKeyRepository, NewApiKey } from '../../../core/api-keys/ports/api-key-repository.port';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { NotFoundError, PaymentRequiredError } from '../../../core/shared/errors';
import type { OwnerLimit } from '../../../core/shared/owner-limit';
import type { UserRepository } from '../../../core/users/ports/user-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface Repos {
  keys: ApiKeyRepository;
  applications: ApplicationRepository;
  users: UserRepository;
}

const variants: Array<[string, () => Promise<{ repos: Repos; close(): Promise<void> }>]> = [
  ['in-memory', async () => {
    const applications = new InMemoryApplicationRepository();
    return { repos: { keys: new InMemoryApiKeyRepository(applications), applications, users: new InMemoryUserRepository() }, close: async () => undefined };
  }],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<{ repos: Repos; close(): Promise<void> }>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const ds = db.dataSource;
      return {
        repos: { keys: new TypeOrmApiKeyRepository(ds), applications: new TypeOrmApplicationRepository(ds), users: new TypeOrmUserRepository(ds) },
        close: () => db.close(),
      };
    },
  ]),
];

let counter = 0;

describe.each(variants)('API key repository (%s)', (_name, open) => {
  let repos: Repos;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ repos, close } = await open());
  });
  afterAll(() => close());

  const anOwner = async () => {
    const n = ++counter;
    const user = await repos.users.create({ email: `key-owner-${n}@example.com`, displayName: 'Owner', passwordHash: 'x', role: 'developer' });
    const app = await repos.applications.create({ ownerId: user.id, name: 'App', description: '', slug: `key-app-${n}-${Date.now()}`, allowedOrigins: [] });
    return { user, app };
  };
  const aNewKey = (ownerId: string, overrides: Partial<NewApiKey> = {}): NewApiKey => ({
    ownerId,
    applicationId: null,
    name: 'Key',
    keyHash: `hash-${++counter}-${Math.random()}`,
    keyPrefix: 'pk_live_',
    keyHint: 'wxyz',
    rateLimit: 60,
    ...overrides,
  });

  it('creates a key and finds it by id and by digest', async () => {
    const { user, app } = await anOwner();
    const input = aNewKey(user.id, { applicationId: app.id, rateLimit: 10 });
    const key = await repos.keys.create(input);
    expect(key).toMatchObject({ ownerId: user.id, applicationId: app.id, rateLimit: 10, requestCount: 0, lastUsedAt: null, revokedAt: null, keyHint: 'wxyz' });
    expect(key).not.toHaveProperty('keyHash');
    expect(await repos.keys.findById(key.id)).toEqual(key);
    expect(await repos.keys.findByHash(input.keyHash)).toEqual(key);
    expect(await repos.keys.findByHash('no-such-digest')).toBeNull();
  });

  describe("an owner's limit", () => {
    const limitOf = (max: number): OwnerLimit => ({ max, exceeded: () => new PaymentRequiredError(`at most ${max}`) });
    const outcomes = (results: PromiseSettledResult<unknown>[]) => ({
      stored: results.filter((r) => r.status === 'fulfilled').length,
      refusals: results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => (r.reason as Error).constructor.name),
    });

    it('stores exactly the limit of active keys when 20 creations race, and counts revoked keys out', async () => {
      const { user } = await anOwner();
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => repos.keys.create(aNewKey(user.id), limitOf(3))));
      expect(outcomes(results)).toEqual({ stored: 3, refusals: Array(17).fill('PaymentRequiredError') });
      expect(await repos.keys.countActiveByOwner(user.id)).toBe(3);
      const [newest] = await repos.keys.listByOwner(user.id, 0, 1);
      await repos.keys.revoke(newest!.id, new Date());
      await repos.keys.create(aNewKey(user.id), limitOf(3));
      await expect(repos.keys.create(aNewKey(user.id), limitOf(3))).rejects.toBeInstanceOf(PaymentRequiredError);
    });

    it("limits each owner on its own, and still refuses a scope outside the owner's applications", async () => {
      const a = await anOwner();
      const b = await anOwner();
      const results = await Promise.allSettled([a, b, a, b, a, b].map((o) => repos.keys.create(aNewKey(o.user.id), limitOf(2))));
      expect(outcomes(results).stored).toBe(4);
      expect([await repos.keys.countActiveByOwner(a.user.id), await repos.keys.countActiveByOwner(b.user.id)]).toEqual([2, 2]);
      const c = await anOwner();
      await expect(repos.keys.create(aNewKey(c.user.id, { applicationId: a.app.id }), limitOf(2))).rejects.toBeInstanceOf(NotFoundError);
    });

    it('stores exactly the limit of applications when 20 creations race (the owner already holds one)', async () => {
      const { user } = await anOwner();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          repos.applications.create({ ownerId: user.id, name: `App ${i}`, description: '', slug: `race-${user.id.slice(0, 8)}-${i}`, allowedOrigins: [] }, limitOf(3)),
        ),
      );
      expect(outcomes(results)).toEqual({ stored: 2, refusals: Array(18).fill('PaymentRequiredError') });
      expect(await repos.applications.countByOwner(user.id)).toBe(3);
    });

    it('still reports a taken slug as a conflict under a limit', async () => {
      const { user, app } = await anOwner();
      await expect(
        repos.applications.create({ ownerId: user.id, name: 'Again', description: '', slug: app.slug, allowedOrigins: [] }, limitOf(5)),
      ).rejects.toMatchObject({ kind: 'conflict' });
      expect(await repos.applications.countByOwner(user.id)).toBe(1);
    });
  });

  it("refuses a scope that is not one of the owner's applications", async () => {
    const { user } = await anOwner();
    const other = await anOwner();
    await expect(repos.keys.create(aNewKey(user.id, { applicationId: other.app.id }))).rejects.toBeInstanceOf(NotFoundError);
    expect(await repos.keys.listByOwner(user.id, 0, 10)).toEqual([]);
  });

  it('lists the owner\'s keys newest first, paged, and counts the active ones', async () => {
    const { user } = await anOwner();
    // Apart in time: the embedded database's clock counts whole milliseconds, and ties have no order.
    const later = () => new Promise((resolve) => setTimeout(resolve, 3));
    const a = await repos.keys.create(aNewKey(user.id));
    await later();
    const b = await repos.keys.create(aNewKey(user.id));
    await later();
    const c = await repos.keys.create(aNewKey(user.id));
    expect((await repos.keys.listByOwner(user.id, 0, 10)).map((k) => k.id)).toEqual([c.id, b.id, a.id]);
    expect((await repos.keys.listByOwner(user.id, 1, 1)).map((k) => k.id)).toEqual([b.id]);
    await repos.keys.revoke(b.id, new Date());
    expect(await repos.keys.countActiveByOwner(user.id)).toBe(2);
  });

  it('revokes once: a second revocation keeps the first time', async () => {
    const { user } = await anOwner();
    const key = await repos.keys.create(aNewKey(user.id));
    const first = await repos.keys.revoke(key.id, new Date('2026-01-01T00:00:00Z'));
    const second = await repos.keys.revoke(key.id, new Date('2026-02-01T00:00:00Z'));
    expect(first!.revokedAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(second!.revokedAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(await repos.keys.revoke('00000000-0000-4000-8000-000000000000', new Date())).toBeNull();
  });

  it('adds usage batches to the totals, keeps the latest use, and skips deleted keys', async () => {
    const { user } = await anOwner();
    const a = await repos.keys.create(aNewKey(user.id));
    const b = await repos.keys.create(aNewKey(user.id));
    const gone = await repos.keys.create(aNewKey(user.id));
    await repos.keys.delete(gone.id);
    await repos.keys.addUsage([
      { id: a.id, count: 3, lastUsedAt: new Date('2026-01-01T00:00:10Z') },
      { id: b.id, count: 1, lastUsedAt: new Date('2026-01-01T00:00:05Z') },
      { id: gone.id, count: 7, lastUsedAt: new Date('2026-01-01T00:00:05Z') },
    ]);
    // Another instance's older batch: counts add up, the last use does not move back.
    await repos.keys.addUsage([{ id: a.id, count: 2, lastUsedAt: new Date('2026-01-01T00:00:01Z') }]);
    await repos.keys.addUsage([]);
    expect(await repos.keys.findById(a.id)).toMatchObject({ requestCount: 5, lastUsedAt: new Date('2026-01-01T00:00:10Z') });
    expect(await repos.keys.findById(b.id)).toMatchObject({ requestCount: 1, lastUsedAt: new Date('2026-01-01T00:00:05Z') });
    expect(await repos.keys.findById(gone.id)).toBeNull();
  });

  it('deletes a key', async () => {
    const { user } = await anOwner();
    const key = await repos.keys.create(aNewKey(user.id));
    await repos.keys.delete(key.id);
    expect(await repos.keys.findById(key.id)).toBeNull();
  });
});

describe.each(DATABASE_KINDS)('API keys in the schema (%s)', (kind) => {
  it("go with their application or owner, and leave their conversations to the dashboard", async () => {
    const db = await openTestDatabase(kind);
    const ds = db.dataSource;
    try {
      const users = new TypeOrmUserRepository(ds);
      const applications = new TypeOrmApplicationRepository(ds);
      const keys = new TypeOrmApiKeyRepository(ds);
      const user = await users.create({ email: 'schema@example.com', displayName: 'S', passwordHash: 'x', role: 'developer' });
      const app = await applications.create({ ownerId: user.id, name: 'A', description: '', slug: 'schema-app', allowedOrigins: [] });
      const scoped = await keys.create({ ownerId: user.id, applicationId: app.id, name: 'k', keyHash: 'h1', keyPrefix: 'pk_live_', keyHint: 'aaaa', rateLimit: 60 });
      const broad = await keys.create({ ownerId: user.id, applicationId: null, name: 'k', keyHash: 'h2', keyPrefix: 'pk_live_', keyHint: 'bbbb', rateLimit: 60 });
      const [conversation] = await ds.query(`INSERT INTO conversations (application_id, title, source, api_key_id) VALUES ($1, 't', 'api', $2) RETURNING id`, [app.id, broad.id]);
      await expect(ds.query(`INSERT INTO api_keys (owner_id, name, key_hash, key_prefix, key_hint, rate_limit) VALUES ($1, 'k', 'h3', 'p', 'h', 9)`, [user.id])).rejects.toThrow();

      await keys.delete(broad.id);
      expect((await ds.query(`SELECT api_key_id FROM conversations WHERE id = $1`, [conversation.id]))[0].api_key_id).toBeNull();
      await applications.delete(app.id);
      expect(await keys.findById(scoped.id)).toBeNull();
      const last = await keys.create({ ownerId: user.id, applicationId: null, name: 'k', keyHash: 'h4', keyPrefix: 'pk_live_', keyHint: 'cccc', rateLimit: 60 });
      await ds.query(`DELETE FROM users WHERE id = $1`, [user.id]);
      expect(await keys.findById(last.id)).toBeNull();
    } finally {
      await db.close();
    }
  });
});

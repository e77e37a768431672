import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { TypeOrmRefreshTokenRepository } from '../../../adapters/persistence/auth/type-orm-refresh-token.repository';
import { TypeOrmPasswordResetRepository } from '../../../adapters/persistence/auth/type-orm-password-reset.repository';
import type { Database } from '../../../adapters/persistence/data-source';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryPasswordResetRepository } from '../../../adapters/persistence/in-memory/in-memory-password-reset.repository';
import { InMemoryRefreshTokenRepository } from '../../../adapters/persistence/in-memory/in-memory-refresh-token.repository';
import { InMemoryUserRepository } from '../../../adapters/persistence/in-memory/in-memory-user.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import type { PasswordResetRepository } from '../../../core/auth/ports/password-reset-repository.port';
import type { RefreshTokenRepository } from '../../../core/auth/ports/refresh-token-repository.port';
import { ConflictError } from '../../../core/shared/errors';
import type { UserRepository } from '../../../core/users/ports/user-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface Repos {
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  resets: PasswordResetRepository;
  applications: ApplicationRepository;
}

const variants: Array<[string, () => Promise<{ repos: Repos; close(): Promise<void> }>]> = [
  ['in-memory', async () => ({
    repos: { users: new InMemoryUserRepository(), refreshTokens: new InMemoryRefreshTokenRepository(), resets: new InMemoryPasswordResetRepository(), applications: new InMemoryApplicationRepository() },
    close: async () => undefined,
  })],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<{ repos: Repos; close(): Promise<void> }>] => [
    kind,
    async () => {
      const db: Database = await openTestDatabase(kind);
      const ds: DataSource = db.dataSource;
      return {
        repos: { users: new TypeOrmUserRepository(ds), refreshTokens: new TypeOrmRefreshTokenRepository(ds), resets: new TypeOrmPasswordResetRepository(ds), applications: new TypeOrmApplicationRepository(ds) },
        close: () => db.close(),
      };
    },
  ]),
];

describe.each(variants)('account repositories (%s)', (_name, open) => {
  let repos: Repos;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ repos, close } = await open());
  });
  afterAll(() => close());

  const aUser = (email = `${randomUUID()}@example.com`) => repos.users.create({ email, displayName: 'U', role: 'developer', passwordHash: 'h' });

  it('finds users by id and by e-mail in any case, and refuses a duplicate e-mail', async () => {
    const user = await aUser('Case@Example.com');
    expect((await repos.users.findByEmail('case@example.COM'))!.id).toBe(user.id);
    expect((await repos.users.findById(user.id))!.email).toBe('Case@Example.com');
    await expect(aUser('CASE@example.com')).rejects.toBeInstanceOf(ConflictError);
  });

  it('updates only the fields given', async () => {
    const user = await aUser();
    const updated = await repos.users.update(user.id, { displayName: 'New' });
    expect(updated).toMatchObject({ displayName: 'New', passwordHash: 'h', role: 'developer' });
  });

  it('spends a refresh token once, even when two try at the same time', async () => {
    const user = await aUser();
    const id = randomUUID();
    await repos.refreshTokens.create({ id, userId: user.id, familyId: randomUUID(), expiresAt: new Date(Date.now() + 60_000) });
    const results = await Promise.all([repos.refreshTokens.markUsed(id, new Date()), repos.refreshTokens.markUsed(id, new Date())]);
    expect(results.sort()).toEqual([false, true]);
  });

  it('revokes a whole family', async () => {
    const user = await aUser();
    const familyId = randomUUID();
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) await repos.refreshTokens.create({ id, userId: user.id, familyId, expiresAt: new Date(Date.now() + 60_000) });
    await repos.refreshTokens.revokeFamily(familyId, new Date());
    for (const id of ids) expect((await repos.refreshTokens.findById(id))!.revokedAt).toBeInstanceOf(Date);
  });

  it('consumes a reset token once and not after it expires', async () => {
    const user = await aUser();
    const now = new Date();
    await repos.resets.create({ tokenHash: `h-${randomUUID()}`, userId: user.id, expiresAt: new Date(now.getTime() - 1) });
    const live = `h-${randomUUID()}`;
    await repos.resets.create({ tokenHash: live, userId: user.id, expiresAt: new Date(now.getTime() + 60_000) });
    expect(await repos.resets.consume(live, now)).toBe(user.id);
    expect(await repos.resets.consume(live, now)).toBeNull();
  });

  it('keeps application slugs unique and pages an owner list newest first', async () => {
    const user = await aUser();
    const slug = `slug-${randomUUID().slice(0, 8)}`;
    const first = await repos.applications.create({ ownerId: user.id, name: 'A', description: '', slug, allowedOrigins: [] });
    await expect(repos.applications.create({ ownerId: user.id, name: 'B', description: '', slug, allowedOrigins: [] })).rejects.toBeInstanceOf(ConflictError);
    await new Promise((r) => setTimeout(r, 5));
    const second = await repos.applications.create({ ownerId: user.id, name: 'C', description: '', slug: `${slug}-2`, allowedOrigins: ['https://a.example'] });
    const page = await repos.applications.listByOwner(user.id, 0, 1);
    expect(page.total).toBe(2);
    expect(page.items.map((a) => a.id)).toEqual([second.id]);
    expect((await repos.applications.findBySlug(slug))!.id).toBe(first.id);
    const updated = await repos.applications.update(first.id, { themeCustomization: { colors: { primary: '#fff' } } });
    expect(updated.themeCustomization).toEqual({ colors: { primary: '#fff' } });
    await expect(repos.applications.update(second.id, { slug })).rejects.toBeInstanceOf(ConflictError);
  });
});

import { TypeOrmExternalUserRepository } from '../../../adapters/persistence/auth/type-orm-external-user.repository';
import type { Database } from '../../../adapters/persistence/data-source';
import { InMemoryExternalUserRepository } from '../../../adapters/persistence/in-memory/in-memory-external-user.repository';
import { InMemoryUserRepository } from '../../../adapters/persistence/in-memory/in-memory-user.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { placeholderEmail, ResolveExternalUserUseCase } from '../../../core/auth/use-cases/external-users.use-case';
import { ConflictError, UnauthorizedError, ValidationError } from '../../../core/shared/errors';
import { systemClock } from '../../../core/shared/clock.port';
import type { UserRepository } from '../../../core/users/ports/user-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

/** An embedding program's users mapped to platform accounts: one per (issuer, external id), on every store. */
const variants: Array<[string, () => Promise<{ users: UserRepository; useCase: ResolveExternalUserUseCase; close(): Promise<void> }>]> = [
  ['in-memory', async () => {
    const users = new InMemoryUserRepository();
    return { users, useCase: new ResolveExternalUserUseCase({ users, externalUsers: new InMemoryExternalUserRepository(), clock: systemClock, adminEmails: [] }), close: async () => undefined };
  }],
  ...DATABASE_KINDS.map((kind): (typeof variants)[number] => [
    kind,
    async () => {
      const db: Database = await openTestDatabase(kind);
      const users = new TypeOrmUserRepository(db.dataSource);
      const externalUsers = new TypeOrmExternalUserRepository(db.dataSource);
      return { users, useCase: new ResolveExternalUserUseCase({ users, externalUsers, clock: systemClock, adminEmails: [] }), close: () => db.close() };
    },
  ]),
];

describe.each(variants)('external users (%s)', (_name, open) => {
  let users: UserRepository;
  let useCase: ResolveExternalUserUseCase;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ users, useCase, close } = await open());
  });
  afterAll(() => close());

  it('makes one account per external id on first use, also when two first uses run at once', async () => {
    const [a, b] = await Promise.all([useCase.execute({ externalId: 'u-1' }), useCase.execute({ externalId: 'u-1' })]);
    expect(a.user.id).toBe(b.user.id);
    expect([a.created, b.created]).toContain(true);
    const again = await useCase.execute({ externalId: 'u-1', email: 'ignored@example.com' });
    expect(again).toEqual({ user: a.user, created: false });
    expect(a.user).toMatchObject({ email: placeholderEmail('default', 'u-1'), displayName: 'u-1', role: 'developer' });
    // The same id from another issuer is another person.
    const other = await useCase.execute({ externalId: 'u-1', issuer: 'tenant-b', email: 'Person@Example.com', displayName: 'Person' });
    expect(other.user.id).not.toBe(a.user.id);
    expect(other.user).toMatchObject({ email: 'person@example.com', displayName: 'Person' });
  });

  it('never links an existing account by e-mail, refuses bad input and a disabled account', async () => {
    await users.create({ email: 'taken@example.com', displayName: 'T', role: 'developer', passwordHash: 'h' });
    await expect(useCase.execute({ externalId: 'u-2', email: 'taken@example.com' })).rejects.toBeInstanceOf(ConflictError);
    await expect(useCase.execute({ externalId: '' })).rejects.toBeInstanceOf(ValidationError);
    await expect(useCase.execute({ externalId: 'x', issuer: 'a\u0000b' })).rejects.toBeInstanceOf(ValidationError);
    const { user } = await useCase.execute({ externalId: 'u-3' });
    await users.update(user.id, { disabled: true });
    await expect(useCase.execute({ externalId: 'u-3' })).rejects.toBeInstanceOf(UnauthorizedError);
  });
});

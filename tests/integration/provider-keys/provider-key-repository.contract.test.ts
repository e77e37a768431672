import { randomUUID } from 'node:crypto';
import { InMemoryProviderKeyRepository } from '../../../adapters/persistence/provider-keys/in-memory-provider-key.repository';
import { TypeOrmProviderKeyRepository } from '../../../adapters/persistence/provider-keys/type-orm-provider-key.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import type { ProviderKeyRepository } from '../../../core/provider-keys/ports/provider-key-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

type Variant = { keys: ProviderKeyRepository; newUser(): Promise<string>; deleteUser?(id: string): Promise<void>; close(): Promise<void> };

const variants: Array<[string, () => Promise<Variant>]> = [
  ['in-memory', async () => ({ keys: new InMemoryProviderKeyRepository(), newUser: async () => randomUUID(), close: async () => undefined })],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Variant>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const users = new TypeOrmUserRepository(db.dataSource);
      return {
        keys: new TypeOrmProviderKeyRepository(db.dataSource),
        newUser: async () => (await users.create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' })).id,
        deleteUser: (id) => users.delete(id),
        close: () => db.close(),
      };
    },
  ]),
];

const t0 = new Date('2026-03-01T10:00:00.000Z');
const t1 = new Date('2026-03-02T10:00:00.000Z');

describe.each(variants)('provider key repository (%s)', (_name, open) => {
  let v: Variant;
  beforeAll(async () => {
    v = await open();
  });
  afterAll(() => v.close());

  it('saves, finds and lists keys per user in provider order', async () => {
    const user = await v.newUser();
    await v.keys.save({ userId: user, provider: 'provider_c', sealedKey: 'sealed-c', keyHint: 'cccc' }, t0);
    await v.keys.save({ userId: user, provider: 'provider_a', sealedKey: 'sealed-a', keyHint: 'aaaa' }, t0);
    await v.keys.save({ userId: await v.newUser(), provider: 'provider_b', sealedKey: 'sealed-b', keyHint: 'bbbb' }, t0);
    expect(await v.keys.find(user, 'provider_a')).toEqual({
      userId: user,
      provider: 'provider_a',
      sealedKey: 'sealed-a',
      keyHint: 'aaaa',
      isActive: true,
      lastUsedAt: null,
      lastValidatedAt: null,
      createdAt: t0,
      updatedAt: t0,
    });
    expect((await v.keys.listByUser(user)).map((k) => k.provider)).toEqual(['provider_a', 'provider_c']);
    expect(await v.keys.find(user, 'provider_b')).toBeNull();
  });

  it('replaces a key in place, clearing its dates and keeping its creation time', async () => {
    const user = await v.newUser();
    await v.keys.save({ userId: user, provider: 'provider_a', sealedKey: 'first', keyHint: '1111' }, t0);
    await v.keys.markUsed(user, 'provider_a', t0);
    await v.keys.markValidated(user, 'provider_a', t0);
    const replaced = await v.keys.save({ userId: user, provider: 'provider_a', sealedKey: 'second', keyHint: '2222' }, t1);
    expect(replaced).toMatchObject({ sealedKey: 'second', keyHint: '2222', lastUsedAt: null, lastValidatedAt: null, createdAt: t0, updatedAt: t1 });
    expect(await v.keys.listByUser(user)).toHaveLength(1);
  });

  it('records use and validation; use never moves backwards', async () => {
    const user = await v.newUser();
    await v.keys.save({ userId: user, provider: 'provider_d', sealedKey: 's', keyHint: 'dddd' }, t0);
    await v.keys.markUsed(user, 'provider_d', t1);
    await v.keys.markUsed(user, 'provider_d', t0);
    await v.keys.markValidated(user, 'provider_d', t1);
    expect(await v.keys.find(user, 'provider_d')).toMatchObject({ lastUsedAt: t1, lastValidatedAt: t1 });
  });

  it('deletes a key and says whether there was one', async () => {
    const user = await v.newUser();
    await v.keys.save({ userId: user, provider: 'provider_b', sealedKey: 's', keyHint: 'bbbb' }, t0);
    expect(await v.keys.delete(user, 'provider_b')).toBe(true);
    expect(await v.keys.delete(user, 'provider_b')).toBe(false);
    expect(await v.keys.find(user, 'provider_b')).toBeNull();
  });

  it("goes with its user's account", async () => {
    if (!v.deleteUser) return;
    const user = await v.newUser();
    await v.keys.save({ userId: user, provider: 'provider_a', sealedKey: 's', keyHint: 'aaaa' }, t0);
    await v.deleteUser(user);
    expect(await v.keys.listByUser(user)).toEqual([]);
  });
});

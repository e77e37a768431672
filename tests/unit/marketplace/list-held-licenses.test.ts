import { randomUUID } from 'node:crypto';
import { InMemoryLicenseRepository } from '../../../adapters/persistence/marketplace/in-memory-license.repository';
import type { Item } from '../../../core/marketplace/domain/item';
import { ListHeldLicensesUseCase } from '../../../core/marketplace/use-cases/list-held-licenses.use-case';
import { UnauthorizedError, ValidationError } from '../../../core/shared/errors';

const aPlugin = (name: string): Item => ({
  id: randomUUID(), kind: 'plugin', name, slug: name, displayName: `The ${name}`, description: '', category: 'analytics', authorId: randomUUID(), authorName: 'Ada',
  authorUrl: null, homepage: null, repositoryUrl: null, iconUrl: null, previewUrl: null, screenshots: [], isPaid: true, price: 9, manifest: {}, defaultStyles: null,
  version: '1.0.0', status: 'published', rejectionReason: null, reviewedAt: null, featured: false, downloadCount: 0,
  ratingStats: { averageRating: 0, totalReviews: 0, distribution: { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 } },
  createdAt: new Date(0), updatedAt: new Date(0), publishedAt: new Date(0),
});

function setup() {
  let now = new Date('2026-01-01T00:00:00Z');
  const items = new Map<string, Item>();
  const licenses = new InMemoryLicenseRepository({ itemOf: (id) => items.get(id) ?? null, clock: { now: () => now } });
  const holder = { userId: randomUUID(), role: 'user' } as const;
  const other = { userId: randomUUID(), role: 'user' } as const;
  const buy = async (userId: string, name: string) => {
    const item = aPlugin(name);
    items.set(item.id, item);
    now = new Date(now.getTime() + 60_000);
    return licenses.issue({ itemId: item.id, userId, keyHash: `hash-${name}`, keyHint: 'zz99', expiresAt: null, issuedBy: item.authorId });
  };
  return { list: new ListHeldLicensesUseCase({ licenses }), buy, holder, other };
}

describe('ListHeldLicensesUseCase (in-memory licenses)', () => {
  it("lists only the caller's own licenses, newest first, with the plugin and no key, hint or issuer", async () => {
    const { list, buy, holder, other } = setup();
    const older = await buy(holder.userId, 'older');
    await buy(other.userId, 'theirs');
    const newer = await buy(holder.userId, 'newer');
    const page = await list.execute({}, holder);
    expect(page).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(page.data.map((l) => l.id)).toEqual([newer.id, older.id]);
    expect(page.data[0]).toEqual({
      id: newer.id,
      plugin: expect.objectContaining({ id: newer.itemId, name: 'newer', displayName: 'The newer', isActive: true }),
      status: 'active',
      expiresAt: null,
      createdAt: newer.createdAt.toISOString(),
    });
    expect(JSON.stringify(page)).not.toMatch(/zz99|hash-|issuedBy|userId/);
  });

  it('pages with page and limit, keeping the total', async () => {
    const { list, buy, holder } = setup();
    const bought = [];
    for (const name of ['a', 'b', 'c']) bought.push(await buy(holder.userId, name));
    const second = await list.execute({ page: '2', limit: '2' }, holder);
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(second.data.map((l) => l.id)).toEqual([bought[0]!.id]);
    expect((await list.execute({ page: '3', limit: '2' }, holder)).data).toEqual([]);
  });

  it('refuses bad paging with a validation error naming the field, and an anonymous caller', async () => {
    const { list, holder } = setup();
    await expect(list.execute({ page: '0' }, holder)).rejects.toThrow(ValidationError);
    await expect(list.execute({ limit: '101' }, holder)).rejects.toThrow(/limit/);
    await expect(list.execute({ page: ['1', '2'] }, holder)).rejects.toThrow(/page must be given once/);
    await expect(list.execute({}, undefined)).rejects.toThrow(UnauthorizedError);
  });
});

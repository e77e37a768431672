import { randomUUID } from 'node:crypto';
import { InMemoryDataExportRepository } from '../../../adapters/persistence/data-export/in-memory-data-export.repository';
import { TypeOrmDataExportRepository } from '../../../adapters/persistence/data-export/type-orm-data-export.repository';
import type { DataExport } from '../../../core/data-export/domain/data-export';
import type { DataExportRepository } from '../../../core/data-export/ports/data-export.ports';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface Subject {
  exports: DataExportRepository;
  aUser(): Promise<string>;
  close(): Promise<void>;
}

const variants: Array<[string, () => Promise<Subject>]> = [
  ['in-memory', async () => ({ exports: new InMemoryDataExportRepository(), aUser: async () => randomUUID(), close: async () => undefined })],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Subject>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const aUser = async () => {
        const [row] = (await db.dataSource.query(`INSERT INTO users (email, display_name, password_hash) VALUES ($1, 'U', 'h') RETURNING id`, [`${randomUUID()}@example.com`])) as { id: string }[];
        return row!.id;
      };
      return { exports: new TypeOrmDataExportRepository(db.dataSource), aUser, close: () => db.close() };
    },
  ]),
];

const HOUR = 3_600_000;
const base = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);

describe.each(variants)('DataExportRepository contract (%s)', (_name, open) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(() => subject.close());

  /** A finished export requested at `minutes` past the base time. */
  const aFinishedExport = async (ownerId: string, minutes: number): Promise<DataExport> => {
    const created = await subject.exports.create({ ownerId, resources: 'all', format: 'json', createdAt: at(minutes), expiresAt: new Date(at(minutes).getTime() + 24 * HOUR), staleBefore: at(minutes - 60) });
    expect(created).not.toBeNull();
    await subject.exports.complete(created!.id, { fileName: `${created!.id}.json`, byteSize: 10 + minutes, at: at(minutes + 1) });
    return (await subject.exports.findById(created!.id))!;
  };

  it('creates a pending export, and no second one while it is pending and fresh', async () => {
    const ownerId = await subject.aUser();
    const request = { ownerId, resources: 'applications' as const, format: 'csv' as const, createdAt: at(0), expiresAt: at(24 * 60), staleBefore: at(-60) };
    const created = await subject.exports.create(request);
    expect(created).toMatchObject({ ownerId, resources: 'applications', format: 'csv', status: 'pending', fileName: null, byteSize: null, createdAt: at(0), expiresAt: at(24 * 60) });
    expect(await subject.exports.findById(created!.id)).toEqual(created);
    expect(await subject.exports.create({ ...request, createdAt: at(1), staleBefore: at(-59) })).toBeNull();
    expect(await subject.exports.create({ ...request, createdAt: at(61), staleBefore: at(1) })).not.toBeNull();
  });

  it("lists only the owner's exports, newest first, paged, with the total", async () => {
    const ownerId = await subject.aUser();
    const older = await aFinishedExport(ownerId, 0);
    const newer = await aFinishedExport(ownerId, 10);
    const middle = await aFinishedExport(ownerId, 5);
    await aFinishedExport(await subject.aUser(), 20);
    expect(await subject.exports.listByOwner(ownerId, 0, 10)).toEqual({ items: [newer, middle, older], total: 3 });
    expect(await subject.exports.listByOwner(ownerId, 1, 1)).toEqual({ items: [middle], total: 3 });
    expect(await subject.exports.listByOwner(ownerId, 3, 10)).toEqual({ items: [], total: 3 });
    expect(await subject.exports.listByOwner(await subject.aUser(), 0, 10)).toEqual({ items: [], total: 0 });
  });

  it('orders exports requested at the same moment by id, the same way on every page', async () => {
    const ownerId = await subject.aUser();
    const twins = [await aFinishedExport(ownerId, 30), await aFinishedExport(ownerId, 30), await aFinishedExport(ownerId, 30)];
    const expected = twins.map((e) => e.id).sort().reverse();
    const pages = [await subject.exports.listByOwner(ownerId, 0, 2), await subject.exports.listByOwner(ownerId, 2, 2)];
    expect(pages.flatMap((p) => p.items.map((e) => e.id))).toEqual(expected);
  });

  it('claims a pending export once, and records its end', async () => {
    const ownerId = await subject.aUser();
    const created = (await subject.exports.create({ ownerId, resources: 'all', format: 'json', createdAt: at(0), expiresAt: at(24 * 60), staleBefore: at(-60) }))!;
    expect(await subject.exports.claim(created.id)).toMatchObject({ id: created.id, status: 'running' });
    expect(await subject.exports.claim(created.id)).toBeNull();
    await subject.exports.fail(created.id, 'The export could not be written', at(2));
    expect(await subject.exports.findById(created.id)).toMatchObject({ status: 'failed', error: 'The export could not be written', completedAt: at(2) });
  });

  it('removes expired exports, answering their files, and says which still exist', async () => {
    const ownerId = await subject.aUser();
    const expiring = await aFinishedExport(ownerId, -48 * 60);
    const kept = await aFinishedExport(ownerId, 0);
    expect(await subject.exports.removeExpired(at(60))).toContain(expiring.fileName);
    expect(await subject.exports.existing([expiring.id, kept.id, randomUUID()])).toEqual(new Set([kept.id]));
    expect((await subject.exports.listByOwner(ownerId, 0, 10)).items.map((e) => e.id)).toEqual([kept.id]);
  });
});

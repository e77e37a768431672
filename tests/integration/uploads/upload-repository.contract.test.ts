import { randomUUID } from 'node:crypto';
import { InMemoryUploadRepository } from '../../../adapters/persistence/uploads/in-memory-upload.repository';
import { TypeOrmUploadRepository } from '../../../adapters/persistence/uploads/type-orm-upload.repository';
import type { NewUpload, UploadRepository } from '../../../core/uploads/ports/upload-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

interface Subject {
  uploads: UploadRepository;
  aUser(): Promise<string>;
  close(): Promise<void>;
}

const variants: Array<[string, () => Promise<Subject>]> = [
  ['in-memory', async () => ({ uploads: new InMemoryUploadRepository(), aUser: async () => randomUUID(), close: async () => undefined })],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Subject>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      const aUser = async () => {
        const [row] = (await db.dataSource.query(`INSERT INTO users (email, display_name, password_hash) VALUES ($1, 'U', 'h') RETURNING id`, [`${randomUUID()}@example.com`])) as { id: string }[];
        return row!.id;
      };
      return { uploads: new TypeOrmUploadRepository(db.dataSource), aUser, close: () => db.close() };
    },
  ]),
];

const anUpload = (ownerId: string, overrides: Partial<NewUpload> = {}): NewUpload => ({
  ownerId,
  fileName: 'photo.png',
  mimeType: 'image/png',
  kind: 'image',
  sizeBytes: 2048,
  storageKey: `files/${randomUUID()}.png`,
  ...overrides,
});

describe.each(variants)('UploadRepository contract (%s)', (_name, open) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(() => subject.close());

  it('stores and finds an upload', async () => {
    const ownerId = await subject.aUser();
    const created = await subject.uploads.create(anUpload(ownerId));
    expect(created).toMatchObject({ ownerId, fileName: 'photo.png', mimeType: 'image/png', kind: 'image', sizeBytes: 2048 });
    expect(await subject.uploads.findById(created.id)).toEqual(created);
  });

  it("names the stored files of the owner's uploads only", async () => {
    const ownerId = await subject.aUser();
    const mine = [(await subject.uploads.create(anUpload(ownerId))).storageKey, (await subject.uploads.create(anUpload(ownerId))).storageKey];
    await subject.uploads.create(anUpload(await subject.aUser()));
    expect((await subject.uploads.storageKeysByOwner(ownerId)).sort()).toEqual([...mine].sort());
  });

  it("lists only the owner's uploads, newest first, paged", async () => {
    const ownerId = await subject.aUser();
    const older = await subject.uploads.create(anUpload(ownerId, { fileName: 'older.txt' }));
    // Apart in time: the embedded database's clock counts whole milliseconds, and ties have no order.
    await new Promise((r) => setTimeout(r, 3));
    const newer = await subject.uploads.create(anUpload(ownerId, { fileName: 'newer.txt' }));
    await subject.uploads.create(anUpload(await subject.aUser()));
    expect(await subject.uploads.listByOwner(ownerId, 0, 10)).toEqual({ items: [newer, older], total: 2 });
    expect(await subject.uploads.listByOwner(ownerId, 1, 10)).toEqual({ items: [older], total: 2 });
  });

  it('deletes once', async () => {
    const { id } = await subject.uploads.create(anUpload(await subject.aUser()));
    expect(await subject.uploads.delete(id)).toBe(true);
    expect(await subject.uploads.delete(id)).toBe(false);
    expect(await subject.uploads.findById(id)).toBeNull();
  });
});

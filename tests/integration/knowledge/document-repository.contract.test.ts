import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/in-memory-knowledge-document.repository';
import { TypeOrmKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/type-orm-knowledge-document.repository';
import type { KnowledgeDocumentRepository, NewKnowledgeDocument } from '../../../core/knowledge/ports/knowledge-document-repository.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { anApplicationRow } from './fixtures';

interface Subject {
  documents: KnowledgeDocumentRepository;
  anApplication(): Promise<{ applicationId: string; userId: string }>;
  close(): Promise<void>;
}

const variants: Array<[string, () => Promise<Subject>]> = [
  [
    'in-memory',
    async () => {
      const applications = new InMemoryApplicationRepository();
      let n = 0;
      return {
        documents: new InMemoryKnowledgeDocumentRepository(applications),
        anApplication: async () => {
          const app = await applications.create({ ownerId: `owner-${++n}`, name: 'K', description: '', slug: `k-${n}`, allowedOrigins: [] });
          return { applicationId: app.id, userId: app.ownerId };
        },
        close: async () => undefined,
      };
    },
  ],
  ...DATABASE_KINDS.map((kind): [string, () => Promise<Subject>] => [
    kind,
    async () => {
      const db = await openTestDatabase(kind);
      return { documents: new TypeOrmKnowledgeDocumentRepository(db.dataSource), anApplication: () => anApplicationRow(db.dataSource), close: () => db.close() };
    },
  ]),
];

let files = 0;
const aNewDocument = (applicationId: string, overrides: Partial<NewKnowledgeDocument> = {}): NewKnowledgeDocument => ({
  applicationId,
  fileName: 'guide.md',
  format: 'md',
  sizeBytes: 1234,
  storageKey: `knowledge/doc-${++files}-${Date.now()}.md`,
  chunkSize: 1000,
  chunkOverlap: 200,
  embeddingProvider: 'local',
  embeddingModel: 'local-hash-384',
  embeddingDimension: 384,
  ...overrides,
});

describe.each(variants)('KnowledgeDocumentRepository contract (%s)', (_name, open) => {
  let subject: Subject;
  beforeAll(async () => {
    subject = await open();
  });
  afterAll(() => subject.close());

  it('creates a document in processing and finds it with its owner', async () => {
    const { applicationId, userId } = await subject.anApplication();
    const created = await subject.documents.create(aNewDocument(applicationId));
    expect(created).toMatchObject({ applicationId, status: 'processing', progress: 0, chunkCount: 0, error: null, attempts: 0, embeddingDimension: 384 });
    expect(await subject.documents.findWithOwner(created.id)).toEqual({ document: created, ownerId: userId });
  });

  it('counts runs, reports progress and becomes ready once', async () => {
    const { applicationId } = await subject.anApplication();
    const { id } = await subject.documents.create(aNewDocument(applicationId));
    expect(await subject.documents.startRun(id)).toBe(1);
    expect(await subject.documents.setProgress(id, 42)).toBe(true);
    expect((await subject.documents.findById(id))!.progress).toBe(42);
    expect(await subject.documents.markReady(id, { chunkCount: 7, embeddingModel: 'local-hash-384', embeddingDimension: 384 })).toBe(true);
    expect(await subject.documents.findById(id)).toMatchObject({ status: 'ready', progress: 100, chunkCount: 7, attempts: 1 });
    // A finished document is never revived or changed by a late run.
    expect(await subject.documents.startRun(id)).toBeNull();
    expect(await subject.documents.setProgress(id, 10)).toBe(false);
    expect(await subject.documents.markError(id, 'late')).toBe(false);
    expect((await subject.documents.findById(id))!.status).toBe('ready');
  });

  it('records the reason of an error', async () => {
    const { applicationId } = await subject.anApplication();
    const { id } = await subject.documents.create(aNewDocument(applicationId));
    expect(await subject.documents.markError(id, 'Embedding failed: provider_a is down')).toBe(true);
    expect(await subject.documents.findById(id)).toMatchObject({ status: 'error', error: 'Embedding failed: provider_a is down' });
    expect(await subject.documents.markReady(id, { chunkCount: 1, embeddingModel: 'm', embeddingDimension: 3 })).toBe(false);
  });

  it('groups ready documents by embedding model and leaves out the rest', async () => {
    const { applicationId } = await subject.anApplication();
    const ready = async (overrides: Partial<NewKnowledgeDocument>, chunkCount = 3) => {
      const d = await subject.documents.create(aNewDocument(applicationId, overrides));
      await subject.documents.markReady(d.id, { chunkCount, embeddingModel: d.embeddingModel, embeddingDimension: d.embeddingDimension ?? 0 });
      return d.id;
    };
    const a = await ready({ fileName: 'a.md' });
    const b = await ready({ fileName: 'b.md' });
    const c = await ready({ fileName: 'c.md', embeddingProvider: 'provider_a', embeddingModel: 'text-embedding-3-small', embeddingDimension: 1536 });
    await ready({ fileName: 'empty.md' }, 0);
    await subject.documents.create(aNewDocument(applicationId, { fileName: 'pending.md' }));
    const failed = await subject.documents.create(aNewDocument(applicationId));
    await subject.documents.markError(failed.id, 'x');

    const groups = await subject.documents.readyGroups(applicationId);

    const sortDocs = (docs: { id: string; fileName: string }[]) => [...docs].sort((x, y) => x.fileName.localeCompare(y.fileName));
    expect(groups.map((g) => ({ ...g, documents: sortDocs(g.documents) }))).toEqual([
      { baseId: applicationId, provider: 'local', model: 'local-hash-384', dimension: 384, documents: [{ id: a, fileName: 'a.md' }, { id: b, fileName: 'b.md' }] },
      { baseId: applicationId, provider: 'provider_a', model: 'text-embedding-3-small', dimension: 1536, documents: [{ id: c, fileName: 'c.md' }] },
    ]);
    expect(await subject.documents.readyGroupsOfBase(applicationId)).toEqual(groups);
    expect(await subject.documents.readyGroups((await subject.anApplication()).applicationId)).toEqual([]);
  });

  it("names the stored files of an application's documents, and of all the owner's applications", async () => {
    const { applicationId, userId } = await subject.anApplication();
    const other = await subject.anApplication();
    const keys = [(await subject.documents.create(aNewDocument(applicationId))).storageKey, (await subject.documents.create(aNewDocument(applicationId))).storageKey];
    const otherKey = (await subject.documents.create(aNewDocument(other.applicationId))).storageKey;
    expect((await subject.documents.storageKeysByApplication(applicationId)).sort()).toEqual([...keys].sort());
    expect((await subject.documents.storageKeysByOwner(userId)).sort()).toEqual([...keys].sort());
    expect(await subject.documents.storageKeysByOwner(other.userId)).toEqual([otherKey]);
  });

  it('lists processing documents unchanged since a moment', async () => {
    const { applicationId } = await subject.anApplication();
    const stale = await subject.documents.create(aNewDocument(applicationId));
    const cutoff = new Date(Date.now() + 1000);
    const listed = (await subject.documents.listProcessing(cutoff)).map((d) => d.id);
    expect(listed).toContain(stale.id);
    expect((await subject.documents.listProcessing(new Date(stale.updatedAt.getTime() - 1000))).map((d) => d.id)).not.toContain(stale.id);
  });

  it('lists an application’s documents newest first, paged, and deletes one', async () => {
    const { applicationId } = await subject.anApplication();
    const first = await subject.documents.create(aNewDocument(applicationId, { fileName: 'first.md' }));
    // Apart in time: the embedded database's clock counts whole milliseconds, and ties have no order.
    await new Promise((r) => setTimeout(r, 3));
    const second = await subject.documents.create(aNewDocument(applicationId, { fileName: 'second.md' }));
    const page = await subject.documents.listByApplication(applicationId, 0, 1);
    expect(page).toMatchObject({ total: 2, items: [{ id: second.id }] });
    expect((await subject.documents.delete(first.id))!.storageKey).toBe(first.storageKey);
    expect(await subject.documents.delete(first.id)).toBeNull();
    expect((await subject.documents.listByApplication(applicationId, 0, 10)).total).toBe(1);
  });
});

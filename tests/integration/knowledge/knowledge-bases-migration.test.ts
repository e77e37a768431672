import type { DataSource } from 'typeorm';
import type { Database } from '../../../adapters/persistence/data-source';
import { openVectorIndex } from '../../../adapters/persistence/knowledge/open-vector-index';
import { TypeOrmKnowledgeBaseRepository } from '../../../adapters/persistence/knowledge/type-orm-knowledge-base.repository';
import { TypeOrmKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/type-orm-knowledge-document.repository';
import { KnowledgeBases1764601000000 } from '../../../adapters/persistence/migrations/1764601000000-knowledge-bases';
import type { IndexedChunk } from '../../../core/knowledge/ports/vector-index.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { aDocumentRow, anApplicationRow, randomUnitVector, seeded } from './fixtures';

const SPACE = 'local:local-hash-384';
const random = seeded(48);
const chunks = (texts: string[]): IndexedChunk[] => texts.map((content, i) => ({ chunkIndex: i, content, tokenCount: 8, vector: randomUnitVector(random, 384) }));

/** Everything the knowledge tables hold, in a form two snapshots can be compared by. */
async function snapshot(ds: DataSource) {
  const q = (sql: string) => ds.query(sql) as Promise<unknown[]>;
  return {
    documents: await q(`SELECT id, application_id, file_name, status, chunk_count, generation, version, content_hash FROM knowledge_documents ORDER BY id`),
    versions: await q(`SELECT document_id, version, file_name, storage_key, created_by FROM knowledge_document_versions ORDER BY document_id, version`),
    chunks: await q(`SELECT document_id, application_id, generation, chunk_index, content FROM knowledge_chunks ORDER BY document_id, generation, chunk_index`),
    words: await q(`SELECT application_id, space, word, chunks FROM knowledge_words ORDER BY application_id, space, word`),
    settings: await q(`SELECT application_id, top_k, score_threshold FROM knowledge_retrieval_settings ORDER BY application_id`),
  };
}

// The migration that makes each application's documents its own knowledge base, run over data written before it.
describe.each(DATABASE_KINDS)('knowledge bases migration (%s)', (kind) => {
  let db: Database;
  let ds: DataSource;

  beforeAll(async () => {
    db = await openTestDatabase(kind);
    ds = db.dataSource;
    // Back to the schema before the migration, to write data as the platform did then.
    const runner = ds.createQueryRunner();
    try {
      await new KnowledgeBases1764601000000().down(runner);
    } finally {
      await runner.release();
    }
  });
  afterAll(() => db.close());

  it('gives every application its own base holding its documents, chunks, versions and settings, nothing lost; search and ownership read through it', async () => {
    const index = await openVectorIndex(ds);
    const withDocs = await anApplicationRow(ds);
    const empty = await anApplicationRow(ds);
    const manual = await aDocumentRow(ds, withDocs.applicationId, { fileName: 'pump-manual.txt' });
    await index.add({ documentId: manual, applicationId: withDocs.applicationId, space: SPACE }, chunks(['The pump PX-200 needs a new gasket every spring', 'Bleed the valve before the first start']));
    await ds.query(`UPDATE knowledge_documents SET status = 'ready', chunk_count = 2 WHERE id = $1`, [manual]);
    await ds.query(
      `INSERT INTO knowledge_document_versions (document_id, version, file_name, format, size_bytes, storage_key, created_by) SELECT id, 1, file_name, format, size_bytes, storage_key, $2 FROM knowledge_documents WHERE id = $1`,
      [manual, withDocs.userId],
    );
    await ds.query(`INSERT INTO knowledge_retrieval_settings (application_id, top_k, score_threshold) VALUES ($1, 5, 0.3)`, [withDocs.applicationId]);
    const before = await snapshot(ds);
    expect(before.chunks).toHaveLength(2);
    expect(before.words.length).toBeGreaterThan(0);

    const runner = ds.createQueryRunner();
    try {
      await new KnowledgeBases1764601000000().up(runner);
    } finally {
      await runner.release();
    }

    expect(await snapshot(ds)).toEqual(before);
    const bases = (await ds.query(`SELECT id, application_id, owner_id, team_id, name FROM knowledge_bases ORDER BY id`)) as Array<Record<string, unknown>>;
    const apps = (await ds.query(`SELECT id, name FROM applications ORDER BY id`)) as Array<{ id: string; name: string }>;
    expect(bases).toEqual(apps.map((a) => ({ id: a.id, application_id: a.id, owner_id: null, team_id: null, name: a.name })));

    const documents = new TypeOrmKnowledgeDocumentRepository(ds);
    expect(await documents.findWithOwner(manual)).toMatchObject({ document: { id: manual, applicationId: withDocs.applicationId }, ownerId: withDocs.userId });
    const [group] = await documents.readyGroups(withDocs.applicationId);
    expect(group).toMatchObject({ baseId: withDocs.applicationId, documents: [{ id: manual, fileName: 'pump-manual.txt' }] });
    const found = await index.candidates({ applicationId: withDocs.applicationId, space: SPACE, vector: randomUnitVector(random, 384), text: 'gasket', mode: 'keyword', documentIds: [manual], limit: 5 });
    expect(found.keyword.map((h) => h.content)).toEqual(['The pump PX-200 needs a new gasket every spring']);
    expect(await documents.readyGroups(empty.applicationId)).toEqual([]);
    const own = await new TypeOrmKnowledgeBaseRepository(ds).findById(empty.applicationId);
    expect(own).toMatchObject({ id: empty.applicationId, applicationId: empty.applicationId, ownerId: empty.userId, teamId: null });

    // An application created afterwards gets its base with it; deleting an application takes its base and documents along.
    const later = await anApplicationRow(ds);
    expect(await new TypeOrmKnowledgeBaseRepository(ds).findById(later.applicationId)).toMatchObject({ applicationId: later.applicationId, ownerId: later.userId });
    await ds.query(`DELETE FROM applications WHERE id = $1`, [withDocs.applicationId]);
    expect(await ds.query(`SELECT 1 FROM knowledge_bases WHERE id = $1`, [withDocs.applicationId])).toEqual([]);
    expect(await ds.query(`SELECT 1 FROM knowledge_chunks WHERE application_id = $1`, [withDocs.applicationId])).toEqual([]);
    expect(await ds.query(`SELECT 1 FROM knowledge_words WHERE application_id = $1`, [withDocs.applicationId])).toEqual([]);
  });
});

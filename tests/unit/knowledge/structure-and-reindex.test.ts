import { LibraryDocumentParser } from '../../../adapters/documents/library.document-parser';
import { chunkSections } from '../../../core/knowledge/domain/chunker';
import { citationOf } from '../../../core/knowledge/domain/document-section';
import { rankCandidates } from '../../../core/knowledge/domain/hybrid-ranking';
import type { ChunkHit } from '../../../core/knowledge/ports/vector-index.port';
import { ReindexDocumentUseCase } from '../../../core/knowledge/use-cases/reindex-document.use-case';
import { ConflictError } from '../../../core/shared/errors';
import { knowledgeWorld } from './knowledge-world';

const parser = new LibraryDocumentParser();

describe('structure-aware chunks', () => {
  it('cuts Markdown where its headings start, with the heading path, and never mistakes a # in a code block for one', () => {
    const md = ['Intro line.', '# Setup', 'Install it.', '```', '# not a heading', '```', '## Linux', 'Use apt.', '# Usage', 'Run it.'].join('\n');
    const chunks = chunkSections(parser.parseText('md', md));
    expect(chunks.map((c) => [c.section, c.content])).toEqual([
      [null, 'Intro line.'],
      ['Setup', '# Setup\nInstall it.\n```\n# not a heading\n```'],
      ['Setup > Linux', '## Linux\nUse apt.'],
      ['Usage', '# Usage\nRun it.'],
    ]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
  });

  it('cuts HTML at h1-h6, a long section by size, each piece keeping its section', () => {
    const html = `<h1>Guide</h1><p>${'Word '.repeat(60)}</p><h2>Details</h2><p>Short.</p>`;
    const chunks = chunkSections(parser.parseText('html', html), { chunkSize: 150, chunkOverlap: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.at(-1)).toMatchObject({ section: 'Guide > Details', content: 'Details\n\nShort.' });
    expect(chunks.slice(0, -1).every((c) => c.section === 'Guide' && c.content.length <= 150)).toBe(true);
  });

  it('names a citation by file, page and section', () => {
    expect(citationOf('handbook.pdf', { page: 12, section: null })).toBe('handbook.pdf, p. 12');
    expect(citationOf('guide.docx', { page: null, section: 'Leave > Sick leave' })).toBe('guide.docx, Leave > Sick leave');
  });
});

describe('reciprocal rank fusion', () => {
  const hit = (chunkIndex: number, score: number, keywordScore?: number): ChunkHit => ({
    documentId: 'd', chunkIndex, content: `c${chunkIndex}`, tokenCount: 1, score, page: null, section: null, ...(keywordScore === undefined ? {} : { keywordScore }),
  });

  it('ranks a keyword candidate the vector walk missed by its exact cosine too, so the best of both comes first', () => {
    const vector = [hit(1, 0.6), hit(2, 0.5), hit(3, 0.4)];
    const keyword = [hit(9, 0.7, 5), hit(2, 0.5, 1)];
    expect(rankCandidates({ vector, keyword }, 'hybrid', 3).map((h) => [h.chunkIndex, h.byKeyword])).toEqual([[9, true], [2, true], [1, false]]);
    expect(rankCandidates({ vector, keyword }, 'vector', 3).map((h) => h.chunkIndex)).toEqual([1, 2, 3]);
    expect(rankCandidates({ vector, keyword }, 'keyword', 3).map((h) => h.chunkIndex)).toEqual([9, 2]);
  });
});

describe('re-indexing and duplicate uploads', () => {
  const text = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} explains topic ${i} with enough words to fill a line.`).join('\n\n');

  it('refuses the same file twice in one application with 409 naming the first', async () => {
    const world = await knowledgeWorld();
    const first = await world.add('guide.txt', text);
    await expect(world.add('copy-of-guide.txt', text)).rejects.toThrow(new ConflictError(`This file is already in the knowledge base as "guide.txt" (document ${first.id})`));
  });

  it('builds the new chunks beside the live ones, which search keeps finding until the switch', async () => {
    const world = await knowledgeWorld();
    const doc = await world.add('guide.txt', text, { chunkSize: '100', chunkOverlap: '0' });
    await world.process.execute({ documentId: doc.id });
    expect((await world.documents.findById(doc.id))!.chunkCount).toBe(8);
    // Every chunk holds "topic": the hits are the live chunks, none of the generation being built.
    const search = async () => (await world.retriever.retrieve(world.app, 'topic', { limit: 20, mode: 'keyword' })).length;
    expect(await search()).toBe(8);

    const reindex = new ReindexDocumentUseCase({ documents: world.documents, queue: world.queue });
    const view = await reindex.execute(doc.id, { chunkSize: 1000, chunkOverlap: 0 }, world.actor);
    expect(view).toMatchObject({ status: 'ready', chunkSize: 100, reindexing: { chunkSize: 1000, chunkOverlap: 0 } });
    // Halfway: the new generation's chunks are written but not live; search reads the old ones only.
    const add = world.index.add.bind(world.index);
    let during: number | undefined;
    world.index.add = async (target, chunks) => {
      await add(target, chunks);
      during = await search();
    };
    await world.process.execute({ documentId: doc.id, generation: 1 });
    expect(during).toBe(8);
    expect(await world.documents.findById(doc.id)).toMatchObject({ status: 'ready', chunkSize: 1000, chunkCount: 1, generation: 1, pendingGeneration: null });
    expect(world.index.chunks.filter((c) => c.documentId === doc.id).map((c) => c.generation)).toEqual([1]);
    expect(await search()).toBe(1);
  });

  it('refuses to re-index a document that is not ready', async () => {
    const world = await knowledgeWorld();
    const doc = await world.add('guide.txt', text);
    const reindex = new ReindexDocumentUseCase({ documents: world.documents, queue: world.queue });
    await expect(reindex.execute(doc.id, {}, world.actor)).rejects.toThrow(ConflictError);
  });
});

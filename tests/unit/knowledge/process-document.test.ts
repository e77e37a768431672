import { providerKeyRejected } from '../../../core/ai/domain/provider-key-rejection';
import { UpstreamError } from '../../../core/shared/errors';
import { MAX_PROCESSING_RUNS, ResumeDocumentsUseCase } from '../../../core/knowledge/use-cases/resume-documents.use-case';
import { knowledgeWorld } from './knowledge-world';

const paragraphs = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} is about topic number ${i} and nothing else at all.`).join('\n\n');

describe('processing a knowledge document', () => {
  it('parses, chunks and embeds in batches, then marks the document ready with its chunk count', async () => {
    const world = await knowledgeWorld();
    const accepted = await world.add('topics.md', paragraphs(12), { chunkSize: '100', chunkOverlap: '0' });
    expect(accepted).toMatchObject({ status: 'processing', progress: 0 });
    const progress: number[] = [];
    const setProgress = world.documents.setProgress.bind(world.documents);
    world.documents.setProgress = async (id, p) => (progress.push(p), setProgress(id, p));

    await world.process.execute({ documentId: accepted.id });

    const done = await world.documents.findById(accepted.id);
    expect(done).toMatchObject({ status: 'ready', progress: 100, chunkCount: 12, attempts: 1, embeddingModel: 'local-hash-384', embeddingDimension: 384 });
    expect(world.index.chunks.filter((c) => c.documentId === accepted.id).map((c) => c.chunkIndex)).toEqual([...Array(12).keys()]);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.length).toBe(1 + Math.ceil(12 / 4));
  });

  it('embeds with the owner’s key for a provider embedder', async () => {
    const world = await knowledgeWorld();
    world.ownKeys.set('owner-1:provider_a', 'sk-owner-key');
    const accepted = await world.add('a.txt', 'Some words worth embedding.', { embeddingProvider: 'provider_a' });
    await world.process.execute({ documentId: accepted.id });
    expect(world.scripted.calls.map((c) => c.apiKey)).toEqual(['sk-owner-key']);
    expect(await world.documents.findById(accepted.id)).toMatchObject({ status: 'ready', embeddingProvider: 'provider_a', embeddingModel: 'scripted-model' });
  });

  it('marks a document whose stored content cannot be read as error at once, without retrying', async () => {
    const world = await knowledgeWorld();
    const accepted = await world.add('a.txt', 'fine at upload');
    const { storageKey } = (await world.documents.findById(accepted.id))!;
    world.files.files.set(storageKey, Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    await world.runJobs();
    expect(await world.settled(accepted.id)).toMatchObject({ status: 'error', error: 'The document is not UTF-8 text', attempts: 1 });
  });

  it('marks a document whose source file is gone as error', async () => {
    const world = await knowledgeWorld();
    const accepted = await world.add('a.txt', 'soon gone');
    world.files.files.clear();
    await world.process.execute({ documentId: accepted.id });
    expect((await world.documents.findById(accepted.id))!.error).toMatch(/no longer stored/);
  });

  it('does not retry when the provider refuses the key', async () => {
    const world = await knowledgeWorld();
    world.ownKeys.set('owner-1:provider_a', 'sk-refused');
    world.scripted.failWith = new UpstreamError('provider_a refused the API key', 424);
    const accepted = await world.add('a.txt', 'words', { embeddingProvider: 'provider_a' });
    await world.runJobs();
    expect(await world.settled(accepted.id)).toMatchObject({ status: 'error', error: 'Embedding failed: provider_a refused the API key', chunkCount: 0 });
    expect(world.scripted.calls).toHaveLength(1);
  });

  it("records a refused platform key as the platform's fault, without any part of the key", async () => {
    const world = await knowledgeWorld();
    world.platformKeys.set('provider_a', 'sk-platform-secret-Z9Y8');
    world.scripted.failWith = providerKeyRejected('provider_a', 'sk-platform-secret-Z9Y8');
    const accepted = await world.add('a.txt', 'words', { embeddingProvider: 'provider_a' });
    await world.runJobs();
    const settled = await world.settled(accepted.id);
    expect(settled.error).toMatch(/provider_a \(OpenAI\) rejected the platform's API key; the platform's administrator must replace it/);
    expect(settled.error).not.toContain('Z9Y8');
  });

  it('retries a failing provider, then records why the document could not be processed', async () => {
    const world = await knowledgeWorld();
    world.ownKeys.set('owner-1:provider_a', 'sk-key');
    world.scripted.failWith = new UpstreamError('provider_a failed: 500 Internal Server Error');
    const accepted = await world.add('a.txt', 'words', { embeddingProvider: 'provider_a' });
    await world.runJobs();
    expect(await world.settled(accepted.id)).toMatchObject({
      status: 'error',
      error: 'Processing failed after several attempts: provider_a failed: 500 Internal Server Error',
      attempts: 3,
    });
    expect(world.scripted.calls).toHaveLength(3);
  });

  it('succeeds on a retry after a passing failure', async () => {
    const world = await knowledgeWorld();
    world.ownKeys.set('owner-1:provider_a', 'sk-key');
    world.scripted.failWith = new UpstreamError('provider_a failed: timeout');
    const embed = world.scripted.embed.bind(world.scripted);
    world.scripted.embed = async (texts, options) => {
      const result = embed(texts, options);
      world.scripted.failWith = undefined;
      return result;
    };
    const accepted = await world.add('a.txt', 'words', { embeddingProvider: 'provider_a' });
    await world.runJobs();
    expect(await world.settled(accepted.id)).toMatchObject({ status: 'ready', attempts: 2, chunkCount: 1 });
  });

  it('stops quietly when the document is deleted while it is processed', async () => {
    const world = await knowledgeWorld();
    const accepted = await world.add('a.txt', paragraphs(12), { chunkSize: '100', chunkOverlap: '0' });
    const add = world.index.add.bind(world.index);
    world.index.add = async (target, chunks) => {
      await add(target, chunks);
      await world.documents.delete(accepted.id);
    };
    await expect(world.process.execute({ documentId: accepted.id })).resolves.toBeUndefined();
    expect(await world.documents.findById(accepted.id)).toBeNull();
  });

  it('leaves a finished document alone when its job runs again', async () => {
    const world = await knowledgeWorld();
    const accepted = await world.add('a.txt', 'words');
    await world.process.execute({ documentId: accepted.id });
    await world.process.execute({ documentId: accepted.id });
    expect(await world.documents.findById(accepted.id)).toMatchObject({ status: 'ready', attempts: 1, chunkCount: 1 });
    expect(world.index.chunks).toHaveLength(1);
  });
});

describe('resuming documents left processing', () => {
  it('queues them again, and gives up on those interrupted too often', async () => {
    const world = await knowledgeWorld();
    const fresh = await world.add('fresh.txt', 'A document that was never processed.');
    const unlucky = await world.add('unlucky.txt', 'A document that crashed the process every time.');
    const done = await world.add('done.txt', 'Already processed.');
    await world.process.execute({ documentId: done.id });
    world.documents.documents.get(unlucky.id)!.attempts = MAX_PROCESSING_RUNS;
    const resume = new ResumeDocumentsUseCase({ documents: world.documents, queue: world.queue });
    await world.runJobs();

    expect(await resume.execute(new Date(Date.now() + 1000))).toEqual({ resumed: 1, failed: 1 });

    expect(await world.settled(fresh.id)).toMatchObject({ status: 'ready' });
    expect(await world.documents.findById(unlucky.id)).toMatchObject({ status: 'error', error: expect.stringContaining('interrupted too many times') });
    expect((await world.documents.findById(done.id))!.attempts).toBe(1);
  });

  it('leaves alone documents that made progress recently', async () => {
    const world = await knowledgeWorld();
    await world.add('busy.txt', 'Being processed right now.');
    const resume = new ResumeDocumentsUseCase({ documents: world.documents, queue: world.queue });
    await world.runJobs();
    expect(await resume.execute(new Date(Date.now() - 60_000))).toEqual({ resumed: 0, failed: 0 });
  });
});

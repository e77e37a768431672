import { LibraryDocumentParser } from '../../../adapters/documents/library.document-parser';
import { LocalHashingEmbedder } from '../../../adapters/embedders/local-hashing.embedder';
import { InMemoryFileStore } from '../../../adapters/files/in-memory.file-store';
import { InProcessJobQueue } from '../../../adapters/jobs/in-process.job-queue';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import { InMemoryKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/in-memory-knowledge-document.repository';
import { InMemoryVectorIndex } from '../../../adapters/persistence/knowledge/in-memory.vector-index';
import type { EmbeddingProvider } from '../../../core/knowledge/domain/knowledge-document';
import type { EmbedOptions, Embedder } from '../../../core/knowledge/ports/embedder.port';
import type { EmbeddingKeySource } from '../../../core/knowledge/ports/embedding-key-source.port';
import { KnowledgeRetriever } from '../../../core/knowledge/use-cases/knowledge-retriever';
import { PROCESS_DOCUMENT_JOB, ProcessDocumentUseCase, type ProcessDocumentJob } from '../../../core/knowledge/use-cases/process-document.use-case';
import { UploadDocumentUseCase } from '../../../core/knowledge/use-cases/upload-document.use-case';
import type { Actor } from '../../../core/shared/actor';
import { ValidationError } from '../../../core/shared/errors';

/** An embedder whose answers a test scripts: the local embedder's vectors, or a thrown error. */
export class ScriptedEmbedder implements Embedder {
  readonly model = 'scripted-model';
  readonly dimension = 384;
  readonly calls: Array<{ texts: string[]; apiKey?: string }> = [];
  failWith?: Error;
  private readonly local = new LocalHashingEmbedder();

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    this.calls.push({ texts, apiKey: options.apiKey });
    if (this.failWith) throw this.failWith;
    return this.local.embed(texts);
  }
}

/** The knowledge area on in-memory adapters, with one owner and one application. */
export async function knowledgeWorld(options: { attempts?: number } = {}) {
  const applications = new InMemoryApplicationRepository();
  const documents = new InMemoryKnowledgeDocumentRepository(applications);
  const index = new InMemoryVectorIndex();
  const files = new InMemoryFileStore();
  const queue = new InProcessJobQueue();
  const scripted = new ScriptedEmbedder();
  const ownKeys = new Map<string, string>();
  /** The platform's keys by provider, used when the owner has none (unmetered here too). */
  const platformKeys = new Map<string, string>();
  const embedders = {
    get(provider: EmbeddingProvider, model?: string): Embedder {
      if (provider === 'local') return new LocalHashingEmbedder();
      if (provider === 'provider_a') return scripted;
      throw ValidationError.field('embeddingProvider', `no ${provider} in this world${model ? ` (${model})` : ''}`);
    },
  };
  // Own keys only: never metered (plans and their metering are tested with OwnerEmbeddingKeys).
  const keyFor = async (ownerId: string, provider: string) => ownKeys.get(`${ownerId}:${provider}`) ?? platformKeys.get(provider) ?? null;
  const keys: EmbeddingKeySource = {
    keyFor,
    open: async (ownerId, provider) => {
      const apiKey = ownKeys.get(`${ownerId}:${provider}`);
      if (apiKey) return { apiKey, ownKey: true, settle: async () => {} };
      const platformKey = platformKeys.get(provider);
      return platformKey ? { apiKey: platformKey, ownKey: false, settle: async () => {} } : null;
    },
  };
  const deps = { applications, documents, index, files, queue, embedders, keys, parser: new LibraryDocumentParser() };
  const process = new ProcessDocumentUseCase({ ...deps, batchSize: 4 });
  const app = await applications.create({ ownerId: 'owner-1', name: 'Shop', description: '', slug: 'shop', allowedOrigins: [] });
  const actor: Actor = { userId: 'owner-1', role: 'developer' };
  const upload = new UploadDocumentUseCase(deps);
  queue.register<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, (job) => process.execute(job), {
    attempts: options.attempts ?? 3,
    backoffMs: 1,
    onFailed: (job, error) => process.failed(job, error),
  });
  return {
    ...deps,
    scripted,
    ownKeys,
    platformKeys,
    process,
    app,
    actor,
    retriever: new KnowledgeRetriever(deps),
    upload,
    /** Uploads a text document without running its job (the queue is not started). */
    add(name: string, text: string, fields: Record<string, string> = {}) {
      return upload.execute({ fields: { applicationId: app.id, ...fields }, file: { name, bytes: Buffer.from(text) } }, actor);
    },
    /** Starts running the queued processing jobs, the way the app does, with quick retries. */
    async runJobs() {
      await queue.start();
    },
    async settled(id: string) {
      for (let i = 0; i < 500; i++) {
        const d = await documents.findById(id);
        if (d && d.status !== 'processing') return d;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      throw new Error('document still processing');
    },
  };
}

import type { Container } from 'inversify';
import { LibraryDocumentParser } from '../../../adapters/documents/library.document-parser';
import { LocalHashingEmbedder } from '../../../adapters/embedders/local-hashing.embedder';
import { knowledgeRouter } from '../../../adapters/http/knowledge/knowledge.router';
import { BullMqJobQueue } from '../../../adapters/jobs/bullmq.job-queue';
import { InProcessJobQueue, type JobErrorReporter } from '../../../adapters/jobs/in-process.job-queue';
import { DeferredVectorIndex, openVectorIndex } from '../../../adapters/persistence/knowledge/open-vector-index';
import { TypeOrmKnowledgeDocumentRepository } from '../../../adapters/persistence/knowledge/type-orm-knowledge-document.repository';
import { GeminiEmbedder } from '../../../adapters/providers/gemini.embedder';
import { HuggingFaceEmbedder } from '../../../adapters/providers/hugging-face.embedder';
import { OpenAiEmbedder } from '../../../adapters/providers/openai.embedder';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { EmbeddingProvider } from '../../../core/knowledge/domain/knowledge-document';
import type { EmbedderRegistry } from '../../../core/knowledge/ports/embedder-registry.port';
import type { Embedder } from '../../../core/knowledge/ports/embedder.port';
import type { EmbeddingKeySource } from '../../../core/knowledge/ports/embedding-key-source.port';
import { DeleteDocumentUseCase } from '../../../core/knowledge/use-cases/delete-document.use-case';
import { GetDocumentUseCase } from '../../../core/knowledge/use-cases/get-document.use-case';
import { KnowledgeRetrievalPolicy } from '../../../core/knowledge/use-cases/knowledge-retrieval.policy';
import { KnowledgeRetriever } from '../../../core/knowledge/use-cases/knowledge-retriever';
import { ListDocumentsUseCase } from '../../../core/knowledge/use-cases/list-documents.use-case';
import { OwnerEmbeddingKeys, platformEmbeddingKeys } from '../../../core/knowledge/use-cases/owner-embedding-keys';
import { ReindexDocumentUseCase } from '../../../core/knowledge/use-cases/reindex-document.use-case';
import { PROCESS_DOCUMENT_JOB, ProcessDocumentUseCase, type ProcessDocumentJob } from '../../../core/knowledge/use-cases/process-document.use-case';
import { ResumeDocumentsUseCase } from '../../../core/knowledge/use-cases/resume-documents.use-case';
import { SearchKnowledgeUseCase } from '../../../core/knowledge/use-cases/search-knowledge.use-case';
import { UploadDocumentUseCase } from '../../../core/knowledge/use-cases/upload-document.use-case';
import { ValidationError } from '../../../core/shared/errors';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import type { AppConfig } from '../../shared/config';
import { TOKENS, resolve } from '../../shared/tokens';
import { BILLING_TOKENS } from './billing.tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { PROVIDER_KEY_TOKENS } from './provider-keys.tokens';
import { bindFileStore } from './file-store';
import { UPLOAD_TOKENS } from './uploads.tokens';
import { planDeps } from './plan-deps';
import { CachedKnowledgeBaseRepository, CachedKnowledgeDocumentRepository } from '../../../adapters/cache/cached-repositories';
import { TypeOrmKnowledgeBaseRepository } from '../../../adapters/persistence/knowledge/type-orm-knowledge-base.repository';
import { KnowledgeBasesUseCases } from '../../../core/knowledge/use-cases/knowledge-bases.use-cases';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { TypeOrmRetrievalSettingsRepository } from '../../../adapters/persistence/knowledge/type-orm-retrieval-settings.repository';
import { DocumentChunksUseCase, PreviewChunksUseCase } from '../../../core/knowledge/use-cases/document-chunks.use-case';
import { DocumentVersionsUseCase } from '../../../core/knowledge/use-cases/document-versions.use-case';
import { RetrievalSettingsUseCase } from '../../../core/knowledge/use-cases/retrieval-settings.use-case';
import { configuredReranker } from './knowledge-reranker';

/** The "knowledge" chat policy, for `conversationsModule([...])`; it must run last. */
export const knowledgeRetrievalPolicy: ChatPolicyFactory = (c) => resolve(c, KnowledgeRetrievalPolicy);

export interface KnowledgeModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** Runs of one processing job, and the wait before the first retry (doubled each time). */
  attempts?: number;
  retryBackoffMs?: number;
  /** How often documents with no progress for `staleAfterMs` are queued again. */
  sweepIntervalMs?: number;
  staleAfterMs?: number;
}

/** Knowledge base (SPEC 2.11, 3, 4.12): documents processed in the background, vector search, retrieval in chats. */
export function knowledgeModule(options: KnowledgeModuleOptions = {}): AppModule {
  return {
    name: 'knowledge',
    bind(c: Container) {
      bindFileStore(c);
      provide(c, KNOWLEDGE_TOKENS.DocumentRepository, (get) => new CachedKnowledgeDocumentRepository(new TypeOrmKnowledgeDocumentRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
      provide(c, KNOWLEDGE_TOKENS.KnowledgeBaseRepository, (get) => new CachedKnowledgeBaseRepository(new TypeOrmKnowledgeBaseRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
      provide(c, KNOWLEDGE_TOKENS.VectorIndex, (get) => new DeferredVectorIndex(() => openVectorIndex(get(TOKENS.DataSource))));
      provide(c, KNOWLEDGE_TOKENS.EmbedderRegistry, (get) => new ConfiguredEmbedderRegistry(get(TOKENS.Config)));
      provide(c, KNOWLEDGE_TOKENS.EmbeddingKeySource, (get) => embeddingKeys(c, get));
      provide(c, KNOWLEDGE_TOKENS.DocumentParser, () => new LibraryDocumentParser());
      if (!c.isBound(KNOWLEDGE_TOKENS.JobQueue)) provide(c, KNOWLEDGE_TOKENS.JobQueue, (get) => jobQueue(get, options));

      const deps = (get: Getter) => ({
        applications: get(TOKENS.ApplicationRepository),
        // Team roles for the access policy (the application repository answers them, never cached).
        teams: get(TOKENS.ApplicationRepository),
        documents: get(KNOWLEDGE_TOKENS.DocumentRepository),
        bases: get(KNOWLEDGE_TOKENS.KnowledgeBaseRepository),
        index: get(KNOWLEDGE_TOKENS.VectorIndex),
        files: get(UPLOAD_TOKENS.FileStore),
        embedders: get(KNOWLEDGE_TOKENS.EmbedderRegistry),
        keys: get(KNOWLEDGE_TOKENS.EmbeddingKeySource),
        queue: get(KNOWLEDGE_TOKENS.JobQueue),
        parser: get(KNOWLEDGE_TOKENS.DocumentParser),
      });
      provide(c, KnowledgeRetriever, (get) => new KnowledgeRetriever(deps(get)));
      provide(c, UploadDocumentUseCase, (get) => new UploadDocumentUseCase(deps(get)));
      provide(c, ListDocumentsUseCase, (get) => new ListDocumentsUseCase(deps(get)));
      provide(c, GetDocumentUseCase, (get) => new GetDocumentUseCase(deps(get)));
      provide(c, DeleteDocumentUseCase, (get) => new DeleteDocumentUseCase(deps(get)));
      provide(c, ReindexDocumentUseCase, (get) => new ReindexDocumentUseCase(deps(get)));
      provide(c, KNOWLEDGE_TOKENS.RetrievalSettingsRepository, (get) => new TypeOrmRetrievalSettingsRepository(get(TOKENS.DataSource)));
      provide(c, KNOWLEDGE_TOKENS.Reranker, (get) => configuredReranker(get(TOKENS.Config)));
      const retrieval = (get: Getter) => ({ retriever: get(KnowledgeRetriever), settings: get(KNOWLEDGE_TOKENS.RetrievalSettingsRepository), reranker: get(KNOWLEDGE_TOKENS.Reranker) });
      provide(c, SearchKnowledgeUseCase, (get) => new SearchKnowledgeUseCase({ ...deps(get), ...retrieval(get) }));
      provide(c, DocumentVersionsUseCase, (get) => new DocumentVersionsUseCase(deps(get)));
      provide(c, DocumentChunksUseCase, (get) => new DocumentChunksUseCase(deps(get)));
      provide(c, PreviewChunksUseCase, (get) => new PreviewChunksUseCase(deps(get)));
      provide(c, RetrievalSettingsUseCase, (get) => new RetrievalSettingsUseCase({ ...deps(get), ...retrieval(get) }));
      provide(c, KnowledgeBasesUseCases, (get) => new KnowledgeBasesUseCases(deps(get)));
      provide(c, ProcessDocumentUseCase, (get) =>
        new ProcessDocumentUseCase({ ...deps(get), readyListeners: c.isBound(KNOWLEDGE_TOKENS.DocumentReadyListener) ? c.getAll(KNOWLEDGE_TOKENS.DocumentReadyListener) : [] }),
      );
      provide(c, ResumeDocumentsUseCase, (get) => new ResumeDocumentsUseCase(deps(get)));
      provide(c, KnowledgeRetrievalPolicy, (get) => new KnowledgeRetrievalPolicy(retrieval(get)));
    },
    routers: (c) => [
      knowledgeRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        upload: resolve(c, UploadDocumentUseCase),
        list: resolve(c, ListDocumentsUseCase),
        get: resolve(c, GetDocumentUseCase),
        remove: resolve(c, DeleteDocumentUseCase),
        search: resolve(c, SearchKnowledgeUseCase),
        reindex: resolve(c, ReindexDocumentUseCase),
        versions: resolve(c, DocumentVersionsUseCase),
        chunks: resolve(c, DocumentChunksUseCase),
        preview: resolve(c, PreviewChunksUseCase),
        settings: resolve(c, RetrievalSettingsUseCase),
        bases: resolve(c, KnowledgeBasesUseCases),
      }),
    ],
    async start(c: Container) {
      const logger = resolve(c, TOKENS.Logger);
      const clock = resolve(c, TOKENS.Clock);
      const queue = resolve(c, KNOWLEDGE_TOKENS.JobQueue);
      const process = resolve(c, ProcessDocumentUseCase);
      const resume = resolve(c, ResumeDocumentsUseCase);
      await resolve(c, KNOWLEDGE_TOKENS.VectorIndex).ready();

      queue.register<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, (job) => process.execute(job), {
        attempts: options.attempts ?? 3,
        backoffMs: options.retryBackoffMs ?? 1000,
        concurrency: 1,
        onFailed: (job, error) => process.failed(job, error),
      });
      await queue.start();
      // Whatever a crash left in `processing` is taken up again now.
      const resumed = await resume.execute(clock.now());
      if (resumed.resumed + resumed.failed > 0) logger.info(resumed, 'knowledge documents left processing were picked up again');

      const staleAfter = options.staleAfterMs ?? 10 * 60_000;
      const sweep = setInterval(() => {
        resume.execute(new Date(clock.now().getTime() - staleAfter)).catch((err: unknown) => logger.warn({ err: messageOf(err) }, 'knowledge sweep failed'));
      }, options.sweepIntervalMs ?? 60_000);
      sweep.unref();
      return async () => {
        clearInterval(sweep);
        await queue.stop();
      };
    },
  };
}

function jobQueue(get: Getter, options: KnowledgeModuleOptions): JobQueue {
  const config = get(TOKENS.Config);
  const logger = get(TOKENS.Logger);
  const reportError: JobErrorReporter = (err, job) => logger.warn({ err: messageOf(err), job: job.name, attempt: job.attempt, final: job.final }, 'background job failed');
  if (config.redisUrl) return new BullMqJobQueue({ redisUrl: config.redisUrl, prefix: options.jobPrefix ?? 'jobs', reportError });
  return new InProcessJobQueue(reportError);
}

/** Own keys, plans and usage come from their areas when the app has them; otherwise only the platform's keys. */
function embeddingKeys(c: Container, get: Getter): EmbeddingKeySource {
  const config = get(TOKENS.Config);
  const platformKey = (provider: ProviderId) => config.providerKeys[provider] || undefined;
  if (c.isBound(PROVIDER_KEY_TOKENS.ProviderKeyRepository) && c.isBound(BILLING_TOKENS.SubscriptionRepository)) {
    return new OwnerEmbeddingKeys({
      keys: get(PROVIDER_KEY_TOKENS.ProviderKeyRepository),
      secretBox: get(TOKENS.SecretBox),
      ...planDeps(get),
      usage: get(BILLING_TOKENS.UsageLedger),
      platformKey,
    });
  }
  return platformEmbeddingKeys(platformKey);
}

/** Only the error's message reaches the log: provider errors never carry keys, and stacks add nothing here. */
const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

type EmbedderFactory = (config: AppConfig, model?: string) => Embedder;

/** Embedders by provider (STYLE.md 4); provider embedders get no key of their own, each call brings one. */
const EMBEDDERS: Record<EmbeddingProvider, EmbedderFactory> = {
  local: (_config, model) => {
    const local = new LocalHashingEmbedder();
    if (model !== undefined && model !== local.model) throw ValidationError.field('embeddingModel', `The local embedder has one model: ${local.model}`);
    return local;
  },
  provider_a: (config, model) => new OpenAiEmbedder({ baseUrl: config.providerBaseUrls.provider_a, timeoutMs: config.providerTimeoutMs, model }),
  provider_c: (config, model) => new GeminiEmbedder({ baseUrl: config.providerBaseUrls.provider_c, timeoutMs: config.providerTimeoutMs, model }),
  provider_d: (config, model) => new HuggingFaceEmbedder({ baseUrl: config.providerBaseUrls.provider_d, timeoutMs: config.providerTimeoutMs, model }),
};

class ConfiguredEmbedderRegistry implements EmbedderRegistry {
  private readonly embedders = new Map<string, Embedder>();

  constructor(private readonly config: AppConfig) {}

  get(provider: EmbeddingProvider, model?: string): Embedder {
    const key = `${provider}\n${model ?? ''}`;
    let embedder = this.embedders.get(key);
    if (!embedder) {
      const factory = Object.hasOwn(EMBEDDERS, provider) ? EMBEDDERS[provider] : undefined;
      if (!factory) throw ValidationError.field('embeddingProvider', `embeddingProvider must be one of ${Object.keys(EMBEDDERS).join(', ')}`);
      embedder = factory(this.config, model);
      this.embedders.set(key, embedder);
    }
    return embedder;
  }
}

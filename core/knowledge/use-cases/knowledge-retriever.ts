import { UnavailableError } from '../../shared/errors';
import { MIN_RELEVANCE, RELATIVE_CUTOFF, type RetrievedChunk } from '../domain/retrieval';
import { embeddingSpace } from '../domain/knowledge-document';
import type { EmbedderRegistry } from '../ports/embedder-registry.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';
import type { EmbeddingGroup, KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import type { VectorIndex } from '../ports/vector-index.port';
import { embedForOwner } from './embed-texts';

export interface RetrieveOptions {
  limit: number;
  /** Drop hits below each embedder's floor (`MIN_RELEVANCE`) and far below the best hit. */
  relevantOnly?: boolean;
  signal?: AbortSignal;
}

export interface KnowledgeRetrieverDeps {
  documents: KnowledgeDocumentRepository;
  index: VectorIndex;
  embedders: EmbedderRegistry;
  keys: EmbeddingKeySource;
}

/**
 * Finds the chunks of an application's ready documents closest to a text. Documents embedded by
 * different models are searched model by model (the query embedded once per model) and merged by score.
 */
export class KnowledgeRetriever {
  constructor(private readonly deps: KnowledgeRetrieverDeps) {}

  /** Whether the application has anything to search. */
  async groups(applicationId: string): Promise<EmbeddingGroup[]> {
    return this.deps.documents.readyGroups(applicationId);
  }

  async retrieve(app: { id: string; ownerId: string }, text: string, options: RetrieveOptions, groups?: EmbeddingGroup[]): Promise<RetrievedChunk[]> {
    const hits: RetrievedChunk[] = [];
    for (const group of groups ?? (await this.groups(app.id))) hits.push(...(await this.searchGroup(app, group, text, options)));
    hits.sort((a, b) => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    const best = hits[0]?.score ?? 0;
    const kept = options.relevantOnly ? hits.filter((h) => h.score >= best * RELATIVE_CUTOFF) : hits;
    return kept.slice(0, options.limit);
  }

  private async searchGroup(app: { id: string; ownerId: string }, group: EmbeddingGroup, text: string, options: RetrieveOptions): Promise<RetrievedChunk[]> {
    const embedder = this.deps.embedders.get(group.provider, group.model);
    const [vector] = await embedForOwner(embedder, [text], {
      keys: this.deps.keys,
      ownerId: app.ownerId,
      provider: group.provider,
      dimension: group.dimension,
      signal: options.signal,
      noKey: () => new UnavailableError(`No API key is available for ${group.provider}, which embedded some of these documents`),
    });
    const names = new Map(group.documents.map((d) => [d.id, d.fileName]));
    const found = await this.deps.index.search({
      applicationId: app.id,
      space: embeddingSpace(group.provider, group.model),
      vector: vector!,
      documentIds: group.documents.map((d) => d.id),
      limit: options.limit,
      minScore: options.relevantOnly ? MIN_RELEVANCE[group.provider] : undefined,
    });
    return found.map((hit) => ({ ...hit, fileName: names.get(hit.documentId) ?? '' }));
  }
}

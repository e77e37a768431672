import { UnavailableError } from '../../shared/errors';
import { MIN_RELEVANCE, RELATIVE_CUTOFF, type RetrievedChunk } from '../domain/retrieval';
import { DEFAULT_SEARCH_MODE, rankCandidates, type SearchMode } from '../domain/hybrid-ranking';
import { embeddingSpace } from '../domain/knowledge-document';
import type { EmbedderRegistry } from '../ports/embedder-registry.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';
import type { EmbeddingGroup, KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import type { VectorIndex } from '../ports/vector-index.port';
import { embedForOwner } from './embed-texts';

export interface RetrieveOptions {
  limit: number;
  /**
   * Drop hits below each embedder's floor (`MIN_RELEVANCE`) and far below the best hit; hits found by
   * the query's distinctive words are kept whatever their cosine (a part number is not a meaning).
   */
  relevantOnly?: boolean;
  signal?: AbortSignal;
  /** How to rank: `hybrid` (the default), `vector` or `keyword`. */
  mode?: SearchMode;
}

export interface KnowledgeRetrieverDeps {
  documents: KnowledgeDocumentRepository;
  index: VectorIndex;
  embedders: EmbedderRegistry;
  keys: EmbeddingKeySource;
}

/**
 * Finds the chunks of an application's ready documents that answer a text: by meaning, by its distinctive
 * words, or both fused (`rankCandidates`). Documents embedded by different models are searched model by
 * model (the query embedded once per model, one index round trip each) and merged by rank.
 */
export class KnowledgeRetriever {
  constructor(private readonly deps: KnowledgeRetrieverDeps) {}

  /** What the application has to search: the ready documents of its own base and of every other base it uses. */
  async groups(applicationId: string): Promise<EmbeddingGroup[]> {
    return this.deps.documents.readyGroups(applicationId);
  }

  /** What one base has to search. */
  async groupsOfBase(baseId: string): Promise<EmbeddingGroup[]> {
    return this.deps.documents.readyGroupsOfBase(baseId);
  }

  /**
   * `app` is who asks (the query is embedded with its owner's keys); the groups say which bases are searched
   * (by default every base the application uses).
   */
  async retrieve(app: { id: string; ownerId: string }, text: string, options: RetrieveOptions, groups?: EmbeddingGroup[]): Promise<RetrievedChunk[]> {
    const hits: RetrievedChunk[] = [];
    // Bases embedded by the same model share one embedding of the query.
    const vectors = new Map<string, Promise<number[]>>();
    for (const group of groups ?? (await this.groups(app.id))) hits.push(...(await this.searchGroup(app, group, text, options, vectors)));
    hits.sort((a, b) => (b.rank ?? b.score) - (a.rank ?? a.score) || b.score - a.score || a.documentId.localeCompare(b.documentId) || a.chunkIndex - b.chunkIndex);
    const best = Math.max(0, ...hits.map((h) => h.score));
    const kept = options.relevantOnly ? hits.filter((h) => h.byKeyword || h.score >= best * RELATIVE_CUTOFF) : hits;
    return kept.slice(0, options.limit);
  }

  private async searchGroup(
    app: { id: string; ownerId: string },
    group: EmbeddingGroup,
    text: string,
    options: RetrieveOptions,
    vectors: Map<string, Promise<number[]>>,
  ): Promise<RetrievedChunk[]> {
    const space = `${embeddingSpace(group.provider, group.model)}\n${group.dimension}`;
    let embedded = vectors.get(space);
    if (!embedded) {
      embedded = this.embedQuery(app, group, text, options);
      vectors.set(space, embedded);
    }
    const vector = await embedded;
    const names = new Map(group.documents.map((d) => [d.id, d.fileName]));
    const mode = options.mode ?? DEFAULT_SEARCH_MODE;
    const lists = await this.deps.index.candidates({
      applicationId: group.baseId ?? app.id,
      space: embeddingSpace(group.provider, group.model),
      vector,
      text,
      mode,
      documentIds: group.documents.map((d) => d.id),
      limit: options.limit,
    });
    const floor = MIN_RELEVANCE[group.provider];
    return rankCandidates(lists, mode, options.limit)
      .filter((hit) => !options.relevantOnly || hit.byKeyword || hit.score >= floor)
      .map((hit) => ({ ...hit, fileName: names.get(hit.documentId) ?? '' }));
  }

  private async embedQuery(app: { ownerId: string }, group: EmbeddingGroup, text: string, options: RetrieveOptions): Promise<number[]> {
    const embedder = this.deps.embedders.get(group.provider, group.model);
    const [vector] = await embedForOwner(embedder, [text], {
      keys: this.deps.keys,
      ownerId: app.ownerId,
      provider: group.provider,
      dimension: group.dimension,
      signal: options.signal,
      noKey: () => new UnavailableError(`No API key is available for ${group.provider}, which embedded some of these documents`),
    });
    return vector!;
  }
}

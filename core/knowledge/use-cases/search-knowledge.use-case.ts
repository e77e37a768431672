import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { TeamRoleLookup } from '../../access/access-policy';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { KnowledgeBaseRepository } from '../ports/knowledge-base-repository.port';
import { findOwnedBase } from './knowledge-bases.use-cases';
import type { RetrievedChunk } from '../domain/retrieval';
import { DEFAULT_SEARCH_MODE, isSearchMode, SEARCH_MODES } from '../domain/hybrid-ranking';
import { DEFAULT_RETRIEVAL_SETTINGS } from '../domain/retrieval-settings';
import type { Reranker } from '../ports/reranker.port';
import type { RetrievalSettingsRepository } from '../ports/retrieval-settings-repository.port';
import type { KnowledgeRetriever } from './knowledge-retriever';
import { retrieveWithSettings } from './retrieval-settings.use-case';

export interface SearchResult {
  documentId: string;
  fileName: string;
  chunkIndex: number;
  text: string;
  /** Cosine similarity of the chunk to the query, in [-1, 1] (hybrid and keyword results are ordered by their own rank). */
  score: number;
  /** The chunk's page (PDF), else null. */
  page: number | null;
  /** The chunk's heading path ("Setup > Linux"), else null. */
  section: string | null;
}

const MAX_QUERY = 2000;
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 50;

/** Searches the ready documents of one of the caller's applications by meaning, words or both; best match first. */
export class SearchKnowledgeUseCase {
  constructor(
    private readonly deps: {
      applications: ApplicationRepository;
      retriever: KnowledgeRetriever;
      settings?: RetrievalSettingsRepository;
      reranker?: Reranker | null;
      bases?: KnowledgeBaseRepository;
      teams?: TeamRoleLookup;
    },
  ) {}

  /**
   * `mode` (optional): vector, keyword or hybrid; the application's retrieval setting when absent.
   * `asChat=true`: exactly what the chat would get, under the application's retrieval settings (top-K,
   * score threshold, mode, reranker); `limit` and `mode` are then not accepted.
   * `baseId` instead of `applicationId`: one knowledge base alone (the Viewer role on it is enough).
   */
  async execute(query: { applicationId?: unknown; baseId?: unknown; query?: unknown; limit?: unknown; mode?: unknown; asChat?: unknown }, actor: Actor): Promise<SearchResult[]> {
    const byBase = query.baseId !== undefined && query.baseId !== '';
    const byApp = query.applicationId !== undefined && query.applicationId !== '';
    if (!byBase && !byApp) throw ValidationError.field('applicationId', 'applicationId (or baseId) is required');
    if (byBase && byApp) throw ValidationError.field('baseId', 'Give applicationId or baseId, not both');
    const text = typeof query.query === 'string' ? query.query.trim() : '';
    if (text === '') throw ValidationError.field('query', 'query is required');
    if (text.length > MAX_QUERY) throw ValidationError.field('query', `query must be at most ${MAX_QUERY} characters`);
    const limit = query.limit === undefined || query.limit === '' ? DEFAULT_LIMIT : Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw ValidationError.field('limit', `limit must be an integer from 1 to ${MAX_LIMIT}`);
    const requested = query.mode === undefined || query.mode === '' ? undefined : query.mode;
    if (requested !== undefined && !isSearchMode(requested)) throw ValidationError.field('mode', `mode must be one of ${SEARCH_MODES.join(', ')}`);
    if (query.asChat !== undefined && query.asChat !== 'true' && query.asChat !== 'false') throw ValidationError.field('asChat', 'asChat must be true or false');
    if (byBase) {
      if (query.asChat === 'true') throw ValidationError.field('asChat', "asChat needs an applicationId: it answers what that application's chat would get");
      if (!this.deps.bases) throw new NotFoundError('Knowledge base');
      const base = await findOwnedBase(this.deps.bases, query.baseId, actor, 'read', this.deps.teams ?? null);
      const groups = await this.deps.retriever.groupsOfBase(base.id);
      const hits = await this.deps.retriever.retrieve({ id: base.id, ownerId: base.ownerId }, text, { limit, mode: requested ?? DEFAULT_SEARCH_MODE }, groups);
      return hits.map(toResult);
    }
    const app = await findOwnedApplication(this.deps.applications, query.applicationId, actor, 'read');
    if (query.asChat === 'true') {
      const settings = (await this.deps.settings?.find(app.id)) ?? DEFAULT_RETRIEVAL_SETTINGS;
      return (await retrieveWithSettings(this.deps, app, text, settings)).map(toResult);
    }
    const mode = requested ?? app.retrievalMode ?? DEFAULT_SEARCH_MODE;
    const hits = await this.deps.retriever.retrieve(app, text, { limit, mode });
    return hits.map(toResult);
  }
}

const toResult = (h: RetrievedChunk): SearchResult => ({
  documentId: h.documentId, fileName: h.fileName, chunkIndex: h.chunkIndex, text: h.content, score: round(h.score), page: h.page, section: h.section,
});

const round = (score: number): number => Math.round(score * 10_000) / 10_000;

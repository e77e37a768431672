import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { TeamRoleLookup } from '../../access/access-policy';
import { isAppError, ValidationError } from '../../shared/errors';
import { bool, num, str, uuidField, validate } from '../../shared/validation';
import { MAX_BASES_PER_APPLICATION, type UsedBaseView } from '../domain/knowledge-base';
import type { KnowledgeBaseRepository } from '../ports/knowledge-base-repository.port';
import { findOwnedBase } from './knowledge-bases.use-cases';
import { DEFAULT_SEARCH_MODE, SEARCH_MODES, type SearchMode } from '../domain/hybrid-ranking';
import { DEFAULT_RETRIEVAL_SETTINGS, MAX_TOP_K, type RetrievalSettings } from '../domain/retrieval-settings';
import type { RetrievedChunk } from '../domain/retrieval';
import type { EmbeddingGroup } from '../ports/knowledge-document-repository.port';
import type { Reranker } from '../ports/reranker.port';
import type { RetrievalSettingsRepository } from '../ports/retrieval-settings-repository.port';
import type { KnowledgeRetriever } from './knowledge-retriever';

const schema = yup.object({
  mode: str().oneOf([...SEARCH_MODES], `mode must be one of ${SEARCH_MODES.join(', ')}`).nullable(),
  topK: num().integer('topK must be a whole number').min(1, `topK must be from 1 to ${MAX_TOP_K}`).max(MAX_TOP_K, `topK must be from 1 to ${MAX_TOP_K}`).typeError('topK must be a number'),
  scoreThreshold: num().min(0, 'scoreThreshold must be from 0 to 1').max(1, 'scoreThreshold must be from 0 to 1').nullable().typeError('scoreThreshold must be a number'),
  rerank: bool().typeError('rerank must be true or false'),
  baseIds: yup
    .array(uuidField('baseIds[]').required())
    .max(MAX_BASES_PER_APPLICATION, `An application uses at most ${MAX_BASES_PER_APPLICATION} other knowledge bases`)
    .typeError('baseIds must be a list of knowledge base ids'),
});

const draftSchema = schema.omit(['baseIds']);

/**
 * Retrieval settings a studio draft carries (docs/knowledge.md): the fields given, the others at their
 * defaults; the bases used stay the application's.
 */
export async function validateDraftRetrieval(input: unknown): Promise<RetrievalSettings> {
  const body = await validate(draftSchema, input);
  return {
    mode: (body.mode as SearchMode | null | undefined) ?? null,
    topK: body.topK ?? DEFAULT_RETRIEVAL_SETTINGS.topK,
    scoreThreshold: body.scoreThreshold ?? null,
    rerank: body.rerank ?? false,
  };
}

export interface RetrievalSettingsView extends RetrievalSettings {
  applicationId: string;
  /** The mode in effect (the application's retrieval mode when `mode` is null). */
  effectiveMode: SearchMode;
  /** Whether the platform has a reranker (without one `rerank` has no effect). */
  rerankerAvailable: boolean;
  /** The knowledge bases the application uses besides its own (which it always uses), in the order added. */
  bases: UsedBaseView[];
}

/** `GET`/`PUT /api/knowledge/settings/:applicationId`: an application's retrieval settings. */
export class RetrievalSettingsUseCase {
  constructor(
    private readonly deps: {
      applications: ApplicationRepository;
      settings: RetrievalSettingsRepository;
      reranker?: Reranker | null;
      bases?: KnowledgeBaseRepository;
      teams?: TeamRoleLookup;
    },
  ) {}

  async get(applicationId: string, actor: Actor): Promise<RetrievalSettingsView> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    return this.view(app, (await this.deps.settings.find(app.id)) ?? { ...DEFAULT_RETRIEVAL_SETTINGS });
  }

  /**
   * `baseIds` replaces the other bases the application uses: each one added must be a knowledge base of its own
   * (not an application's) the caller may read; one they may not see is a 404 as anywhere else. Those already
   * used may stay.
   */
  private async useBases(app: { id: string }, baseIds: string[], actor: Actor): Promise<void> {
    if (!this.deps.bases) throw ValidationError.field('baseIds', 'Knowledge bases are not available here');
    const ids = [...new Set(baseIds)];
    // A base the application already uses may stay without the caller being able to open it (another member added it).
    const already = new Set((await this.deps.bases.usedBy(app.id)).map((b) => b.id));
    for (const id of ids) {
      if (already.has(id)) continue;
      const base = await findOwnedBase(this.deps.bases, id, actor, 'read', this.deps.teams ?? null);
      if (base.applicationId) throw ValidationError.field('baseIds', "An application's own knowledge base cannot be used by another application; use a knowledge base of its own");
    }
    await this.deps.bases.setUsedBy(app.id, ids);
  }

  /** The fields given replace the saved ones; the others keep their values. */
  async update(applicationId: string, body: unknown, actor: Actor): Promise<RetrievalSettingsView> {
    const input = await validate(schema, body);
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    if (input.baseIds !== undefined) await this.useBases(app, input.baseIds as string[], actor);
    const current = (await this.deps.settings.find(app.id)) ?? { ...DEFAULT_RETRIEVAL_SETTINGS };
    const next: RetrievalSettings = {
      mode: input.mode === undefined ? current.mode : ((input.mode as SearchMode | null) ?? null),
      topK: input.topK ?? current.topK,
      scoreThreshold: input.scoreThreshold === undefined ? current.scoreThreshold : input.scoreThreshold,
      rerank: input.rerank ?? current.rerank,
    };
    await this.deps.settings.save(app.id, next);
    return this.view(app, next);
  }

  private async view(app: { id: string; retrievalMode?: SearchMode }, s: RetrievalSettings): Promise<RetrievalSettingsView> {
    const bases = ((await this.deps.bases?.usedBy(app.id)) ?? []).map((b) => ({ id: b.id, name: b.name, teamId: b.teamId }));
    return { applicationId: app.id, ...s, effectiveMode: s.mode ?? app.retrievalMode ?? DEFAULT_SEARCH_MODE, rerankerAvailable: Boolean(this.deps.reranker), bases };
  }
}

/** Candidates fetched per chunk kept when a reranker orders them. */
const RERANK_POOL = 3;
const MAX_RERANK_CANDIDATES = 50;

/**
 * Retrieval as an application's settings ask (the chat and the search tester alike): at most `topK`
 * chunks, none under the score threshold (or, without one, each embedder's floor), ordered by the
 * reranker when asked and available.
 */
export async function retrieveWithSettings(
  deps: { retriever: KnowledgeRetriever; reranker?: Reranker | null },
  app: { id: string; ownerId: string; retrievalMode?: SearchMode },
  text: string,
  settings: RetrievalSettings,
  options: { groups?: EmbeddingGroup[]; signal?: AbortSignal } = {},
): Promise<RetrievedChunk[]> {
  const reranker = settings.rerank ? deps.reranker : null;
  const mode = settings.mode ?? app.retrievalMode ?? DEFAULT_SEARCH_MODE;
  const limit = reranker ? Math.min(MAX_RERANK_CANDIDATES, settings.topK * RERANK_POOL) : settings.topK;
  const found = await deps.retriever.retrieve(app, text, { limit, relevantOnly: settings.scoreThreshold === null, mode, signal: options.signal }, options.groups);
  const threshold = settings.scoreThreshold;
  const passed = threshold === null ? found : found.filter((hit) => hit.score >= threshold);
  if (!reranker || passed.length === 0) return passed.slice(0, settings.topK);
  let order;
  try {
    order = await reranker.rerank(text, passed.map((hit) => hit.content), { topN: settings.topK, signal: options.signal });
  } catch (error) {
    // A reranker that is down costs the order, not the answer's knowledge.
    if (isAppError(error) && (error.kind === 'upstream_failure' || error.kind === 'upstream_timeout' || error.kind === 'unavailable')) return passed.slice(0, settings.topK);
    throw error;
  }
  return order
    .filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < passed.length)
    .slice(0, settings.topK)
    .map((r) => ({ ...passed[r.index]!, rank: r.score }));
}

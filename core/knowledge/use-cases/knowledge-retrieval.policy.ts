import type { ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import { isAppError } from '../../shared/errors';
import { buildKnowledgeContext, DEFAULT_CONTEXT_BUDGET_TOKENS, excerptOf } from '../domain/retrieval';
import { DEFAULT_RETRIEVAL_SETTINGS } from '../domain/retrieval-settings';
import type { Reranker } from '../ports/reranker.port';
import type { RetrievalSettingsRepository } from '../ports/retrieval-settings-repository.port';
import type { KnowledgeRetriever } from './knowledge-retriever';
import { retrievalSpan } from '../../traces/use-cases/retrieval-span';
import { retrieveWithSettings } from './retrieval-settings.use-case';

/**
 * Retrieval-augmented answers (SPEC 4.3): when the application has ready documents, the chunks most
 * relevant to the message (above a floor, within a token budget) become delimited system context and
 * the answer's `sources`. Runs last, after the policies that choose model and key.
 */
export class KnowledgeRetrievalPolicy implements ChatPolicy {
  readonly name = 'knowledge';

  constructor(
    private readonly deps: { retriever: KnowledgeRetriever; settings?: RetrievalSettingsRepository; reranker?: Reranker | null; budgetTokens?: number; maxChunks?: number },
  ) {}

  async prepare(turn: ChatTurn, plan: ChatPlan): Promise<void> {
    const groups = await this.deps.retriever.groups(turn.application.id);
    if (groups.length === 0) return;
    let hits;
    try {
      // A studio draft's own retrieval settings, else the application's: top-K, the score threshold, mode and reranker.
      const settings =
        turn.draft?.retrieval ??
        (await this.deps.settings?.find(turn.application.id)) ?? { ...DEFAULT_RETRIEVAL_SETTINGS, topK: this.deps.maxChunks ?? DEFAULT_RETRIEVAL_SETTINGS.topK };
      const span = retrievalSpan(turn.trace, turn.content, settings.mode ?? turn.application.retrievalMode);
      hits = await span.around(retrieveWithSettings(this.deps, { id: turn.application.id, ownerId: turn.ownerId, retrievalMode: turn.application.retrievalMode }, turn.content, settings, { groups }));
    } catch (error) {
      // An embedding provider that is down or has no key costs the answer its context, not the answer itself.
      if (isAppError(error) && (error.kind === 'upstream_failure' || error.kind === 'upstream_timeout' || error.kind === 'unavailable')) return;
      throw error;
    }
    const built = buildKnowledgeContext(hits, this.deps.budgetTokens ?? DEFAULT_CONTEXT_BUDGET_TOKENS);
    if (!built) return;
    plan.context = plan.context ? `${plan.context}\n\n${built.context}` : built.context;
    plan.sources = [
      ...(plan.sources ?? []),
      ...built.used.map((hit) => ({
        documentId: hit.documentId,
        chunkIndex: hit.chunkIndex,
        score: Math.round(hit.score * 10_000) / 10_000,
        fileName: hit.fileName,
        excerpt: excerptOf(hit.content),
        page: hit.page,
        section: hit.section,
      })),
    ];
  }
}

import { platformKeyRejected } from '../../ai/domain/provider-key-rejection';
import { resolveModelSettings } from '../../ai/domain/model-settings';
import type { LlmProviderRegistry } from '../../ai/ports/llm-provider.port';
import type { Embedder } from '../../knowledge/ports/embedder.port';
import type { EmbeddingKeySource } from '../../knowledge/ports/embedding-key-source.port';
import { embedForOwner } from '../../knowledge/use-cases/embed-texts';
import { isProviderKeyRejection, PaymentRequiredError } from '../../shared/errors';
import { estimateTokens } from '../../shared/tokens';
import type { JudgeModel, SimilarityEmbedder } from '../ports/evaluation-engines.port';

/**
 * The judge on any of the four providers, with the chat's key rules: the owner's own key (unmetered), else the
 * platform's on a plan that includes it, its tokens counted against the plan. One request, no tools, no history,
 * nothing retrieved: the judge reads only the prompt it is given.
 */
export class ProviderJudgeModel implements JudgeModel {
  constructor(private readonly deps: { providers: LlmProviderRegistry; keys: EmbeddingKeySource }) {}

  async complete(request: Parameters<JudgeModel['complete']>[0]) {
    const { settings } = resolveModelSettings(request.provider, request.model, { temperature: 0, maxTokens: 512 });
    const estimate = estimateTokens(request.system) + estimateTokens(request.prompt) + settings.maxTokens;
    const key = await this.deps.keys.open(request.ownerId, request.provider, estimate);
    if (!key) throw new PaymentRequiredError(`There is no key for ${request.provider} to run the judge with`);
    try {
      const result = await this.deps.providers.get(request.provider).chat({
        model: request.model,
        system: request.system,
        messages: [{ role: 'user', content: request.prompt }],
        settings,
        apiKey: key.apiKey,
        signal: request.signal,
      });
      await key.settle({ ok: true, tokens: result.usage.totalTokens });
      return { text: result.content, usage: result.usage };
    } catch (error) {
      await key.settle({ ok: false, tokens: 0 }).catch(() => undefined);
      throw !key.ownKey && isProviderKeyRejection(error) ? platformKeyRejected(request.provider) : error;
    }
  }
}

/** Semantic similarity on the platform's local embedder (offline, never metered). */
export class LocalSimilarityEmbedder implements SimilarityEmbedder {
  constructor(private readonly deps: { embedder: Embedder; keys: EmbeddingKeySource }) {}

  embed(ownerId: string, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    return embedForOwner(this.deps.embedder, texts, { keys: this.deps.keys, ownerId, provider: 'local', signal, noKey: () => new Error('No embedding key') });
  }
}

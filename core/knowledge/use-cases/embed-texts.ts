import type { ProviderId } from '../../ai/domain/provider-id';
import { isProviderKeyRejection, UpstreamError } from '../../shared/errors';
import { platformKeyRejected } from '../../ai/domain/provider-key-rejection';
import { estimateTokens } from '../../shared/tokens';
import type { EmbeddingProvider } from '../domain/knowledge-document';
import { normalize } from '../domain/vector-math';
import type { Embedder } from '../ports/embedder.port';
import type { EmbeddingKeySource } from '../ports/embedding-key-source.port';

/**
 * Embeds through any embedder and checks what came back (one finite vector per text, all of one
 * dimension) before it reaches the index; vectors are re-normalized so a dot product is the cosine.
 */
export async function embedTexts(
  embedder: Embedder,
  texts: string[],
  options: { apiKey?: string; signal?: AbortSignal; dimension?: number; onUsage?: (tokens: number) => void } = {},
): Promise<number[][]> {
  const vectors = await embedder.embed(texts, { apiKey: options.apiKey, signal: options.signal, onUsage: options.onUsage });
  if (!Array.isArray(vectors) || vectors.length !== texts.length) {
    throw new UpstreamError(`The embedding model ${embedder.model} answered ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${texts.length} texts`);
  }
  const dimension = options.dimension ?? vectors[0]?.length ?? 0;
  for (const vector of vectors) {
    if (!Array.isArray(vector) || vector.length !== dimension || dimension === 0 || !vector.every(Number.isFinite)) {
      throw new UpstreamError(`The embedding model ${embedder.model} answered a vector of an unexpected shape (expected ${dimension} numbers)`);
    }
  }
  return vectors.map(normalize);
}

export interface OwnerEmbedding {
  keys: EmbeddingKeySource;
  ownerId: string;
  provider: EmbeddingProvider;
  signal?: AbortSignal;
  dimension?: number;
  /** The error when there is no key for the provider (what it means depends on the caller). */
  noKey: () => Error;
}

/**
 * Embeds on an owner's behalf: the local embedder as is (offline, never metered); a provider's with the
 * key the owner's plan allows, its tokens counted against the plan when the key is the platform's (the
 * provider's own count when it reports one, else an estimate of the texts), like a chat turn.
 */
export async function embedForOwner(embedder: Embedder, texts: string[], o: OwnerEmbedding): Promise<number[][]> {
  if (o.provider === 'local') return embedTexts(embedder, texts, { signal: o.signal, dimension: o.dimension });
  const estimate = texts.reduce((sum, text) => sum + estimateTokens(text), 0);
  const key = await o.keys.open(o.ownerId, o.provider as ProviderId, estimate);
  if (!key) throw o.noKey();
  let reported: number | undefined;
  const onUsage = (tokens: number) => {
    reported = (reported ?? 0) + tokens;
  };
  let vectors: number[][];
  try {
    vectors = await embedTexts(embedder, texts, { apiKey: key.apiKey, signal: o.signal, dimension: o.dimension, onUsage });
  } catch (error) {
    // Requests the provider answered before the failure were still spent.
    await key.settle({ ok: false, tokens: reported ?? 0 }).catch(() => undefined);
    // A refused platform key is not the owner's to fix, nor any part of it theirs to see.
    throw !key.ownKey && isProviderKeyRejection(error) ? platformKeyRejected(o.provider as ProviderId) : error;
  }
  await key.settle({ ok: true, tokens: reported ?? estimate });
  return vectors;
}

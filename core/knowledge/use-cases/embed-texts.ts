import { normalize } from '../domain/vector-math';
import { UpstreamError } from '../../shared/errors';
import type { Embedder } from '../ports/embedder.port';

/**
 * Embeds through any embedder and checks what came back (one finite vector per text, all of one
 * dimension) before it reaches the index; vectors are re-normalized so a dot product is the cosine.
 */
export async function embedTexts(
  embedder: Embedder,
  texts: string[],
  options: { apiKey?: string; signal?: AbortSignal; dimension?: number } = {},
): Promise<number[][]> {
  const vectors = await embedder.embed(texts, { apiKey: options.apiKey, signal: options.signal });
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

import type { ProviderId } from '../../core/ai/domain/provider-id';
import { UnavailableError, UpstreamError } from '../../core/shared/errors';

/** What every provider embedder is built with. */
export interface EmbedderOptions {
  baseUrl?: string;
  timeoutMs: number;
  /** The embedding model; each embedder has a sensible default. */
  model?: string;
  /** Vector length; defaults to the model's own. Smaller values are asked for where the API allows it. */
  dimension?: number;
  /** Used when a call brings no key of its own (the platform key). */
  apiKey?: string;
}

export function keyFor(provider: ProviderId, options: EmbedderOptions, given?: string): string {
  const key = given || options.apiKey;
  if (!key) throw new UnavailableError(`No API key is configured for ${provider} embeddings`);
  return key;
}

/** Unit length, so that a dot product is the cosine; a zero vector stays zero. */
export function l2Normalize(vector: ArrayLike<number>): number[] {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  return Array.from(vector, (v) => (norm > 0 ? v / norm : 0));
}

/** Normalizes the provider's vectors after checking there is one per text, of the promised length. */
export function finishVectors(provider: ProviderId, vectors: ArrayLike<number>[], count: number, dimension: number): number[][] {
  if (vectors.length !== count) throw new UpstreamError(`${provider} failed: returned ${vectors.length} vectors for ${count} texts`);
  const wrong = vectors.find((v) => v.length !== dimension);
  if (wrong) throw new UpstreamError(`${provider} failed: returned ${wrong.length}-dimensional vectors, expected ${dimension}`);
  return vectors.map(l2Normalize);
}

export function batches<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

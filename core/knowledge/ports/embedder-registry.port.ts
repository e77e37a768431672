import type { EmbeddingProvider } from '../domain/knowledge-document';
import type { Embedder } from './embedder.port';

/** Embedders by provider (STYLE.md 4): the built-in local one and the providers that offer embeddings. */
export interface EmbedderRegistry {
  /** The embedder of `provider` for `model`, or for the provider's default model when none is named. */
  get(provider: EmbeddingProvider, model?: string): Embedder;
}

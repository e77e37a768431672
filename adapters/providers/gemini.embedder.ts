import { GoogleGenerativeAI } from '@google/generative-ai';
import type { EmbedOptions, Embedder } from '../../core/knowledge/ports/embedder.port';
import { batches, finishVectors, keyFor, type EmbedderOptions } from './embedding-vectors';
import { ProviderCall } from './provider-call';

const NATIVE_DIMENSIONS: Record<string, number> = {
  'text-embedding-004': 768,
  'gemini-embedding-001': 3072,
  'embedding-001': 768,
};
/** batchEmbedContents takes at most 100 requests. */
const BATCH_SIZE = 100;

/** provider_c embeddings through `@google/generative-ai` (`batchEmbedContents`, the batch form of embedContent). */
export class GeminiEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  private readonly nativeDimension: number | undefined;

  constructor(private readonly options: EmbedderOptions) {
    this.model = options.model ?? 'text-embedding-004';
    this.nativeDimension = NATIVE_DIMENSIONS[this.model];
    this.dimension = options.dimension ?? this.nativeDimension ?? 768;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const apiKey = keyFor('provider_c', this.options, options.apiKey);
    const call = new ProviderCall('provider_c', this.options.timeoutMs, apiKey, options.signal);
    return call.run(async (signal) => {
      const model = new GoogleGenerativeAI(apiKey).getGenerativeModel(
        { model: this.model },
        { baseUrl: this.options.baseUrl?.replace(/\/+$/, '') },
      );
      // The service takes `outputDimensionality`; this SDK version's types do not list it yet.
      const reduced = this.options.dimension !== undefined && this.options.dimension !== this.nativeDimension ? { outputDimensionality: this.dimension } : {};
      const vectors: number[][] = [];
      for (const batch of batches(texts, BATCH_SIZE)) {
        const requests = batch.map((text) => ({ content: { role: 'user', parts: [{ text: text.trim() === '' ? ' ' : text }] }, ...reduced }));
        const response = await model.batchEmbedContents({ requests }, { signal });
        vectors.push(...finishVectors('provider_c', response.embeddings.map((e) => e.values), batch.length, this.dimension));
        call.touch();
      }
      return vectors;
    });
  }
}

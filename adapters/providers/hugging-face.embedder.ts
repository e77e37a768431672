import { InferenceClient } from '@huggingface/inference';
import type { EmbedOptions, Embedder } from '../../core/knowledge/ports/embedder.port';
import { UpstreamError } from '../../core/shared/errors';
import { batches, finishVectors, keyFor, type EmbedderOptions } from './embedding-vectors';
import { ProviderCall } from './provider-call';
import { nodeHttpFetch } from '../clients/node-http-fetch';
import { SdkClients } from './sdk-clients';

const NATIVE_DIMENSIONS: Record<string, number> = {
  'sentence-transformers/all-MiniLM-L6-v2': 384,
  'sentence-transformers/all-mpnet-base-v2': 768,
  'BAAI/bge-small-en-v1.5': 384,
  'BAAI/bge-base-en-v1.5': 768,
};
const BATCH_SIZE = 32;

/**
 * provider_d embeddings through `@huggingface/inference` (`featureExtraction`). With a base URL the SDK
 * posts `{ inputs }` to that endpoint itself (a text-embeddings endpoint, whose model answers);
 * without one it goes through the hf-inference route of the router for `model`.
 */
export class HuggingFaceEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  private readonly nativeDimension: number | undefined;

  private readonly clients = new SdkClients(
    (apiKey) => new InferenceClient(apiKey, { fetch: nodeHttpFetch, ...(this.options.baseUrl ? { endpointUrl: this.options.baseUrl } : {}) }),
  );

  constructor(private readonly options: EmbedderOptions) {
    this.model = options.model ?? 'sentence-transformers/all-MiniLM-L6-v2';
    this.nativeDimension = NATIVE_DIMENSIONS[this.model];
    this.dimension = options.dimension ?? this.nativeDimension ?? 384;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const apiKey = keyFor('provider_d', this.options, options.apiKey);
    const call = new ProviderCall('provider_d', this.options.timeoutMs, apiKey, options.signal);
    return call.run(async (signal) => {
      const client = this.clients.get(apiKey);
      const route = this.options.baseUrl ? {} : { provider: 'hf-inference' as const };
      // Text-embeddings endpoints truncate Matryoshka models to `dimensions`; sent only when asked for.
      const reduced = this.options.dimension !== undefined && this.options.dimension !== this.nativeDimension ? { dimensions: this.dimension } : {};
      const vectors: number[][] = [];
      for (const batch of batches(texts, BATCH_SIZE)) {
        const output = await client.featureExtraction({ model: this.model, inputs: batch, ...route, ...reduced }, { signal, retry_on_error: false });
        vectors.push(...finishVectors('provider_d', batch.map((_, i) => pooled(output[i])), batch.length, this.dimension));
        call.touch();
      }
      return vectors;
    });
  }
}

/** One vector per text: models without a pooling layer answer one vector per token, averaged here. */
function pooled(row: unknown): number[] {
  if (Array.isArray(row) && row.every((v) => typeof v === 'number')) return row as number[];
  if (Array.isArray(row) && row.length > 0 && row.every((t) => Array.isArray(t) && t.every((v) => typeof v === 'number'))) {
    const tokens = row as number[][];
    return tokens[0]!.map((_, d) => tokens.reduce((sum, t) => sum + (t[d] ?? 0), 0) / tokens.length);
  }
  throw new UpstreamError('provider_d failed: the feature-extraction answer is not a list of vectors');
}

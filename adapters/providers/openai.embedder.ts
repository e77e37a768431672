import OpenAI from 'openai';
import type { EmbedOptions, Embedder } from '../../core/knowledge/ports/embedder.port';
import { batches, finishVectors, keyFor, type EmbedderOptions } from './embedding-vectors';
import { ProviderCall } from './provider-call';
import { nodeHttpFetch } from '../clients/node-http-fetch';
import { SdkClients } from './sdk-clients';

const NATIVE_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};
/** Far below the API's 2048 inputs per request, to keep each request small and quick. */
const BATCH_SIZE = 256;

/** provider_a embeddings through the `openai` SDK (`embeddings.create`). */
export class OpenAiEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  private readonly nativeDimension: number | undefined;

  private readonly clients = new SdkClients((apiKey) => new OpenAI({ apiKey, baseURL: this.options.baseUrl, maxRetries: 0, fetch: nodeHttpFetch }));

  constructor(private readonly options: EmbedderOptions) {
    this.model = options.model ?? 'text-embedding-3-small';
    this.nativeDimension = NATIVE_DIMENSIONS[this.model];
    this.dimension = options.dimension ?? this.nativeDimension ?? 1536;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    const apiKey = keyFor('provider_a', this.options, options.apiKey);
    const call = new ProviderCall('provider_a', this.options.timeoutMs, apiKey, options.signal);
    return call.run(async (signal) => {
      const client = this.clients.get(apiKey);
      // Only the text-embedding-3 models take `dimensions`; ask for it only when it differs from the native size.
      const dimensions = this.options.dimension !== undefined && this.options.dimension !== this.nativeDimension ? { dimensions: this.dimension } : {};
      const vectors: number[][] = [];
      for (const batch of batches(texts, BATCH_SIZE)) {
        // The API refuses empty strings; a blank chunk still needs a vector.
        const input = batch.map((text) => (text.trim() === '' ? ' ' : text));
        const response = await client.embeddings.create({ model: this.model, input, ...dimensions }, { signal });
        const ordered = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
        vectors.push(...finishVectors('provider_a', ordered, batch.length, this.dimension));
        const tokens = response.usage?.total_tokens ?? response.usage?.prompt_tokens;
        if (typeof tokens === 'number' && Number.isFinite(tokens) && tokens >= 0) options.onUsage?.(tokens);
        call.touch();
      }
      return vectors;
    });
  }
}

import type { Reranker } from '../../core/knowledge/ports/reranker.port';
import { UpstreamError, UpstreamTimeoutError } from '../../core/shared/errors';
import { nodeHttpFetch } from '../clients/node-http-fetch';

export interface HttpRerankerOptions {
  /** The API's base address; requests go to `<url>/rerank` (Cohere `/v1`, Jina `/v1`, a self-hosted TEI). */
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/**
 * A provider's rerank API in the shape Cohere, Jina and Hugging Face's text-embeddings-inference share:
 * `POST /rerank {model, query, documents, top_n}` answering `{results: [{index, relevance_score}]}`.
 * Failures are upstream errors whose words never carry the key.
 */
export class HttpReranker implements Reranker {
  readonly model: string;

  constructor(private readonly options: HttpRerankerOptions) {
    this.model = options.model;
  }

  async rerank(query: string, documents: string[], options: { topN: number; signal?: AbortSignal }): Promise<Array<{ index: number; score: number }>> {
    if (documents.length === 0) return [];
    const signals = [AbortSignal.timeout(this.options.timeoutMs), ...(options.signal ? [options.signal] : [])];
    let response: Response;
    try {
      response = await nodeHttpFetch(`${this.options.url.replace(/\/+$/, '')}/rerank`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}) },
        body: JSON.stringify({ model: this.model, query, documents, top_n: Math.min(options.topN, documents.length) }),
        signal: AbortSignal.any(signals),
      });
    } catch (error) {
      if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) throw new UpstreamTimeoutError('The reranker did not answer in time');
      throw new UpstreamError('The reranker could not be reached');
    }
    if (!response.ok) throw new UpstreamError(`The reranker answered ${response.status}`);
    const body = (await response.json().catch(() => null)) as { results?: Array<{ index?: unknown; relevance_score?: unknown; score?: unknown }> } | null;
    if (!body || !Array.isArray(body.results)) throw new UpstreamError('The reranker answered in an unexpected shape');
    return body.results
      .map((r) => ({ index: Number(r.index), score: Number(r.relevance_score ?? r.score) }))
      .filter((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < documents.length && Number.isFinite(r.score))
      .sort((a, b) => b.score - a.score);
  }
}

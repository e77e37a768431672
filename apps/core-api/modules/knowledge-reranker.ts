import { HttpReranker } from '../../../adapters/rerankers/http.reranker';
import type { Reranker } from '../../../core/knowledge/ports/reranker.port';
import type { AppConfig } from '../../shared/config';

/** The reranker RERANK_URL names, or none (off by default: retrieval then orders by its own scores). */
export function configuredReranker(config: AppConfig): Reranker | null {
  if (!config.rerank) return null;
  return new HttpReranker({ ...config.rerank, timeoutMs: config.providerTimeoutMs });
}

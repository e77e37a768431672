import { ATTR } from '../domain/attributes';
import type { TurnTrace } from '../domain/turn-trace';
import { publicFailure } from './traced-chat';

interface Hit {
  documentId: string;
  chunkIndex: number;
  score: number;
  fileName?: string;
  section?: string | null;
}

/** The `retrieval` span of a turn (query, mode, hits with document, section and score), or a pass-through without a trace. */
export function retrievalSpan(trace: TurnTrace | undefined, query: string, mode: string | undefined) {
  return {
    async around<T extends readonly Hit[]>(retrieving: Promise<T>): Promise<T> {
      if (!trace) return retrieving;
      const span = trace.span('retrieval', { [ATTR.operationName]: 'retrieval', [ATTR.retrievalQuery]: query, [ATTR.retrievalMode]: mode ?? 'default' });
      try {
        const hits = await retrieving;
        span
          .set(ATTR.retrievalHitCount, hits.length)
          .set(ATTR.retrievalHitDocuments, hits.map((h) => h.documentId))
          .set(ATTR.retrievalHitFiles, hits.map((h) => h.fileName ?? ''))
          .set(ATTR.retrievalHitSections, hits.map((h) => h.section ?? ''))
          .set(ATTR.retrievalHitChunks, hits.map((h) => h.chunkIndex))
          .set(ATTR.retrievalHitScores, hits.map((h) => Math.round(h.score * 10_000) / 10_000))
          .end();
        return hits;
      } catch (error) {
        const { message, type } = publicFailure(error);
        span.fail(message, type).end();
        throw error;
      }
    },
  };
}

import type { JobQueue } from '../../shared/job-queue.port';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';
import { PROCESS_DOCUMENT_JOB, processJobId, type ProcessDocumentJob } from './process-document.use-case';

/** Runs after which a document that keeps being interrupted is given up on. */
export const MAX_PROCESSING_RUNS = 5;

/**
 * Picks up documents left `processing` by a crash or a lost job: queues them again (a job still queued
 * or running under the same id is not doubled), or marks them `error` once they used up their runs.
 */
export class ResumeDocumentsUseCase {
  constructor(private readonly deps: { documents: KnowledgeDocumentRepository; queue: JobQueue; maxRuns?: number }) {}

  /** `unchangedSince`: only documents with no progress since then (now, at start-up). */
  async execute(unchangedSince: Date): Promise<{ resumed: number; failed: number }> {
    let resumed = 0;
    let failed = 0;
    for (const document of await this.deps.documents.listProcessing(unchangedSince)) {
      if (document.attempts >= (this.deps.maxRuns ?? MAX_PROCESSING_RUNS)) {
        if (await this.deps.documents.markError(document.id, 'Processing was interrupted too many times; upload the document again')) failed++;
        continue;
      }
      await this.deps.queue.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, { documentId: document.id }, { id: document.id });
      resumed++;
    }
    // Re-indexes under way: queued again (the job of a generation is not doubled); the live chunks serve meanwhile.
    for (const document of await this.deps.documents.listReindexing(unchangedSince)) {
      const job = { documentId: document.id, generation: document.pendingGeneration! };
      await this.deps.queue.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, job, { id: processJobId(job) });
      resumed++;
    }
    return { resumed, failed };
  }
}

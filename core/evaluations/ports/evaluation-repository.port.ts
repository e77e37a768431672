import type { Dataset, DatasetItem, NewItem } from '../domain/dataset';
import type { EvaluationResult, EvaluationRun, ResultOutcome, TargetTotals } from '../domain/run';

export type NewRun = Omit<EvaluationRun, 'id' | 'status' | 'total' | 'error' | 'createdAt' | 'finishedAt'>;

/** Datasets and their versioned items. */
export interface DatasetRepository {
  create(d: { applicationId: string; name: string; description: string }): Promise<Dataset>;
  findById(id: string): Promise<Dataset | null>;
  listByApplication(applicationId: string): Promise<Array<{ dataset: Dataset; itemCount: number }>>;
  update(id: string, changes: { name?: string; description?: string }): Promise<Dataset>;
  delete(id: string): Promise<void>;
  /** Items at a version (the current one by default), in order. */
  items(datasetId: string, version?: number): Promise<DatasetItem[]>;
  countItems(datasetId: string): Promise<number>;
  /**
   * Adds items as one new version, in one statement with the version's raise; refuses (ValidationError) when the
   * dataset would hold more than `maxItems`.
   */
  addItems(datasetId: string, items: NewItem[], maxItems: number): Promise<{ dataset: Dataset; items: DatasetItem[] }>;
  /** Removes an item from the next version (it stays in the versions that had it); false when it was not there. */
  removeItem(datasetId: string, itemId: string): Promise<boolean>;
}

/** Runs and their per-item results. */
export interface EvaluationRunRepository {
  /** The run with one pending result per item and target, in one transaction. */
  create(run: NewRun, items: DatasetItem[]): Promise<EvaluationRun>;
  findById(id: string): Promise<EvaluationRun | null>;
  listByApplication(applicationId: string, limit: number): Promise<EvaluationRun[]>;
  results(runId: string): Promise<EvaluationResult[]>;
  /** The sums of each target's results (what a run's figures are computed from), without reading the results. */
  totals(runId: string): Promise<TargetTotals[]>;
  /**
   * Claims the next result to answer, atomically (`FOR UPDATE SKIP LOCKED`): a pending one, or one whose claim
   * lapsed (its process died). The claim lasts `leaseMs`. Null when nothing is left to claim.
   */
  claimNext(runId: string, leaseMs: number): Promise<EvaluationResult | null>;
  /** Stores a claimed result's outcome; false when it was no longer claimed (cancelled meanwhile). */
  finishResult(resultId: string, outcome: ResultOutcome): Promise<boolean>;
  /** Completes the run when no result is pending or claimed; true when this call completed it. */
  completeIfDone(runId: string): Promise<boolean>;
  /** Ends a running run as `cancelled` or `failed`: results not finished become cancelled. False when it was not running. */
  end(runId: string, status: 'cancelled' | 'failed', error: string | null): Promise<boolean>;
  status(runId: string): Promise<EvaluationRun['status'] | null>;
  /** Runs still running (after a restart, those nobody holds). */
  running(limit: number): Promise<string[]>;
}

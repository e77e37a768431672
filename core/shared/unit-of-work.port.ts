/**
 * Runs work as one transaction: every repository statement and published event inside `run` commits
 * together or not at all. Work that must follow the commit (waking a background job) goes to
 * `afterCommit`, which runs at once outside a transaction.
 */
export interface UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T>;
  afterCommit(task: () => void): void;
}

/** No transaction: each statement commits by itself (in-memory tests). */
export const noUnitOfWork: UnitOfWork = { run: (work) => work(), afterCommit: (task) => task() };

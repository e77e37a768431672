import type { DataSource } from 'typeorm';
import type { UnitOfWork } from '../../../core/shared/unit-of-work.port';
import { ambientTransaction } from '../sql';

/**
 * One transaction for the work inside `run`: the statements repositories send to the data source
 * through the `sql.ts` helpers join it (an AsyncLocalStorage carries it), and so does the outbox
 * insert of `SqlEventPublisher`. On PGlite the transaction holds the session until it ends, so the work
 * must run only statements that go through those helpers. A nested `run` joins the outer one.
 */
export class SqlUnitOfWork implements UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    const outer = ambientTransaction.getStore();
    if (outer && outer.dataSource === this.dataSource) return work();
    const afterCommit: Array<() => void> = [];
    const result = await this.dataSource.transaction((manager) => ambientTransaction.run({ dataSource: this.dataSource, manager, afterCommit }, work));
    for (const task of afterCommit) task();
    return result;
  }

  afterCommit(task: () => void): void {
    const current = ambientTransaction.getStore();
    if (current && current.dataSource === this.dataSource) current.afterCommit.push(task);
    else task();
  }
}

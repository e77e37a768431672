import type { Clock } from '../../shared/clock.port';
import type { TraceStore } from '../ports/trace-store.port';

/** Deletes traces past their retention (TRACE_RETENTION_DAYS, 30 by default), like the other expired rows. */
export class SweepExpiredTracesUseCase {
  constructor(private readonly deps: { store: TraceStore; clock: Clock; retentionDays: number }) {}

  execute(): Promise<number> {
    return this.deps.store.deleteStartedBefore(new Date(this.deps.clock.now().getTime() - this.deps.retentionDays * 86_400_000));
  }
}

import type { SqlEventOutbox } from '../../../adapters/persistence/events/sql-event-outbox';
import type { JobQueue } from '../../../core/shared/job-queue.port';
import { token } from '../../shared/tokens';

export const EVENTS_INTERNAL_TOKENS = {
  JobQueue: token<JobQueue>('EventsJobQueue'),
  Outbox: token<SqlEventOutbox>('EventOutbox'),
} as const;

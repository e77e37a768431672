import type { DataSource } from 'typeorm';
import { one } from '../sql';

/** Events written but not yet handed to their subscribers (the outbox's partial index on them keeps this cheap). */
export async function eventOutboxBacklog(db: DataSource): Promise<number> {
  const row = await one<{ n: string }>(db, `SELECT count(*) AS n FROM event_outbox WHERE dispatched_at IS NULL`);
  return Number(row?.n ?? 0);
}

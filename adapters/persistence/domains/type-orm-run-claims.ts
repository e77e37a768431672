import type { DataSource } from 'typeorm';
import type { RunClaims } from '../../../core/domains/ports/run-claims.port';
import { one } from '../sql';

/** One row per job and period: the instance whose insert lands runs it; the primary key stops the rest. */
export class TypeOrmRunClaims implements RunClaims {
  constructor(private readonly db: DataSource) {}

  async claim(job: string, period: string): Promise<boolean> {
    const row = await one<{ job: string }>(
      this.db,
      `INSERT INTO scheduled_runs (job, period) VALUES ($1, $2) ON CONFLICT (job, period) DO NOTHING RETURNING job`,
      [job, period],
    );
    return row !== null;
  }
}

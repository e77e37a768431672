import type { DataSource } from 'typeorm';
import type { OwnedResources } from '../../../core/billing/ports/owned-resources.port';
import { one } from '../sql';

/** Counts for the plan limits: applications, and API keys not revoked (the API-keys area's table). */
export class TypeOrmOwnedResources implements OwnedResources {
  constructor(private readonly db: DataSource) {}

  async applications(ownerId: string): Promise<number> {
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM applications WHERE owner_id = $1`, [ownerId]))?.n ?? 0;
  }

  async apiKeys(ownerId: string): Promise<number> {
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM api_keys WHERE owner_id = $1 AND revoked_at IS NULL`, [ownerId]))?.n ?? 0;
  }
}

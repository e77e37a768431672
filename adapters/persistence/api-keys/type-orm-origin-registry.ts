import type { DataSource } from 'typeorm';
import type { OriginRegistry } from '../../../core/public-api/ports/origin-registry.port';
import { one } from '../sql';

/** Asks the applications table (GIN index on `allowed_origins`) whether any application lists an origin. */
export class TypeOrmOriginRegistry implements OriginRegistry {
  constructor(private readonly db: DataSource) {}

  async isListedByAnyApplication(origin: string): Promise<boolean> {
    const row = await one<{ listed: boolean }>(
      this.db,
      `SELECT EXISTS (SELECT 1 FROM applications WHERE allowed_origins @> $1::jsonb) AS listed`,
      [JSON.stringify([origin])],
    );
    return row?.listed === true;
  }
}

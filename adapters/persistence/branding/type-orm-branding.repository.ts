import type { DataSource } from 'typeorm';
import type { Branding } from '../../../core/branding/domain/branding';
import type { BrandingRepository } from '../../../core/branding/ports/branding-repository.port';
import { one } from '../sql';

type Settings = Omit<Branding, 'updatedAt'>;
interface Row {
  settings: Settings;
  updated_at: Date;
}

const toBranding = (r: Row): Branding => ({ ...r.settings, updatedAt: new Date(r.updated_at) });

export class TypeOrmBrandingRepository implements BrandingRepository {
  constructor(private readonly db: DataSource) {}

  async find(applicationId: string): Promise<Branding | null> {
    const row = await one<Row>(this.db, `SELECT settings, updated_at FROM branding WHERE application_id = $1`, [applicationId]);
    return row && toBranding(row);
  }

  async save(applicationId: string, branding: Settings): Promise<Branding> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO branding (application_id, settings) VALUES ($1, $2::jsonb)
       ON CONFLICT (application_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = now()
       RETURNING settings, updated_at`,
      [applicationId, JSON.stringify(branding)],
    );
    return toBranding(row!);
  }
}

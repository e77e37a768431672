import type { DataSource } from 'typeorm';
import { readStoredConfig, type StudioConfig } from '../../../core/studio/domain/studio-config';
import { MAX_VERSIONS_PER_APPLICATION, type StudioDraft, type StudioRepository, type StudioVersion } from '../../../core/studio/ports/studio-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import { one, rows } from '../sql';

interface DraftRow {
  application_id: string;
  config: unknown;
  based_on_version: number | null;
  updated_by: string | null;
  updated_at: Date;
}

interface VersionRow {
  id: string;
  application_id: string;
  number: number;
  note: string;
  config: unknown;
  published_by: string | null;
  publisher_email: string | null;
  published_at: Date;
}

const toDraft = (r: DraftRow): StudioDraft => ({
  applicationId: r.application_id,
  config: readStoredConfig(r.config),
  basedOnVersion: r.based_on_version,
  updatedBy: r.updated_by,
  updatedAt: new Date(r.updated_at),
});

const toVersion = (r: VersionRow): StudioVersion => ({
  id: r.id,
  applicationId: r.application_id,
  number: r.number,
  note: r.note,
  config: readStoredConfig(r.config),
  publishedBy: r.published_by && r.publisher_email ? { id: r.published_by, email: r.publisher_email } : null,
  publishedAt: new Date(r.published_at),
});

const VERSION_COLUMNS = `v.id, v.application_id, v.number, v.note, v.config, v.published_by, u.email AS publisher_email, v.published_at`;

/** Studio drafts and versions in PostgreSQL or PGlite. */
export class TypeOrmStudioRepository implements StudioRepository {
  constructor(private readonly db: DataSource) {}

  async findDraft(applicationId: string) {
    const row = await one<DraftRow>(this.db, `SELECT * FROM studio_drafts WHERE application_id = $1`, [applicationId]);
    return row && toDraft(row);
  }

  async saveDraft(d: { applicationId: string; config: StudioConfig; basedOnVersion: number | null; updatedBy: string }) {
    const row = await one<DraftRow>(
      this.db,
      `INSERT INTO studio_drafts (application_id, config, based_on_version, updated_by, updated_at)
       SELECT $1, $2::jsonb, $3, $4, clock_timestamp() WHERE EXISTS (SELECT 1 FROM applications WHERE id = $1)
       ON CONFLICT (application_id) DO UPDATE SET config = EXCLUDED.config, based_on_version = EXCLUDED.based_on_version,
         updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [d.applicationId, JSON.stringify(d.config), d.basedOnVersion, d.updatedBy],
    );
    if (!row) throw new NotFoundError('Application');
    return toDraft(row);
  }

  publish(v: { applicationId: string; note: string; config: StudioConfig; publishedBy: string }): Promise<StudioVersion> {
    return this.db.transaction(async (tx) => {
      // Publishes of one application take turns, so each gets the next number.
      const locked = await one(tx, `SELECT id FROM applications WHERE id = $1 FOR NO KEY UPDATE`, [v.applicationId]);
      if (!locked) throw new NotFoundError('Application');
      const last = (await one<{ n: number }>(tx, `SELECT coalesce(max(number), 0)::int AS n FROM studio_versions WHERE application_id = $1`, [v.applicationId]))!.n;
      if (last >= MAX_VERSIONS_PER_APPLICATION) throw new ConflictError(`An application keeps at most ${MAX_VERSIONS_PER_APPLICATION} published versions`);
      const config = JSON.stringify(v.config);
      const inserted = await one<{ id: string }>(
        tx,
        `INSERT INTO studio_versions (application_id, number, note, config, published_by) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING id`,
        [v.applicationId, last + 1, v.note, config, v.publishedBy],
      );
      await tx.query(
        `INSERT INTO studio_drafts (application_id, config, based_on_version, updated_by, updated_at) VALUES ($1, $2::jsonb, $3, $4, clock_timestamp())
         ON CONFLICT (application_id) DO UPDATE SET config = EXCLUDED.config, based_on_version = EXCLUDED.based_on_version, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
        [v.applicationId, config, last + 1, v.publishedBy],
      );
      const row = await one<VersionRow>(tx, `SELECT ${VERSION_COLUMNS} FROM studio_versions v LEFT JOIN users u ON u.id = v.published_by WHERE v.id = $1`, [inserted!.id]);
      return toVersion(row!);
    });
  }

  async listVersions(applicationId: string, offset: number, limit: number) {
    const found = await rows<VersionRow & { total: number }>(
      this.db,
      `SELECT ${VERSION_COLUMNS}, count(*) OVER ()::int AS total FROM studio_versions v LEFT JOIN users u ON u.id = v.published_by
       WHERE v.application_id = $1 ORDER BY v.number DESC LIMIT $2 OFFSET $3`,
      [applicationId, limit, offset],
    );
    const total = found[0]?.total ?? (offset > 0 ? (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM studio_versions WHERE application_id = $1`, [applicationId]))!.n : 0);
    return { data: found.map(toVersion), total };
  }

  async findVersion(applicationId: string, number: number) {
    const row = await one<VersionRow>(this.db, `SELECT ${VERSION_COLUMNS} FROM studio_versions v LEFT JOIN users u ON u.id = v.published_by WHERE v.application_id = $1 AND v.number = $2`, [applicationId, number]);
    return row && toVersion(row);
  }

  async latestVersion(applicationId: string) {
    const row = await one<VersionRow>(
      this.db,
      `SELECT ${VERSION_COLUMNS} FROM studio_versions v LEFT JOIN users u ON u.id = v.published_by WHERE v.application_id = $1 ORDER BY v.number DESC LIMIT 1`,
      [applicationId],
    );
    return row && toVersion(row);
  }
}

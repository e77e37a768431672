import type { DataSource } from 'typeorm';
import type { Application, ThemeCustomization } from '../../../core/applications/domain/application';
import type { TeamRole } from '../../../core/access/roles';
import type { ApplicationChanges, ApplicationHolder, ApplicationRepository, NewApplication } from '../../../core/applications/ports/application-repository.port';
import { NotFoundError } from '../../../core/shared/errors';
import type { OwnerLimit } from '../../../core/shared/owner-limit';
import { affected, insertWithinLimit, one, rows, uniquely } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  team_id: string | null;
  name: string;
  description: string;
  slug: string;
  theme_id: string | null;
  theme_customization: ThemeCustomization;
  allowed_origins: string[];
  hosted_page_enabled: boolean;
  retrieval_mode?: Application['retrievalMode'];
  created_at: Date;
  updated_at: Date;
}

const toApp = (r: Row): Application => ({
  id: r.id,
  ownerId: r.owner_id,
  teamId: r.team_id ?? null,
  name: r.name,
  description: r.description,
  slug: r.slug,
  themeId: r.theme_id,
  themeCustomization: r.theme_customization ?? {},
  allowedOrigins: r.allowed_origins ?? [],
  hostedPageEnabled: r.hosted_page_enabled === true,
  retrievalMode: r.retrieval_mode ?? 'hybrid',
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS: Record<keyof ApplicationChanges, { column: string; json?: boolean }> = {
  name: { column: 'name' },
  description: { column: 'description' },
  slug: { column: 'slug' },
  allowedOrigins: { column: 'allowed_origins', json: true },
  themeId: { column: 'theme_id' },
  themeCustomization: { column: 'theme_customization', json: true },
  hostedPageEnabled: { column: 'hosted_page_enabled' },
  retrievalMode: { column: 'retrieval_mode' },
};

const slugTaken = () => 'This slug is already taken';
const FOREIGN_KEY_VIOLATION = '23503';

/** Placing an application in a team deleted after the caller's role in it was read: as if it never existed (404). */
async function teamMustExist<T>(teamId: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError ?? (error as { code?: string; constraint?: string });
    if (teamId && driverError?.code === FOREIGN_KEY_VIOLATION && driverError.constraint?.includes('team')) throw new NotFoundError('Team');
    throw error;
  }
}

export class TypeOrmApplicationRepository implements ApplicationRepository {
  constructor(private readonly db: DataSource) {}

  create(app: NewApplication, limit?: OwnerLimit | null): Promise<Application> {
    return teamMustExist(app.teamId, () => this.insert(app, limit));
  }

  private async insert(app: NewApplication, limit?: OwnerLimit | null): Promise<Application> {
    const row = await uniquely(
      () =>
        insertWithinLimit(
          this.db,
          limit,
          { scope: 'applications', ownerId: app.ownerId, countSql: `SELECT count(*)::int AS n FROM applications WHERE owner_id = $1` },
          (sql) =>
            one<Row>(
              sql,
              `INSERT INTO applications (owner_id, team_id, name, description, slug, allowed_origins)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb) RETURNING *`,
              [app.ownerId, app.teamId ?? null, app.name, app.description, app.slug, JSON.stringify(app.allowedOrigins)],
            ),
        ),
      slugTaken,
    );
    return toApp(row!);
  }

  async findById(id: string): Promise<Application | null> {
    const row = await one<Row>(this.db, `SELECT * FROM applications WHERE id = $1`, [id]);
    return row && toApp(row);
  }

  async findBySlug(slug: string): Promise<Application | null> {
    const row = await one<Row>(this.db, `SELECT * FROM applications WHERE slug = $1`, [slug]);
    return row && toApp(row);
  }

  async listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: Application[]; total: number }> {
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT * FROM applications WHERE owner_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [ownerId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM applications WHERE owner_id = $1`, [ownerId]),
    ]);
    return { items: items.map(toApp), total: count?.n ?? 0 };
  }

  async listVisible(userId: string, teamId: string | null | undefined, offset: number, limit: number): Promise<{ items: Application[]; total: number }> {
    // Personal: owned and held by no team; team: held by a team the user belongs to.
    const where =
      teamId === undefined
        ? `(a.team_id IS NULL AND a.owner_id = $1) OR a.team_id IN (SELECT m.team_id FROM team_members m WHERE m.user_id = $1)`
        : teamId === null
          ? `a.team_id IS NULL AND a.owner_id = $1`
          : `a.team_id = $2 AND EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = $2 AND m.user_id = $1)`;
    const params = teamId ? [userId, teamId] : [userId];
    const n = params.length;
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT a.* FROM applications a WHERE ${where} ORDER BY a.created_at DESC, a.id LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM applications a WHERE ${where}`, params),
    ]);
    return { items: items.map(toApp), total: count?.n ?? 0 };
  }

  async roleInTeam(teamId: string, userId: string): Promise<TeamRole | null> {
    return (await one<{ role: TeamRole }>(this.db, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, [teamId, userId]))?.role ?? null;
  }

  async moveTo(id: string, holder: ApplicationHolder, limit?: OwnerLimit | null): Promise<Application> {
    // Counted under the same per-owner lock as `create`. An application the owner already holds (moved
    // into their own team) adds nothing: the count is 0 then, so it is neither counted twice nor refused.
    const count = {
      scope: 'applications',
      ownerId: holder.ownerId,
      countSql: `SELECT count(*)::int AS n FROM applications
                 WHERE owner_id = $1 AND NOT EXISTS (SELECT 1 FROM applications WHERE id = $2 AND owner_id = $1)`,
      countParams: [id],
    };
    // What belongs to the application and records an owner of its own moves with it, in the same statement.
    const row = await teamMustExist(holder.teamId, () => insertWithinLimit(this.db, limit, count, (sql) =>
      one<Row>(
        sql,
        `WITH moved AS (UPDATE applications SET team_id = $2, owner_id = $3, updated_at = now() WHERE id = $1 RETURNING *),
              keys AS (UPDATE api_keys SET owner_id = $3 WHERE application_id = $1 AND EXISTS (SELECT 1 FROM moved)),
              domains AS (UPDATE custom_domains SET owner_id = $3 WHERE application_id = $1 AND EXISTS (SELECT 1 FROM moved)),
              hooks AS (UPDATE webhooks SET owner_id = $3 WHERE application_id = $1 AND EXISTS (SELECT 1 FROM moved)),
              flows AS (UPDATE workflows SET owner_id = $3 WHERE application_id = $1 AND EXISTS (SELECT 1 FROM moved))
         SELECT * FROM moved`,
        [id, holder.teamId, holder.ownerId],
      ),
    ));
    if (!row) throw new NotFoundError('Application');
    return toApp(row);
  }

  async reassignTeam(teamId: string, ownerId: string): Promise<void> {
    await rows(
      this.db,
      `WITH apps AS (UPDATE applications SET owner_id = $2, updated_at = now() WHERE team_id = $1 RETURNING id),
            keys AS (UPDATE api_keys SET owner_id = $2 WHERE application_id IN (SELECT id FROM apps)),
            domains AS (UPDATE custom_domains SET owner_id = $2 WHERE application_id IN (SELECT id FROM apps)),
            hooks AS (UPDATE webhooks SET owner_id = $2 WHERE application_id IN (SELECT id FROM apps)),
            flows AS (UPDATE workflows SET owner_id = $2 WHERE application_id IN (SELECT id FROM apps)),
            bases AS (UPDATE knowledge_bases SET owner_id = $2, updated_at = now() WHERE team_id = $1)
       SELECT count(*)::int AS n FROM apps`,
      [teamId, ownerId],
    );
  }

  async countByOwner(ownerId: string): Promise<number> {
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM applications WHERE owner_id = $1`, [ownerId]))?.n ?? 0;
  }

  async update(id: string, changes: ApplicationChanges): Promise<Application> {
    const entries = (Object.entries(changes) as [keyof ApplicationChanges, unknown][]).filter(([k, v]) => v !== undefined && COLUMNS[k]);
    const sets = entries.map(([k], i) => `${COLUMNS[k].column} = $${i + 2}${COLUMNS[k].json ? '::jsonb' : ''}`);
    const params = entries.map(([k, v]) => (COLUMNS[k].json ? JSON.stringify(v) : v));
    const row = await uniquely(
      () => one<Row>(this.db, `UPDATE applications SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`, [id, ...params]),
      slugTaken,
    );
    if (!row) throw new NotFoundError('Application');
    return toApp(row);
  }

  async delete(id: string): Promise<void> {
    await affected(this.db, `DELETE FROM applications WHERE id = $1`, [id]);
  }
}

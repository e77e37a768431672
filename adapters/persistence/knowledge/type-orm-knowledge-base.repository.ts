import type { DataSource } from 'typeorm';
import type { KnowledgeBase } from '../../../core/knowledge/domain/knowledge-base';
import type { KnowledgeBaseRepository, NewKnowledgeBase } from '../../../core/knowledge/ports/knowledge-base-repository.port';
import { affected, one, rows } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  team_id: string | null;
  application_id: string | null;
  name: string;
  description: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * A base with the owner and team that decide access: an application's own base answers its application's
 * (an application moved to a team takes its base along without a write here).
 */
const HELD = `
  SELECT b.id, COALESCE(a.owner_id, b.owner_id) AS owner_id, COALESCE(a.team_id, b.team_id) AS team_id,
         b.application_id, COALESCE(a.name, b.name) AS name, b.description, b.created_by, b.created_at, b.updated_at
    FROM knowledge_bases b LEFT JOIN applications a ON a.id = b.application_id`;

const toBase = (r: Row): KnowledgeBase => ({
  id: r.id,
  ownerId: r.owner_id,
  teamId: r.team_id,
  applicationId: r.application_id,
  name: r.name,
  description: r.description,
  createdBy: r.created_by,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const VISIBLE = `b.application_id IS NULL AND ((b.team_id IS NULL AND b.owner_id = $1) OR b.team_id IN (SELECT m.team_id FROM team_members m WHERE m.user_id = $1))`;

export class TypeOrmKnowledgeBaseRepository implements KnowledgeBaseRepository {
  constructor(private readonly db: DataSource) {}

  async create(base: NewKnowledgeBase): Promise<KnowledgeBase | null> {
    // A team's base is owned by the team's Owner (as a team's applications are), read in the same statement.
    const row = await one<Row>(
      this.db,
      `INSERT INTO knowledge_bases (owner_id, team_id, name, description, created_by)
         SELECT owner, $1::uuid, $2, $3, $4::uuid
           FROM (SELECT CASE WHEN $1::uuid IS NULL THEN $4::uuid ELSE (SELECT user_id FROM team_members WHERE team_id = $1::uuid AND role = 'owner') END AS owner) o
          WHERE owner IS NOT NULL
       RETURNING *`,
      [base.teamId, base.name, base.description, base.createdBy],
    );
    return row && toBase(row);
  }

  async findById(id: string): Promise<KnowledgeBase | null> {
    const row = await one<Row>(this.db, `${HELD} WHERE b.id = $1`, [id]);
    return row && toBase(row);
  }

  async listVisible(userId: string, filter: { teamId?: string }, offset: number, limit: number): Promise<{ items: KnowledgeBase[]; total: number }> {
    const where = filter.teamId ? `${VISIBLE} AND b.team_id = $2` : VISIBLE;
    const params = filter.teamId ? [userId, filter.teamId] : [userId];
    const n = params.length;
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `${HELD} WHERE ${where} ORDER BY b.created_at DESC, b.id LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM knowledge_bases b WHERE ${where}`, params),
    ]);
    return { items: items.map(toBase), total: count?.n ?? 0 };
  }

  async countOwned(holder: { ownerId: string } | { teamId: string }): Promise<number> {
    const found =
      'teamId' in holder
        ? await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM knowledge_bases WHERE application_id IS NULL AND team_id = $1`, [holder.teamId])
        : await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM knowledge_bases WHERE application_id IS NULL AND team_id IS NULL AND owner_id = $1`, [holder.ownerId]);
    return found?.n ?? 0;
  }

  async documentCount(id: string): Promise<number> {
    return (await one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM knowledge_documents WHERE application_id = $1`, [id]))?.n ?? 0;
  }

  async documentCounts(ids: string[]): Promise<Map<string, number>> {
    const found = await rows<{ id: string; n: number }>(
      this.db,
      `SELECT application_id AS id, count(*)::int AS n FROM knowledge_documents WHERE application_id = ANY($1::uuid[]) GROUP BY application_id`,
      [ids],
    );
    return new Map(found.map((r) => [r.id, Number(r.n)]));
  }

  async update(id: string, changes: { name?: string; description?: string }): Promise<KnowledgeBase | null> {
    const found = await affected(
      this.db,
      `UPDATE knowledge_bases SET name = COALESCE($2, name), description = COALESCE($3, description), updated_at = now() WHERE id = $1`,
      [id, changes.name ?? null, changes.description ?? null],
    );
    return found > 0 ? this.findById(id) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM knowledge_bases WHERE id = $1 AND application_id IS NULL`, [id])) > 0;
  }

  async usedBy(applicationId: string): Promise<KnowledgeBase[]> {
    const found = await rows<Row>(
      this.db,
      `${HELD} JOIN knowledge_application_bases u ON u.base_id = b.id WHERE u.application_id = $1 ORDER BY u.created_at, b.id`,
      [applicationId],
    );
    return found.map(toBase);
  }

  async setUsedBy(applicationId: string, baseIds: string[]): Promise<void> {
    // One statement: the bases no longer used go, the new ones come, in the order given.
    await this.db.query(
      `WITH gone AS (DELETE FROM knowledge_application_bases WHERE application_id = $1 AND NOT (base_id = ANY($2::uuid[])))
       INSERT INTO knowledge_application_bases (application_id, base_id, created_at)
         SELECT $1, t.id, now() + (t.ord * interval '1 microsecond') FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ord)
       ON CONFLICT DO NOTHING`,
      [applicationId, baseIds],
    );
  }
}

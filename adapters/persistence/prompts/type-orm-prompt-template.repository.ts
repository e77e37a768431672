import type { DataSource } from 'typeorm';
import { MAX_TEMPLATES_PER_APPLICATION, type PromptTemplate } from '../../../core/prompts/domain/prompt-template';
import type { NewPromptTemplate, PromptTemplateChanges, PromptTemplateRepository } from '../../../core/prompts/ports/prompt-template-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import { one, rows, type Sql } from '../sql';

interface Row {
  id: string;
  application_id: string;
  name: string;
  content: string;
  variables: string[];
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

const toTemplate = (r: Row): PromptTemplate => ({
  id: r.id,
  applicationId: r.application_id,
  name: r.name,
  content: r.content,
  variables: r.variables ?? [],
  isDefault: r.is_default,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const COLUMNS: Record<keyof PromptTemplateChanges, { column: string; json?: boolean }> = {
  name: { column: 'name' },
  content: { column: 'content' },
  variables: { column: 'variables', json: true },
};

/** Serialises changes of an application's default template (see the model-config repository). */
async function lockApplication(db: Sql, applicationId: string): Promise<void> {
  const locked = await one(db, `SELECT id FROM applications WHERE id = $1 FOR NO KEY UPDATE`, [applicationId]);
  if (!locked) throw new NotFoundError('Application');
}

const unsetDefault = (db: Sql, applicationId: string) =>
  db.query(`UPDATE prompt_templates SET is_default = false, updated_at = clock_timestamp() WHERE application_id = $1 AND is_default`, [applicationId]);

export class TypeOrmPromptTemplateRepository implements PromptTemplateRepository {
  constructor(private readonly db: DataSource) {}

  create(t: NewPromptTemplate): Promise<PromptTemplate> {
    return this.db.transaction(async (tx) => {
      await lockApplication(tx, t.applicationId);
      const held = (await one<{ n: number }>(tx, `SELECT count(*)::int AS n FROM prompt_templates WHERE application_id = $1`, [t.applicationId]))?.n ?? 0;
      if (held >= MAX_TEMPLATES_PER_APPLICATION) throw new ConflictError(`An application holds at most ${MAX_TEMPLATES_PER_APPLICATION} prompt templates`);
      if (t.makeDefault) await unsetDefault(tx, t.applicationId);
      const row = await one<Row>(
        tx,
        `INSERT INTO prompt_templates (application_id, name, content, variables, is_default) VALUES ($1, $2, $3, $4::jsonb, $5) RETURNING *`,
        [t.applicationId, t.name, t.content, JSON.stringify(t.variables), t.makeDefault],
      );
      return toTemplate(row!);
    });
  }

  async findWithOwner(id: string) {
    const row = await one<Row & { owner_id: string; team_id: string | null }>(
      this.db,
      `SELECT t.*, a.owner_id, a.team_id FROM prompt_templates t JOIN applications a ON a.id = t.application_id WHERE t.id = $1`,
      [id],
    );
    return row && { template: toTemplate(row), ownerId: row.owner_id, teamId: row.team_id ?? null };
  }

  async listByApplication(applicationId: string, offset: number, limit: number) {
    const found = await rows<Row>(
      this.db,
      `SELECT * FROM prompt_templates WHERE application_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [applicationId, limit, offset],
    );
    return found.map(toTemplate);
  }

  async findDefault(applicationId: string) {
    const row = await one<Row>(this.db, `SELECT * FROM prompt_templates WHERE application_id = $1 AND is_default`, [applicationId]);
    return row && toTemplate(row);
  }

  async update(id: string, changes: PromptTemplateChanges) {
    const entries = (Object.entries(changes) as [keyof PromptTemplateChanges, unknown][]).filter(([k, v]) => v !== undefined && COLUMNS[k]);
    const sets = entries.map(([k], i) => `${COLUMNS[k].column} = $${i + 2}${COLUMNS[k].json ? '::jsonb' : ''}`);
    const params = entries.map(([k, v]) => (COLUMNS[k].json ? JSON.stringify(v) : v));
    const row = await one<Row>(
      this.db,
      `UPDATE prompt_templates SET ${[...sets, 'updated_at = clock_timestamp()'].join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...params],
    );
    if (!row) throw new NotFoundError('Prompt template');
    return toTemplate(row);
  }

  setDefault(id: string, isDefault: boolean): Promise<PromptTemplate> {
    return this.db.transaction(async (tx) => {
      const target = await one<{ application_id: string }>(tx, `SELECT application_id FROM prompt_templates WHERE id = $1`, [id]);
      if (!target) throw new NotFoundError('Prompt template');
      await lockApplication(tx, target.application_id);
      if (isDefault) {
        await tx.query(
          `UPDATE prompt_templates SET is_default = false, updated_at = clock_timestamp() WHERE application_id = $1 AND is_default AND id <> $2`,
          [target.application_id, id],
        );
      }
      const row = await one<Row>(
        tx,
        `UPDATE prompt_templates SET is_default = $2, updated_at = CASE WHEN is_default = $2 THEN updated_at ELSE clock_timestamp() END
         WHERE id = $1 RETURNING *`,
        [id, isDefault],
      );
      if (!row) throw new NotFoundError('Prompt template');
      return toTemplate(row);
    });
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM prompt_templates WHERE id = $1`, [id]);
  }
}

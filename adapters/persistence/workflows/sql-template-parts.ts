import type { DataSource } from 'typeorm';
import type { ApplicationTemplate } from '../../../core/workflows/domain/templates';
import type { TemplateParts } from '../../../core/workflows/ports/template-parts.port';
import { one } from '../sql';

/**
 * A new application's first model config and prompt, each its application's default. Plain inserts through
 * the `sql.ts` helpers, so they join the deployment's unit of work: the model-config and prompt repositories
 * open transactions of their own (to keep one default under a lock), which a fresh application does not need.
 */
export class SqlTemplateParts implements TemplateParts {
  constructor(private readonly db: DataSource) {}

  async addModelConfig(applicationId: string, c: ApplicationTemplate['modelConfig']): Promise<{ id: string }> {
    const row = await one<{ id: string }>(
      this.db,
      `INSERT INTO model_configs (application_id, name, provider, model_id, settings, is_default) VALUES ($1, $2, $3, $4, $5::jsonb, true) RETURNING id`,
      [applicationId, c.name, c.provider, c.modelId, JSON.stringify(c.settings)],
    );
    return { id: row!.id };
  }

  async addPrompt(applicationId: string, p: NonNullable<ApplicationTemplate['prompt']>): Promise<{ id: string }> {
    const variables = [...new Set([...p.content.matchAll(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1]!))];
    const row = await one<{ id: string }>(
      this.db,
      `INSERT INTO prompt_templates (application_id, name, content, variables, is_default) VALUES ($1, $2, $3, $4::jsonb, false) RETURNING id`,
      [applicationId, p.name, p.content, JSON.stringify(variables)],
    );
    return { id: row!.id };
  }
}

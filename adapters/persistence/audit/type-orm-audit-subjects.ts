import type { DataSource } from 'typeorm';
import type { AuditSubject, AuditSubjects } from '../../../core/audit/ports/audit-log.port';
import { isUuid } from '../../../core/shared/ids';
import { one } from '../sql';

/** The table of each audited resource type that belongs to an application (column `application_id`). */
const TABLES: Record<string, string> = {
  model_config: 'model_configs',
  prompt: 'prompt_templates',
  knowledge_document: 'knowledge_documents',
  api_key: 'api_keys',
  webhook: 'webhooks',
  custom_domain: 'custom_domains',
  tool: 'tools',
  mcp_server: 'mcp_servers',
  workflow: 'workflows',
};

/** Finds an audited resource's application and its team, in one statement by primary key. */
export class TypeOrmAuditSubjects implements AuditSubjects {
  constructor(private readonly db: DataSource) {}

  async locate(resourceType: string, resourceId: string): Promise<AuditSubject | null> {
    if (!isUuid(resourceId)) return null;
    const table = Object.hasOwn(TABLES, resourceType) ? TABLES[resourceType] : resourceType === 'application' ? 'applications' : undefined;
    if (!table) return null;
    const row =
      table === 'applications'
        ? await one<{ application_id: string; team_id: string | null }>(this.db, `SELECT id AS application_id, team_id FROM applications WHERE id = $1`, [resourceId])
        : await one<{ application_id: string; team_id: string | null }>(
            this.db,
            `SELECT r.application_id, a.team_id FROM ${table} r JOIN applications a ON a.id = r.application_id WHERE r.id = $1`,
            [resourceId],
          );
    return row ? { applicationId: row.application_id, teamId: row.team_id } : null;
  }
}

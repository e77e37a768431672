import type { DataSource } from 'typeorm';
import type { AgentSettings, ToolChoice } from '../../../core/tools/domain/agent-settings';
import type { JsonObject, Tool, ToolSource } from '../../../core/tools/domain/tool';
import type { NewTool, ToolChange, ToolRepository } from '../../../core/tools/ports/tool-repository.port';
import { affected, one, rows, uniquely } from '../sql';

interface ToolRow {
  id: string;
  owner_id: string;
  application_id: string;
  name: string;
  description: string;
  parameters: JsonObject | string;
  source: ToolSource | string;
  timeout_ms: number;
  secrets_sealed: Record<string, string> | string;
  created_at: Date | string;
  updated_at: Date | string;
}

interface SettingsRow {
  enabled_tools: string[];
  /** As text: a jsonb string ("auto") would otherwise arrive as a bare JS string, not told from JSON text. */
  tool_choice: string;
  max_tool_rounds: number;
  time_budget_ms: number;
  parallel_calls: boolean;
}

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
/** PostgreSQL's jsonb refuses the NUL character, so it is dropped. */
const jsonb = (v: unknown): string => JSON.stringify(v).replace(/(?<!\\)\\u0000/g, '');
const COLUMNS = 'id, owner_id, application_id, name, description, parameters, source, timeout_ms, secrets_sealed, created_at, updated_at';

const toTool = (r: ToolRow): Tool => ({
  id: r.id,
  ownerId: r.owner_id,
  applicationId: r.application_id,
  name: r.name,
  description: r.description,
  parameters: json(r.parameters),
  source: json(r.source),
  timeoutMs: Number(r.timeout_ms),
  secretsSealed: json(r.secrets_sealed ?? {}),
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const taken = () => 'The application already has a tool of this name';

/** Tools and agent settings in PostgreSQL (or PGlite). */
export class SqlToolRepository implements ToolRepository {
  constructor(private readonly db: DataSource) {}

  async create(t: NewTool): Promise<Tool> {
    const row = await uniquely(
      () =>
        one<ToolRow>(
          this.db,
          `INSERT INTO tools (id, owner_id, application_id, name, description, parameters, source, timeout_ms, secrets_sealed)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9::jsonb) RETURNING ${COLUMNS}`,
          [t.id, t.ownerId, t.applicationId, t.name, t.description, jsonb(t.parameters), jsonb(t.source), t.timeoutMs, jsonb(t.secretsSealed)],
        ),
      taken,
    );
    return toTool(row!);
  }

  async findById(id: string): Promise<Tool | null> {
    const row = await one<ToolRow>(this.db, `SELECT ${COLUMNS} FROM tools WHERE id = $1`, [id]);
    return row ? toTool(row) : null;
  }

  async listByApplication(applicationId: string): Promise<Tool[]> {
    return (await rows<ToolRow>(this.db, `SELECT ${COLUMNS} FROM tools WHERE application_id = $1 ORDER BY name`, [applicationId])).map(toTool);
  }

  async update(id: string, c: ToolChange): Promise<Tool | null> {
    const row = await uniquely(
      () =>
        one<ToolRow>(
          this.db,
          `UPDATE tools SET name = COALESCE($2, name), description = COALESCE($3, description), parameters = COALESCE($4::jsonb, parameters),
             source = COALESCE($5::jsonb, source), timeout_ms = COALESCE($6, timeout_ms), secrets_sealed = COALESCE($7::jsonb, secrets_sealed), updated_at = now()
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [
            id,
            c.name ?? null,
            c.description ?? null,
            c.parameters ? jsonb(c.parameters) : null,
            c.source ? jsonb(c.source) : null,
            c.timeoutMs ?? null,
            c.secretsSealed ? jsonb(c.secretsSealed) : null,
          ],
        ),
      taken,
    );
    return row ? toTool(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM tools WHERE id = $1`, [id])) > 0;
  }

  async agentSettings(applicationId: string): Promise<AgentSettings | null> {
    const row = await one<SettingsRow>(
      this.db,
      `SELECT enabled_tools, tool_choice::text AS tool_choice, max_tool_rounds, time_budget_ms, parallel_calls FROM application_agent_settings WHERE application_id = $1`,
      [applicationId],
    );
    return row ? toSettings(row) : null;
  }

  async saveAgentSettings(applicationId: string, s: AgentSettings): Promise<AgentSettings> {
    const row = await one<SettingsRow>(
      this.db,
      `INSERT INTO application_agent_settings (application_id, enabled_tools, tool_choice, max_tool_rounds, time_budget_ms, parallel_calls)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6)
       ON CONFLICT (application_id) DO UPDATE SET enabled_tools = EXCLUDED.enabled_tools, tool_choice = EXCLUDED.tool_choice,
         max_tool_rounds = EXCLUDED.max_tool_rounds, time_budget_ms = EXCLUDED.time_budget_ms, parallel_calls = EXCLUDED.parallel_calls, updated_at = now()
       RETURNING enabled_tools, tool_choice::text AS tool_choice, max_tool_rounds, time_budget_ms, parallel_calls`,
      [applicationId, s.enabledTools, jsonb(s.toolChoice), s.maxToolRounds, s.timeBudgetMs, s.parallelCalls],
    );
    return toSettings(row!);
  }
}

function toSettings(r: SettingsRow): AgentSettings {
  return {
    enabledTools: r.enabled_tools ?? [],
    toolChoice: JSON.parse(r.tool_choice) as ToolChoice,
    maxToolRounds: Number(r.max_tool_rounds),
    timeBudgetMs: Number(r.time_budget_ms),
    parallelCalls: r.parallel_calls,
  };
}

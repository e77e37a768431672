import type { DataSource } from 'typeorm';
import type { McpServer, McpToolInfo, McpTransport, McpTransportChoice } from '../../../core/tools/domain/mcp-server';
import type { McpServerChange, McpServerRepository, NewMcpServer } from '../../../core/tools/ports/mcp-server-repository.port';
import { affected, one, rows, uniquely } from '../sql';

interface ServerRow {
  id: string;
  owner_id: string;
  application_id: string;
  name: string;
  url: string;
  transport: string;
  headers_sealed: Record<string, string> | string;
  secrets_sealed: Record<string, string> | string;
  timeout_ms: number;
  tools: McpToolInfo[] | string;
  connected_with: string | null;
  tools_refreshed_at: Date | string | null;
  last_error: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const json = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
/** PostgreSQL's jsonb refuses the NUL character (a remote server's tool list may hold one), so it is dropped. */
const jsonb = (v: unknown): string => JSON.stringify(v).replace(/(?<!\\)\\u0000/g, '');
const COLUMNS = 'id, owner_id, application_id, name, url, transport, headers_sealed, secrets_sealed, timeout_ms, tools, connected_with, tools_refreshed_at, last_error, created_at, updated_at';

const toServer = (r: ServerRow): McpServer => ({
  id: r.id,
  ownerId: r.owner_id,
  applicationId: r.application_id,
  name: r.name,
  url: r.url,
  transport: r.transport as McpTransportChoice,
  headersSealed: json(r.headers_sealed ?? {}),
  secretsSealed: json(r.secrets_sealed ?? {}),
  timeoutMs: Number(r.timeout_ms),
  tools: json(r.tools ?? []),
  connectedWith: (r.connected_with as McpTransport | null) ?? null,
  toolsRefreshedAt: r.tools_refreshed_at ? date(r.tools_refreshed_at) : null,
  lastError: r.last_error,
  createdAt: date(r.created_at),
  updatedAt: date(r.updated_at),
});

const taken = () => 'The application already has an MCP server of this name';

/** MCP servers in PostgreSQL (or PGlite). */
export class SqlMcpServerRepository implements McpServerRepository {
  constructor(private readonly db: DataSource) {}

  async create(s: NewMcpServer): Promise<McpServer> {
    const row = await uniquely(
      () =>
        one<ServerRow>(
          this.db,
          `INSERT INTO mcp_servers (id, owner_id, application_id, name, url, transport, headers_sealed, secrets_sealed, timeout_ms, tools, connected_with, tools_refreshed_at, last_error)
           VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10::jsonb, $11, $12, $13) RETURNING ${COLUMNS}`,
          [s.id, s.ownerId, s.applicationId, s.name, s.url, s.transport, jsonb(s.headersSealed), jsonb(s.secretsSealed), s.timeoutMs, jsonb(s.tools), s.connectedWith, s.toolsRefreshedAt, s.lastError],
        ),
      taken,
    );
    return toServer(row!);
  }

  async findById(id: string): Promise<McpServer | null> {
    const row = await one<ServerRow>(this.db, `SELECT ${COLUMNS} FROM mcp_servers WHERE id = $1`, [id]);
    return row ? toServer(row) : null;
  }

  async listByApplication(applicationId: string): Promise<McpServer[]> {
    return (await rows<ServerRow>(this.db, `SELECT ${COLUMNS} FROM mcp_servers WHERE application_id = $1 ORDER BY created_at, name`, [applicationId])).map(toServer);
  }

  async update(id: string, c: McpServerChange): Promise<McpServer | null> {
    const has = (k: keyof McpServerChange) => Object.hasOwn(c, k) && c[k] !== undefined;
    const row = await uniquely(
      () =>
        one<ServerRow>(
          this.db,
          `UPDATE mcp_servers SET name = COALESCE($2, name), url = COALESCE($3, url), transport = COALESCE($4, transport), headers_sealed = COALESCE($5::jsonb, headers_sealed),
             secrets_sealed = COALESCE($6::jsonb, secrets_sealed), timeout_ms = COALESCE($7, timeout_ms), tools = COALESCE($8::jsonb, tools),
             connected_with = CASE WHEN $9 THEN $10 ELSE connected_with END, tools_refreshed_at = COALESCE($11, tools_refreshed_at),
             last_error = CASE WHEN $12 THEN $13 ELSE last_error END, updated_at = now()
           WHERE id = $1 RETURNING ${COLUMNS}`,
          [
            id,
            c.name ?? null,
            c.url ?? null,
            c.transport ?? null,
            c.headersSealed ? jsonb(c.headersSealed) : null,
            c.secretsSealed ? jsonb(c.secretsSealed) : null,
            c.timeoutMs ?? null,
            c.tools ? jsonb(c.tools) : null,
            has('connectedWith'),
            c.connectedWith ?? null,
            c.toolsRefreshedAt ?? null,
            Object.hasOwn(c, 'lastError'),
            c.lastError ?? null,
          ],
        ),
      taken,
    );
    return row ? toServer(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM mcp_servers WHERE id = $1`, [id])) > 0;
  }
}

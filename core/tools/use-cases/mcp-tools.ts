import type { SecretBox } from '../../shared/secret-box.port';
import { exposedToolName, MAX_MCP_TOOLS, mcpHeaderAad, mcpSecretAad, type McpServer, type McpToolInfo } from '../domain/mcp-server';
import { MAX_DESCRIPTION, MAX_SCHEMA_BYTES, TOOL_NAME, type JsonObject, type Tool } from '../domain/tool';
import { fillHeaders } from '../domain/tool-input';
import type { JsonSchemaChecker } from '../ports/json-schema.port';
import { McpUnreachable, type McpClient, type McpConnection, type McpListedTool } from '../ports/mcp-client.port';
import type { McpServerRepository } from '../ports/mcp-server-repository.port';
import { ToolFailure, type ToolCallContext, type ToolRunner } from '../ports/tool-runner.port';
import type { ToolSourceCatalog } from '../ports/tool-source.port';

interface Deps {
  servers: McpServerRepository;
  client: McpClient;
  schemas: JsonSchemaChecker;
  secretBox: SecretBox;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The server's connection with its secrets opened into the headers, and what to scrub from any message. */
function connectionOf(secretBox: SecretBox, server: McpServer, signal?: AbortSignal, detect = false): { connection: McpConnection; scrub: (text: string) => string } {
  const secrets = Object.fromEntries(Object.entries(server.secretsSealed).map(([name, sealed]) => [name, secretBox.open(sealed, mcpSecretAad(server.id, name))]));
  const headers = fillHeaders(Object.fromEntries(Object.entries(server.headersSealed).map(([name, sealed]) => [name, secretBox.open(sealed, mcpHeaderAad(server.id, name))])), secrets);
  // A header value may be a credential pasted as is ("Bearer abc…"): it, and each long word of it, is scrubbed too.
  const headerWords = Object.values(headers).flatMap((v) => [v, ...v.split(/\s+/).filter((w) => w.length >= 8)]);
  const values = [...Object.values(secrets), ...headerWords].filter((v) => v.length >= 4).sort((a, b) => b.length - a.length);
  const scrub = (text: string) => values.reduce((t, v) => t.split(v).join('[secret]'), text);
  return {
    connection: { url: server.url, transport: server.transport === 'auto' && server.connectedWith && !detect ? server.connectedWith : server.transport, headers, timeoutMs: server.timeoutMs, signal },
    scrub,
  };
}

/** A listed tool as kept: the description cut, `$schema` dropped (the kept validator is draft-07), and why it cannot be offered, if so. */
function keptTool(serverName: string, listed: McpListedTool, schemas: JsonSchemaChecker): McpToolInfo {
  const name = String(listed.name).slice(0, 128);
  const { $schema: _dropped, ...schema } = isObject(listed.inputSchema) ? listed.inputSchema : { type: 'object' };
  const inputSchema: JsonObject = { ...schema, type: 'object' };
  const tool: McpToolInfo = { name, description: String(listed.description ?? '').slice(0, MAX_DESCRIPTION), inputSchema };
  let problem: string | null = null;
  if (!TOOL_NAME.test(exposedToolName(serverName, name))) problem = `its name as offered (${exposedToolName(serverName, name).slice(0, 80)}) is not 1 to 64 letters, digits, _ or -`;
  else if (Buffer.byteLength(JSON.stringify(inputSchema)) > MAX_SCHEMA_BYTES) problem = `its input schema is over ${MAX_SCHEMA_BYTES / 1024} KB`;
  else {
    const invalid = schemas.problemWithSchema(inputSchema);
    if (invalid) problem = `its input schema is not one the platform can check: ${invalid.slice(0, 200)}`;
  }
  return problem ? { ...tool, problem } : tool;
}

/**
 * Lists the server's tools and keeps them (the cache the turns read), with the transport that answered;
 * a failure keeps the previous list and records why.
 */
export async function refreshMcpTools(deps: Deps, server: McpServer): Promise<{ server: McpServer; failed: boolean }> {
  const { connection, scrub } = connectionOf(deps.secretBox, server, undefined, true);
  try {
    const listed = await deps.client.listTools(connection);
    const seen = new Set<string>();
    const tools = listed.tools
      .filter((t) => typeof t?.name === 'string' && !seen.has(t.name) && seen.add(t.name))
      .slice(0, MAX_MCP_TOOLS)
      .map((t) => keptTool(server.name, t, deps.schemas));
    const updated = await deps.servers.update(server.id, { tools, connectedWith: listed.transport, toolsRefreshedAt: new Date(), lastError: null });
    return { server: updated ?? server, failed: false };
  } catch (error) {
    const reason = scrub(error instanceof McpUnreachable ? error.message : 'the server could not be reached').slice(0, 500);
    const updated = await deps.servers.update(server.id, { lastError: reason });
    return { server: updated ?? { ...server, lastError: reason }, failed: true };
  }
}

/**
 * MCP servers as a tool source: each server's cached tools, offered as `<server>_<tool>`, and their calls
 * through the SDK's client over the SSRF-safe network. The remote result is text for the model (never
 * executed); its errors are the tool's errors, with the server's secrets scrubbed from every message.
 */
export class McpTools implements ToolSourceCatalog, ToolRunner {
  readonly origin = 'mcp';

  constructor(private readonly deps: Deps) {}

  async toolsOf(applicationId: string): Promise<Array<{ tool: Tool; problem?: string }>> {
    const servers = await this.deps.servers.listByApplication(applicationId);
    return servers.flatMap((server) =>
      server.tools.map((t) => ({
        tool: {
          id: `mcp:${server.id}:${t.name}`,
          ownerId: server.ownerId,
          applicationId: server.applicationId,
          name: exposedToolName(server.name, t.name),
          description: t.description || `${t.name} (MCP server ${server.name})`,
          parameters: t.inputSchema,
          source: { type: 'mcp' as const, serverId: server.id, tool: t.name },
          timeoutMs: server.timeoutMs,
          secretsSealed: {},
          createdAt: server.createdAt,
          updatedAt: server.updatedAt,
        },
        ...(t.problem ? { problem: t.problem } : {}),
      })),
    );
  }

  async run(tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
    const source = tool.source;
    if (source.type !== 'mcp') throw new ToolFailure('not an MCP tool');
    const server = await this.deps.servers.findById(source.serverId);
    if (!server || server.applicationId !== context.applicationId) throw new ToolFailure('the MCP server of this tool is no longer connected');
    const { connection, scrub } = connectionOf(this.deps.secretBox, server, context.signal);
    try {
      const result = await this.deps.client.callTool({ ...connection, timeoutMs: Math.min(connection.timeoutMs, tool.timeoutMs) }, source.tool, args);
      if (result.isError) throw new ToolFailure(scrub(result.text || 'the MCP tool answered an error').slice(0, 4000));
      return scrub(result.text);
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      throw new ToolFailure(scrub(error instanceof McpUnreachable ? error.message : 'the MCP server could not be reached').slice(0, 500));
    }
  }
}

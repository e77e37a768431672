import type { JsonObject } from './tool';

/** How the platform speaks to a remote MCP server: Streamable HTTP, the legacy HTTP+SSE transport, or the first that answers. */
export const MCP_TRANSPORTS = ['auto', 'streamable-http', 'sse'] as const;
export type McpTransportChoice = (typeof MCP_TRANSPORTS)[number];
export type McpTransport = Exclude<McpTransportChoice, 'auto'>;

/** A server's name prefixes its tools' names (`<server>_<tool>`), so it stays short. */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9-]{1,32}$/;
export const MAX_MCP_SERVERS_PER_APPLICATION = 16;
/** Tools kept from one server's list; the rest are dropped (a hostile server may list thousands). */
export const MAX_MCP_TOOLS = 128;

/** A tool as the server listed it, kept between refreshes; `problem` says why the model is not offered it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: JsonObject;
  problem?: string;
}

/** A remote MCP server an application's owner connected (docs/tools.md "MCP servers"). */
export interface McpServer {
  id: string;
  ownerId: string;
  applicationId: string;
  name: string;
  url: string;
  transport: McpTransportChoice;
  /**
   * Header name → its value sealed (bound to the server and the header's name): every value is write-only,
   * whether a token pasted as is or a template holding `{{secrets.NAME}}`, filled from the sealed secrets
   * at connection time only.
   */
  headersSealed: Record<string, string>;
  secretsSealed: Record<string, string>;
  /** One call's time limit (ms). */
  timeoutMs: number;
  /** The cached tool list, from the last refresh. */
  tools: McpToolInfo[];
  /** The transport the last refresh reached the server with. */
  connectedWith: McpTransport | null;
  toolsRefreshedAt: Date | null;
  /** Why the last refresh failed (never a secret), or null. */
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface McpServerView {
  id: string;
  applicationId: string;
  name: string;
  url: string;
  transport: McpTransportChoice;
  /** The names of the headers set; their values are never answered. */
  headerNames: string[];
  secretNames: string[];
  timeoutMs: number;
  tools: Array<McpToolInfo & { exposedAs: string }>;
  connectedWith: McpTransport | null;
  toolsRefreshedAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The name the model calls a server's tool by. */
export const exposedToolName = (serverName: string, toolName: string): string => `${serverName}_${toolName}`;

/** What a sealed MCP server secret is bound to: its server and name. */
export const mcpSecretAad = (serverId: string, name: string): string => `mcp-secret:${serverId}:${name}`;

/** What a sealed MCP header value is bound to: its server and the header's name. */
export const mcpHeaderAad = (serverId: string, name: string): string => `mcp-header:${serverId}:${name}`;

/** The API's view: the names of the headers and of the secrets set, never a value. */
export function toMcpServerView(s: McpServer): McpServerView {
  return {
    id: s.id,
    applicationId: s.applicationId,
    name: s.name,
    url: s.url,
    transport: s.transport,
    headerNames: Object.keys(s.headersSealed).sort(),
    secretNames: Object.keys(s.secretsSealed).sort(),
    timeoutMs: s.timeoutMs,
    tools: s.tools.map((t) => ({ ...t, exposedAs: exposedToolName(s.name, t.name) })),
    connectedWith: s.connectedWith,
    toolsRefreshedAt: s.toolsRefreshedAt?.toISOString() ?? null,
    lastError: s.lastError,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

import type { OutboundUrlRules } from '../../shared/outbound-url-rules.port';
import type { JsonObject } from '../domain/tool';
import type { McpTransport, McpTransportChoice } from '../domain/mcp-server';

/** Where and how to reach a server; `headers` are filled (secrets opened) for this connection alone. */
export interface McpConnection {
  url: string;
  transport: McpTransportChoice;
  headers: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface McpListedTool {
  name: string;
  description: string;
  inputSchema: JsonObject;
}

/**
 * A remote MCP server's client; `problemWith` is the rule its own connections obey (OutboundUrlRules).
 * (the SDK's, over the SSRF-safe network). Failures are McpUnreachable with
 * a message fit for the owner and the model: never a header, a secret or an internal address.
 */
export interface McpClient extends OutboundUrlRules {
  listTools(connection: McpConnection): Promise<{ transport: McpTransport; tools: McpListedTool[] }>;
  callTool(connection: McpConnection, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
}

export class McpUnreachable extends Error {}

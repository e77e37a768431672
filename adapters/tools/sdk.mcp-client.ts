import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { McpTransport } from '../../core/tools/domain/mcp-server';
import type { JsonObject } from '../../core/tools/domain/tool';
import { McpUnreachable, type McpClient, type McpConnection, type McpListedTool } from '../../core/tools/ports/mcp-client.port';
import type { OutboundUrlRules } from '../../core/shared/outbound-url-rules.port';
import { FetchRefused, type SafeFetch } from './ssrf-safe.fetch';

/** Pages of a tool list read at most (a server paging forever is cut). */
const MAX_PAGES = 10;

export interface SdkMcpClientOptions {
  /** The SSRF-safe fetch every request of both transports goes through. */
  fetch: SafeFetch;
  /** The rule of every outbound call, the one its fetch applies. */
  urlCheck: OutboundUrlRules;
  clientName: string;
  clientVersion: string;
}

/**
 * Remote MCP servers through `@modelcontextprotocol/sdk`'s client: Streamable HTTP first and, for `auto`,
 * the legacy HTTP+SSE transport when a server does not speak it. A session per listing or call (no
 * connection is held between turns, so any instance serves any call), every request over the SSRF-safe
 * fetch. Errors become McpUnreachable with a message that never holds a header value.
 */
export class SdkMcpClient implements McpClient {
  constructor(private readonly options: SdkMcpClientOptions) {}

  async problemWith(url: string): Promise<string | null> {
    return this.options.urlCheck.problemWith(url);
  }

  async listTools(connection: McpConnection): Promise<{ transport: McpTransport; tools: McpListedTool[] }> {
    return this.session(connection, async (client, transport) => {
      const tools: McpListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const listed = await client.listTools(cursor ? { cursor } : undefined, this.requestOptions(connection));
        for (const t of listed.tools) tools.push({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema as JsonObject });
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      return { transport, tools };
    });
  }

  async callTool(connection: McpConnection, name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
    return this.session(connection, async (client) => {
      const result = await client.callTool({ name, arguments: args }, undefined, this.requestOptions(connection));
      return { text: resultText(result), isError: result.isError === true };
    });
  }

  private requestOptions(connection: McpConnection) {
    return { timeout: connection.timeoutMs, ...(connection.signal ? { signal: connection.signal } : {}) };
  }

  /** Connects with the chosen transport (or each in turn for `auto`), runs `work`, and always closes. */
  private async session<T>(connection: McpConnection, work: (client: Client, transport: McpTransport) => Promise<T>): Promise<T> {
    const order: McpTransport[] = connection.transport === 'auto' ? ['streamable-http', 'sse'] : [connection.transport];
    let failure: unknown;
    for (const kind of order) {
      const client = new Client({ name: this.options.clientName, version: this.options.clientVersion });
      try {
        await client.connect(this.transport(kind, connection), this.requestOptions(connection));
      } catch (error) {
        await client.close().catch(() => undefined);
        failure = error;
        // Refused addresses, credentials and timeouts fail the same way on the other transport.
        if (!fallsBack(error) || connection.signal?.aborted) break;
        continue;
      }
      try {
        return await work(client, kind);
      } catch (error) {
        throw unreachable(error, connection.timeoutMs);
      } finally {
        await client.close().catch(() => undefined);
      }
    }
    throw unreachable(failure, connection.timeoutMs);
  }

  private transport(kind: McpTransport, connection: McpConnection): Transport {
    const url = new URL(connection.url);
    const requestInit: RequestInit = { headers: connection.headers };
    const fetch = this.options.fetch as typeof globalThis.fetch;
    return kind === 'sse' ? new SSEClientTransport(url, { requestInit, fetch }) : new StreamableHTTPClientTransport(url, { requestInit, fetch, reconnectionOptions: { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 } });
  }
}

function refused(error: unknown): FetchRefused | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof FetchRefused) return e;
  if (error instanceof Error && /private or reserved address|may not (reach|call)|must use https|carry credentials/.test(error.message)) return new FetchRefused(error.message);
  return null;
}

/** A server that answers Streamable HTTP's POST with 400, 404 or 405 (or not as JSON-RPC) may speak the older SSE transport. */
function fallsBack(error: unknown): boolean {
  if (refused(error)) return false;
  if (error instanceof StreamableHTTPError) return error.code === undefined || [400, 404, 405, 406, 415].includes(error.code);
  if (error instanceof McpError) return error.code !== ErrorCode.RequestTimeout;
  return true;
}

function unreachable(error: unknown, timeoutMs: number): McpUnreachable {
  if (error instanceof McpUnreachable) return error;
  const refusal = refused(error);
  if (refusal) return new McpUnreachable(refusal.message);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return new McpUnreachable(`the server did not answer within ${timeoutMs} ms`);
  const status = error instanceof StreamableHTTPError || error instanceof SseError ? error.code : undefined;
  if (status === 401 || status === 403) return new McpUnreachable(`the server refused the credentials (HTTP ${status})`);
  if (status) return new McpUnreachable(`the server answered HTTP ${status}`);
  // A JSON-RPC error the server sent (an unknown tool, bad arguments): its own words, for the model to act on.
  if (error instanceof McpError) return new McpUnreachable(`the server answered an error: ${error.message.replace(/^MCP error -?\d+: /, '').slice(0, 300)}`);
  if (error instanceof Error && error.name === 'AbortError') return new McpUnreachable('the call was cancelled');
  return new McpUnreachable('the server could not be reached');
}

/** The result's content as text: text parts as they are, resources' text, structured content as JSON, other media named. */
function resultText(result: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const item of Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : []) {
    if (item.type === 'text' && typeof item.text === 'string') parts.push(item.text);
    else if (item.type === 'resource' && typeof (item.resource as { text?: unknown })?.text === 'string') parts.push((item.resource as { text: string }).text);
    else if (item.type === 'resource_link' && typeof item.uri === 'string') parts.push(`[resource ${item.uri}]`);
    else parts.push(`[${String(item.type ?? 'content')} omitted]`);
  }
  if (!parts.length && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  if (!parts.length && result.toolResult !== undefined) parts.push(JSON.stringify(result.toolResult));
  return parts.join('\n');
}

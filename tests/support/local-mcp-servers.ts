import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** A local MCP server (the SDK's own) started by a test, with what it saw. */
export interface LocalMcp {
  /** Where a client connects (`/mcp` for Streamable HTTP, `/sse` for the legacy transport). */
  url: string;
  /** TCP connections accepted (a refused address must leave it at 0). */
  connections: number;
  /** The Authorization headers of the requests. */
  authorizations: string[];
  /** Tools added after start (a refresh lists them). */
  extraTools: string[];
  close(): Promise<void>;
}

/** The tools both servers offer: add (a sum), whoami (echoes the credentials it got, as a careless server might), wait (never answers). */
function mcpServer(state: LocalMcp): McpServer {
  const server = new McpServer({ name: 'local-test-server', version: '1.0.0' });
  server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
  server.registerTool('whoami', { description: 'Says which credentials reached the server' }, async (extra) => ({
    content: [{ type: 'text', text: `you sent ${String(extra.requestInfo?.headers.authorization ?? 'nothing')}` }],
  }));
  server.registerTool('wait', { description: 'Never answers' }, async (extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  server.registerTool('fail', { description: 'Always fails' }, async () => ({ content: [{ type: 'text', text: 'the order does not exist' }], isError: true }));
  for (const name of state.extraTools) server.registerTool(name, { description: `The ${name} tool` }, async () => ({ content: [{ type: 'text', text: name }] }));
  return server;
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse, state: LocalMcp) => Promise<void>, path: string): Promise<LocalMcp> {
  const state: LocalMcp = { url: '', connections: 0, authorizations: [], extraTools: [], close: async () => undefined };
  const http: Server = createServer((req, res) => {
    if (req.headers.authorization) state.authorizations.push(req.headers.authorization);
    handler(req, res, state).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  http.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      http.closeAllConnections();
      http.close(() => resolve());
    });
  return state;
}

/** A stateless Streamable HTTP server at /mcp (a server and transport per request). */
export function startStreamableMcp(): Promise<LocalMcp> {
  return listen(async (req, res, state) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/mcp')) return void res.writeHead(405).end();
    const server = mcpServer(state);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }, '/mcp');
}

/** A server speaking only the legacy HTTP+SSE transport: GET /sse opens the stream, POST /messages carries requests. */
export function startSseMcp(): Promise<LocalMcp> {
  const sessions = new Map<string, SSEServerTransport>();
  return listen(async (req, res, state) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await mcpServer(state).connect(transport);
      return;
    }
    const transport = req.method === 'POST' && url.pathname === '/messages' ? sessions.get(url.searchParams.get('sessionId') ?? '') : undefined;
    if (!transport) return void res.writeHead(405).end();
    await transport.handlePostMessage(req, res);
  }, '/sse');
}

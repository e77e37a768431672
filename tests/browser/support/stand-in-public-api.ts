import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * A stand-in for the public API the widget talks to (GET /api/v1/app, POST /api/v1/chat/stream,
 * GET /api/v1/conversations/:id) plus GET /public/widget.js, with scripted answers. It follows the
 * contract the real server implements, including CORS, because host pages embed the widget cross-origin.
 */
export const WIDGET_FILE = join(__dirname, '../../../public/widget.js');

export interface StandInApp {
  id: string;
  apiKey: string;
  name: string;
  colors?: Record<string, string>;
}

/** What the next POST /api/v1/chat/stream does. */
export type ScriptedReply =
  | { chunks: string[]; holdAfterFirstChunk?: Promise<void>; failWith?: string }
  | { status: number; body: string; contentType?: string; headers?: Record<string, string> };

export interface RecordedRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: any;
}

interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
}

export const DEFAULT_ANSWER = ['Hello! ', 'Here is **what** I ', 'found:\n\n- first\n- sec', 'ond — café ☕'];

export class StandInPublicApi {
  readonly requests: RecordedRequest[] = [];
  readonly conversations = new Map<string, { applicationId: string; messages: StoredMessage[] }>();
  private readonly replies: ScriptedReply[] = [];
  private conversationReadStatus = 200;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly apps: StandInApp[],
  ) {}

  static async start(apps: StandInApp[]): Promise<StandInPublicApi> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const api = new StandInPublicApi(server, `http://127.0.0.1:${port}`, apps);
    server.on('request', (req, res) => {
      api.handle(req, res).catch((error) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      });
    });
    return api;
  }

  /** Queues the behaviour of the next chat call; without one, DEFAULT_ANSWER is streamed. */
  replyWith(reply: ScriptedReply): void {
    this.replies.push(reply);
  }

  /** Makes GET /api/v1/conversations/:id answer with this status (200 restores normal behaviour). */
  failConversationReads(status: number): void {
    this.conversationReadStatus = status;
  }

  chatRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/api/v1/chat/stream' && r.method === 'POST');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', 'X-Conversation-Id, Retry-After');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'X-API-Key, X-Client, Content-Type',
        'Access-Control-Max-Age': '600',
      });
      res.end();
      return;
    }
    const raw = await readBody(req);
    const apiKey = header(req, 'x-api-key');
    let body: any = null;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    this.requests.push({ method: req.method ?? '', path, apiKey, body });

    if (req.method === 'GET' && path === '/public/widget.js') {
      res.writeHead(200, { 'Content-Type': 'application/javascript; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end(readFileSync(WIDGET_FILE));
      return;
    }
    const app = this.apps.find((a) => a.apiKey === apiKey);
    if (!path.startsWith('/api/v1/')) return sendError(res, 404, 'Not found');
    if (!app) return sendError(res, 401, 'Invalid API key');

    if (req.method === 'GET' && path === '/api/v1/app') {
      return sendJson(res, 200, {
        id: app.id,
        name: app.name,
        slug: app.name.toLowerCase().replace(/\W+/g, '-'),
        description: `${app.name} help`,
        theme: { themeId: null, colors: app.colors ?? {} },
      });
    }
    const conversationPath = /^\/api\/v1\/conversations\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && conversationPath) {
      if (this.conversationReadStatus !== 200) return sendError(res, this.conversationReadStatus, 'Unavailable');
      const id = decodeURIComponent(conversationPath[1]);
      const conversation = this.conversations.get(id);
      if (!conversation || conversation.applicationId !== app.id) return sendError(res, 404, 'Conversation not found');
      return sendJson(res, 200, { id, applicationId: app.id, title: conversation.messages[0]?.content ?? null, messages: conversation.messages });
    }
    if (req.method === 'POST' && path === '/api/v1/widget/loaded') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (req.method === 'POST' && path === '/api/v1/chat/stream') return this.chat(res, app, body);
    return sendError(res, 404, 'Not found');
  }

  private async chat(res: ServerResponse, app: StandInApp, body: any): Promise<void> {
    if (!body || typeof body.message !== 'string' || !body.message) return sendError(res, 400, 'message is required');
    if (body.applicationId !== app.id) return sendError(res, 403, 'The API key is not scoped to this application');
    const reply = this.replies.shift() ?? { chunks: DEFAULT_ANSWER };
    if ('status' in reply) {
      res.writeHead(reply.status, { 'Content-Type': reply.contentType ?? 'application/json', ...reply.headers });
      res.end(reply.body);
      return;
    }
    let conversationId = typeof body.conversationId === 'string' ? body.conversationId : '';
    if (!this.conversations.has(conversationId)) {
      conversationId = randomUUID();
      this.conversations.set(conversationId, { applicationId: app.id, messages: [] });
    }
    const messages = this.conversations.get(conversationId)!.messages;
    messages.push(storedMessage('user', body.message));
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Conversation-Id': conversationId });
    res.flushHeaders();
    for (const [index, content] of reply.chunks.entries()) {
      await writeSplit(res, event({ type: 'chunk', content }));
      if (index === 0 && reply.holdAfterFirstChunk) await reply.holdAfterFirstChunk;
    }
    if (reply.failWith) {
      await writeSplit(res, event({ type: 'error', message: reply.failWith }));
    } else {
      const answer = storedMessage('assistant', reply.chunks.join(''));
      messages.push(answer);
      await writeSplit(res, event({ type: 'done', fullResponse: answer.content, conversationId, messageId: answer.id }));
    }
    res.end();
  }
}

/** A gate a scripted stream waits on, so a test can look at the widget mid-answer without timing. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function storedMessage(role: 'user' | 'assistant', content: string): StoredMessage {
  return { id: randomUUID(), role, content, createdAt: new Date().toISOString() };
}

function event(payload: object): Buffer {
  return Buffer.from(`data: ${JSON.stringify(payload)}\n\n`);
}

/** Writes an event in two network writes cut mid-way (possibly inside a UTF-8 sequence), as proxies do. */
async function writeSplit(res: ServerResponse, bytes: Buffer): Promise<void> {
  const cut = Math.floor(bytes.length / 2) + 1;
  for (const part of [bytes.subarray(0, cut), bytes.subarray(cut)]) {
    await new Promise<void>((resolve, reject) => res.write(part, (error) => (error ? reject(error) : resolve())));
    await new Promise((resolve) => setTimeout(resolve, 5)); // lets each part leave as its own TCP segment
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string): void {
  const phrases: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error' };
  sendJson(res, status, { statusCode: status, message, error: phrases[status] ?? 'Error' });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

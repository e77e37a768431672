import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProviderId } from '../../../core/ai/domain/provider-id';

/** Switches a test (or another process, over HTTP) flips to make the providers misbehave. */
export interface EmulatorBehaviour {
  /** Wait this long before answering (longer than a client's timeout makes it time out). */
  delayMs: number;
  /** Wait this long between streamed chunks (gives a test time to abort mid-stream). */
  chunkDelayMs: number;
  /** Answer every provider request with this status, in the provider's native error format. */
  failStatus?: number;
  /** Answer with this text instead of the echo. */
  reply?: string;
  /** Cut the connection after this many streamed content chunks (a provider dying mid-answer). */
  dropAfterChunks?: number;
  /**
   * Per model id: how requests naming that model misbehave (a provider's bad day for one model). Set over
   * HTTP too: `POST /__emulator/behaviour {"modelFaults": {"gpt-4o": {"status": 429, "retryAfter": 1, "times": 1}}}`.
   */
  modelFaults?: Record<string, ModelFault>;
  /** Pad `GET …/models` of the OpenAI-compatible API with generated ids up to this many entries. */
  modelListSize?: number;
}

export interface ModelFault {
  /** Answer with this status in the provider's error format (429, 500, 503...). */
  status?: number;
  /** With `status`: the `Retry-After` header, in seconds. */
  retryAfter?: number;
  /** Never answer (until the client gives up). */
  hang?: boolean;
  /** Misbehave for this many requests, then answer normally; absent: every time. */
  times?: number;
}

export const defaultBehaviour = (): EmulatorBehaviour => ({ delayMs: 0, chunkDelayMs: 0 });

export interface RecordedRequest {
  provider: ProviderId;
  method: string;
  /** The provider's own path, without the emulator's `/provider_x` prefix or the query. */
  path: string;
  query: Record<string, string>;
  /** The key the SDK sent, from whichever header or parameter the provider uses. */
  apiKey: string;
  /** The request's headers (lower-case names), to see what a client sent besides the key. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when there was none). */
  body: any;
  /** True when the client went away before the response was finished. */
  aborted: boolean;
}

/** Pieces of a streamed answer: `head` and `tail` frame the content chunks. */
export interface StreamPlan {
  head: string[];
  chunks: string[];
  tail: string[];
}

/** One request and its response, with the helpers every protocol needs. */
export class Exchange {
  closed = false;
  private dropped = false;
  private readonly wakers = new Set<() => void>();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly record: RecordedRequest,
    readonly behaviour: EmulatorBehaviour,
  ) {
    res.on('close', () => {
      this.closed = true;
      if (!res.writableFinished && !this.dropped) record.aborted = true;
      for (const wake of this.wakers) wake();
    });
  }

  get body(): any {
    return this.record.body;
  }

  get path(): string {
    return this.record.path;
  }

  json(status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (this.closed || this.res.headersSent) return;
    const text = JSON.stringify(body);
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    this.res.end(text);
  }

  /** Sends a streamed answer, pacing the content chunks by `chunkDelayMs` and honouring `dropAfterChunks`. */
  async stream(plan: StreamPlan, contentType = 'text/event-stream', headers: Record<string, string> = {}): Promise<void> {
    if (this.closed || this.res.headersSent) return;
    this.res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', ...headers });
    const { chunkDelayMs, dropAfterChunks } = this.behaviour;
    if (!chunkDelayMs && dropAfterChunks === undefined) {
      // One write keeps the emulator cheap under benchmark load; the client still parses every event.
      this.res.end([...plan.head, ...plan.chunks, ...plan.tail].join(''));
      return;
    }
    await this.write(plan.head.join(''));
    if (dropAfterChunks === 0) return this.drop();
    for (let i = 0; i < plan.chunks.length; i++) {
      if (i > 0) await this.pause(chunkDelayMs);
      if (this.closed) return;
      await this.write(plan.chunks[i]!);
      if (dropAfterChunks !== undefined && i + 1 >= dropAfterChunks) return this.drop();
    }
    await this.pause(chunkDelayMs);
    if (!this.closed) this.res.end(plan.tail.join(''));
  }

  /** Resolves once the data is handed to the socket, so a later drop() cannot swallow it. */
  private write(data: string): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => this.res.write(data, () => resolve()));
  }

  /** Resolves after `ms`, or at once when the client goes away. */
  pause(ms: number): Promise<void> {
    if (ms <= 0 || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  /** Cuts the connection the way a crashing provider would. */
  drop(): void {
    this.dropped = true;
    this.req.socket.destroy();
  }
}

export const sse = (data: unknown, event?: string): string => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** A provider's protocol: native errors and the routes of its API. */
export interface ProviderProtocol {
  /** The key as the SDK sends it. */
  apiKey(req: IncomingMessage, query: URLSearchParams): string;
  /** A refused key, as the provider answers it. */
  rejectKey(ex: Exchange): void;
  /** A failure with this status, in the provider's error format. */
  fail(ex: Exchange, status: number, message?: string): void;
  /** Serves the request; false when the path is not part of this API. */
  handle(ex: Exchange): Promise<boolean> | boolean;
}

export function bearer(req: IncomingMessage): string {
  const header = req.headers.authorization ?? '';
  return header.toLowerCase().startsWith('bearer ') ? header.slice(7).trim() : '';
}

/** A JSON body field check: the message the provider would answer with, or undefined when fine. */
export function requireMessages(body: any, field = 'messages'): string | undefined {
  if (!body || typeof body !== 'object') return 'The request body must be a JSON object';
  if (!Array.isArray(body[field]) || body[field].length === 0) return `${field}: must be a non-empty array`;
  return undefined;
}

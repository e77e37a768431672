import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * Internal service calls over node:http with kept-alive connections. The global fetch costs several
 * times more CPU per call, and this hop sits on every chat request.
 */
const agents = { http: new HttpAgent({ keepAlive: true, maxSockets: 512 }), https: new HttpsAgent({ keepAlive: true, maxSockets: 512 }) };

export interface HttpCall {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

/**
 * Sends a request and resolves with the response stream once the status line and headers arrive. A kept-alive
 * connection the server closed while it sat idle (its FIN not yet seen by a busy event loop) fails the request it
 * is handed to with ECONNRESET before any answer: that request, which the server never read, is sent once more on
 * a new connection (Node.js's documented remedy, `request.reusedSocket`).
 */
export function send(url: string, call: HttpCall): Promise<IncomingMessage> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const headers = { ...call.headers, ...(call.body !== undefined ? { 'content-length': String(Buffer.byteLength(call.body)) } : {}) };
  const attempt = (retry: boolean): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      let answered = false;
      const req = (secure ? httpsRequest : httpRequest)(
        target,
        { method: call.method, headers, agent: secure ? agents.https : agents.http, signal: call.signal },
        (res) => {
          answered = true;
          resolve(res);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (retry && !answered && req.reusedSocket && error.code === 'ECONNRESET' && !call.signal?.aborted) resolve(attempt(false));
        else reject(error);
      });
      req.end(call.body);
    });
  return attempt(true);
}

/** Reads a whole response body as text. */
export async function readText(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

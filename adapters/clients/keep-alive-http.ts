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

/** Sends a request and resolves with the response stream once the status line and headers arrive. */
export function send(url: string, call: HttpCall): Promise<IncomingMessage> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const headers = { ...call.headers, ...(call.body !== undefined ? { 'content-length': String(Buffer.byteLength(call.body)) } : {}) };
  return new Promise((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(
      target,
      { method: call.method, headers, agent: secure ? agents.https : agents.http, signal: call.signal },
      resolve,
    );
    req.on('error', reject);
    req.end(call.body);
  });
}

/** Reads a whole response body as text. */
export async function readText(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

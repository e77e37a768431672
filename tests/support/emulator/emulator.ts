import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROVIDER_IDS, type ProviderId } from '../../../core/ai/domain/provider-id';
import { anthropicProtocol } from './anthropic.protocol';
import { defaultBehaviour, Exchange, type EmulatorBehaviour, type ProviderProtocol, type RecordedRequest } from './exchange';
import { geminiProtocol } from './gemini.protocol';
import { huggingFaceProtocol } from './hugging-face.protocol';
import { openAiProtocol } from './openai.protocol';

export type { EmulatorBehaviour, RecordedRequest } from './exchange';

/**
 * A local stand-in for the four AI providers, speaking each one's wire protocol as its official SDK
 * expects it. Every provider lives under its own prefix (`/provider_a/v1/...`); requests without a
 * prefix are told apart by the headers the SDKs send, so `http://host:port/v1` works for provider_a too.
 */
export interface Emulator {
  url: string;
  /** What to set as PROVIDER_X_BASE_URL (the SDKs' base URL option) to reach each emulated provider. */
  baseUrls: Record<ProviderId, string>;
  /** Every provider request, oldest first (the most recent 10 000). Cleared in place by reset(). */
  requests: RecordedRequest[];
  /** Mutable switches; also settable over HTTP with `POST /__emulator/behaviour`. */
  behaviour: EmulatorBehaviour;
  /** Forgets the recorded requests and restores the default behaviour. */
  reset(): void;
  /** Resolves once the predicate holds (e.g. a request was recorded as aborted); rejects after timeoutMs. */
  waitFor(predicate: (requests: RecordedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface EmulatorOptions {
  port?: number;
  host?: string;
}

const PROTOCOLS: Record<ProviderId, ProviderProtocol> = {
  provider_a: openAiProtocol,
  provider_b: anthropicProtocol,
  provider_c: geminiProtocol,
  provider_d: huggingFaceProtocol,
};

const MAX_RECORDED = 10_000;
const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** Which provider a request is for, and its path in that provider's API. */
function identify(req: IncomingMessage, pathname: string, query: URLSearchParams): { provider: ProviderId; path: string } | undefined {
  const prefixed = /^\/(provider_[a-d])(\/.*)?$/.exec(pathname);
  if (prefixed && (PROVIDER_IDS as readonly string[]).includes(prefixed[1]!)) {
    return { provider: prefixed[1] as ProviderId, path: prefixed[2] || '/' };
  }
  if (req.headers['x-goog-api-key'] || query.has('key') || /^\/v1(beta|alpha)\//.test(pathname) || pathname.includes(':')) {
    return { provider: 'provider_c', path: pathname };
  }
  if (req.headers['anthropic-version'] || pathname === '/v1/messages') return { provider: 'provider_b', path: pathname };
  if (pathname.startsWith('/v1/')) return { provider: 'provider_a', path: pathname };
  return undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy(new Error('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The model a request names: in the body (OpenAI, Anthropic, Hugging Face) or the path (Gemini's `models/x:generateContent`). */
function modelOf(body: unknown, path: string): string | undefined {
  const named = (body as { model?: unknown } | undefined)?.model;
  if (typeof named === 'string') return named;
  return /\/models\/([^/:]+):/.exec(path)?.[1];
}

/** Applies the behaviour's fault for the request's model, if any; true when the request was answered (or left hanging). */
async function misbehaveFor(ex: Exchange, protocol: ProviderProtocol, model: string | undefined): Promise<boolean> {
  const fault = model ? ex.behaviour.modelFaults?.[model] : undefined;
  if (!fault) return false;
  if (fault.times !== undefined) {
    if (fault.times <= 0) return false;
    fault.times--;
  }
  if (fault.hang) {
    await ex.pause(10 * 60_000);
    return true;
  }
  if (fault.status) {
    if (fault.retryAfter !== undefined) ex.res.setHeader('retry-after', String(fault.retryAfter));
    protocol.fail(ex, fault.status);
    return true;
  }
  return false;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const requests: RecordedRequest[] = [];
  const behaviour = defaultBehaviour();

  const reset = () => {
    requests.length = 0;
    for (const key of Object.keys(behaviour)) delete (behaviour as unknown as Record<string, unknown>)[key];
    Object.assign(behaviour, defaultBehaviour());
  };

  const control = async (req: IncomingMessage, res: ServerResponse, path: string) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && path === '/__emulator/requests') return send(200, requests);
    if (req.method === 'POST' && path === '/__emulator/reset') {
      reset();
      return send(200, behaviour);
    }
    if (req.method === 'POST' && path === '/__emulator/behaviour') {
      let patch: unknown;
      try {
        patch = JSON.parse((await readBody(req)) || '{}');
      } catch {
        return send(400, { error: 'the body must be JSON' });
      }
      if (!patch || typeof patch !== 'object' || Array.isArray(patch)) return send(400, { error: 'the body must be an object' });
      Object.assign(behaviour, patch);
      return send(200, behaviour);
    }
    if (req.method === 'GET' && path === '/__emulator') return send(200, { baseUrls: emulator.baseUrls, behaviour });
    send(404, { error: 'unknown emulator control path' });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (url.pathname.startsWith('/__emulator')) return control(req, res, url.pathname);
    const target = identify(req, url.pathname, url.searchParams);
    if (!target) {
      res.writeHead(404, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: `no emulated provider serves ${url.pathname}` }));
    }
    const protocol = PROTOCOLS[target.provider];
    const text = await readBody(req);
    let body: unknown;
    let malformed = false;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      malformed = true;
      body = text;
    }
    const record: RecordedRequest = {
      provider: target.provider,
      method: req.method ?? 'GET',
      path: target.path,
      query: Object.fromEntries(url.searchParams),
      apiKey: protocol.apiKey(req, url.searchParams),
      headers: req.headers,
      body,
      aborted: false,
    };
    if (requests.length >= MAX_RECORDED) requests.splice(0, MAX_RECORDED / 2);
    requests.push(record);
    const ex = new Exchange(req, res, record, behaviour);

    await ex.pause(behaviour.delayMs);
    if (ex.closed) return;
    if (!record.apiKey || record.apiKey.includes('rejected')) return protocol.rejectKey(ex);
    if (record.apiKey.includes('fail500')) return protocol.fail(ex, 500);
    if (behaviour.failStatus) return protocol.fail(ex, behaviour.failStatus);
    if (await misbehaveFor(ex, protocol, modelOf(body, target.path))) return;
    if (malformed) return protocol.fail(ex, 400, 'The request body is not valid JSON');
    if (!(await protocol.handle(ex))) protocol.fail(ex, 404);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `emulator failure: ${error instanceof Error ? error.message : String(error)}` }));
    });
  });
  // Benchmarks reuse connections; keep them open longer than the clients' own idle timeouts.
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 35_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const emulator: Emulator = {
    url,
    baseUrls: {
      provider_a: `${url}/provider_a/v1`,
      provider_b: `${url}/provider_b`,
      provider_c: `${url}/provider_c`,
      provider_d: `${url}/provider_d`,
    },
    requests,
    behaviour,
    reset,
    async waitFor(predicate, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(requests)) {
        if (Date.now() > deadline) throw new Error(`emulator: condition not met within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return emulator;
}

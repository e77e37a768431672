import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createAiService } from '../apps/ai-service/ai-service.container';
import { createCoreApi } from '../apps/core-api/core-api.container';
import { loadConfig } from '../apps/shared/config';
import { createInfrastructure } from '../apps/shared/infrastructure';
import { listen } from '../apps/shared/serve';
import { printTable, rowOf, type Row } from './support/format';
import { startServerProcess, stopAll } from './support/processes';

/**
 * `npm run bench:public`: what the public API adds to a chat call (issue 6).
 *
 * `POST /api/v1/chat` with an API key (key admission, per-key rate limit, scope, a new conversation,
 * the owner's plan and quota, the provider call, both turns stored) against a bare Koa pass-through to
 * the same emulator, at 1, 32 and 128 concurrent clients. Two comparisons then separate the public
 * layer from the chat turn it runs: continuing a conversation through `POST /api/v1/chat` against the
 * dashboard's `POST /api/conversations/:id/messages` (the same turn behind a bearer token), and
 * admission alone, `GET /api/v1/app` (key, rate limit, scope and one indexed read) against an unknown
 * path of the same HTTP shell (404, no key, no database).
 *
 * Runs the platform with the rate limiter in process and, given BENCH_REDIS_URL (else TEST_REDIS_URL
 * or REDIS_URL), in Redis; on the embedded PGlite and, given BENCH_DATABASE_URL (else TEST_DATABASE_URL),
 * on PostgreSQL in a schema of its own. Requests rotate over many keys so that no key's 10,000/min is
 * reached: every answer must be a 2xx. The chat engine runs in the AI service as `npm start` has it;
 * BENCH_ENGINE=in-process runs it inside the core API.
 */
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONCURRENCY = [1, 32, 128];
const KEYS = 128;
/** Conversations per pool for the continuing comparison: enough that their histories stay short. */
const CONVERSATIONS = 256;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

interface Platform {
  coreUrl: string;
  applicationId: string;
  keys: string[];
  token: string;
  /** Conversations started through the dashboard, to continue there. */
  dashboard: string[];
  /** Conversations started through the public API, each with the key that started it. */
  public: Array<{ id: string; key: string }>;
}

interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | (() => string);
  path?: () => string;
  apiKey?: () => string;
  /** The status every answer must have (default: any 2xx). */
  status?: number;
}

async function main() {
  const emulator = await startServerProcess<{ url: string; baseUrls: Record<string, string> }>('support/emulator.server.ts', { BENCH_DELAY_MS: String(DELAY_MS) });
  const passthrough = await startServerProcess<{ url: string }>('support/passthrough.server.ts', { BENCH_UPSTREAM: emulator.info.baseUrls.provider_a! });
  try {
    console.log(
      `Public API benchmark: emulator delay ${DELAY_MS} ms, ${DURATION_S} s per run, chat engine ${process.env.BENCH_ENGINE === 'in-process' ? 'in the core API' : 'in the AI service'},` +
        ` node ${process.version}, ${KEYS} API keys in rotation`,
    );
    const providerBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    const viaKoa: Target = { url: `${passthrough.info.url}/chat`, headers: { 'content-type': 'application/json' }, body: providerBody };
    const baseline: Record<number, Row> = {};
    for (const connections of CONCURRENCY) {
      await load(viaKoa, connections, 2); // warm-up
      baseline[connections] = rowOf('bare Koa pass-through', await load(viaKoa, connections, DURATION_S));
    }

    const modes: Array<{ name: string; env: Record<string, string> }> = [];
    for (const [db, dbEnv] of [['PGlite', {}], ...(DATABASE_URL ? [['PostgreSQL', { DATABASE_URL }]] : [])] as Array<[string, Record<string, string>]>) {
      modes.push({ name: `${db}, limits in process`, env: dbEnv });
      if (REDIS_URL) modes.push({ name: `${db}, limits in Redis`, env: { ...dbEnv, REDIS_URL } });
    }
    if (!REDIS_URL) console.log('(BENCH_REDIS_URL / TEST_REDIS_URL / REDIS_URL unset: no Redis runs)');
    if (!DATABASE_URL) console.log('(BENCH_DATABASE_URL / TEST_DATABASE_URL unset: no PostgreSQL runs)');

    const summary: string[] = [];
    for (const mode of modes) {
      const platform = await startServerProcess<Platform>('public.bench.ts', { BENCH_ROLE: 'platform', BENCH_PROVIDER_URL: emulator.info.baseUrls.provider_a!, ...mode.env });
      try {
        const p = platform.info;
        let k = 0;
        let d = 0;
        let c = 0;
        const json = { 'content-type': 'application/json' };
        const chat: Target = {
          url: `${p.coreUrl}/api/v1/chat`,
          headers: json,
          body: JSON.stringify({ message: 'hi', applicationId: p.applicationId }),
          apiKey: () => p.keys[k++ % p.keys.length]!,
        };
        // The continuing pair: the same turn in an existing conversation, one behind a key, one behind a token.
        let current = p.public[0]!;
        const publicContinue: Target = {
          url: `${p.coreUrl}/api/v1/chat`,
          headers: json,
          apiKey: () => (current = p.public[c++ % p.public.length]!).key,
          body: () => JSON.stringify({ message: 'hi', applicationId: p.applicationId, conversationId: current.id }),
        };
        const dashboard: Target = {
          url: p.coreUrl,
          headers: { ...json, authorization: `Bearer ${p.token}` },
          body: JSON.stringify({ content: 'hi' }),
          path: () => `/api/conversations/${p.dashboard[d++ % p.dashboard.length]}/messages`,
        };
        const shell: Target = { url: `${p.coreUrl}/api/v1/no-such-path`, method: 'GET', headers: {}, status: 404 };
        const app: Target = { url: `${p.coreUrl}/api/v1/app`, method: 'GET', headers: {}, apiKey: () => p.keys[k++ % p.keys.length]! };
        const short = Math.ceil(DURATION_S / 2);
        // Requests cut off at the end of a run are still being served; the next run starts once they are.
        const measure = async (target: Target, connections: number, seconds: number) => {
          const result = await load(target, connections, seconds);
          await settle(p);
          return result;
        };
        for (const connections of CONCURRENCY) {
          await measure(chat, connections, 1); // warm-up
          const fresh = rowOf('POST /api/v1/chat, new conversation', await measure(chat, connections, DURATION_S));
          const viaToken = rowOf('dashboard turn (bearer token)', await measure(dashboard, connections, short));
          const viaKey = rowOf('POST /api/v1/chat, same turn (API key)', await measure(publicContinue, connections, short));
          const bare = rowOf('GET unknown path (404, shell only)', await measure(shell, connections, short));
          const admitted = rowOf('GET /api/v1/app (API key)', await measure(app, connections, short));
          const title = `${mode.name}, ${connections} concurrent client(s)`;
          printTable(`${title}: chat against the pass-through`, [baseline[connections]!, fresh], baseline[connections]);
          printTable(`${title}: one turn in an existing conversation`, [viaToken, viaKey], viaToken);
          printTable(`${title}: admission alone`, [bare, admitted], bare);
          summary.push(verdict(mode.name, connections, baseline[connections]!, fresh, [viaToken, viaKey], [bare, admitted]));
        }
      } finally {
        stopAll([platform.child]);
      }
    }
    console.log('\nPer run: chat against the pass-through (targets: < 2 ms added at p50, > 50% of its requests/s), then admission alone:');
    for (const line of summary) console.log(line);
  } finally {
    stopAll([emulator.child, passthrough.child]);
  }
}

/** Waits until the platform's database queue is drained: a read through the public API queues behind it. */
async function settle(p: Platform): Promise<void> {
  await fetch(`${p.coreUrl}/api/v1/app`, { headers: { 'X-API-Key': p.keys[0]! } }).then((r) => r.arrayBuffer());
}

function verdict(mode: string, connections: number, base: Row, chat: Row, turn: [Row, Row], admission: [Row, Row]): string {
  const added = chat.p50 - base.p50;
  const share = chat.rps / base.rps;
  const mark = (pass: boolean) => (pass ? 'met' : 'missed');
  const delta = ([a, b]: [Row, Row]) => `${b.p50 - a.p50 >= 0 ? '+' : ''}${(b.p50 - a.p50).toFixed(1)} ms p50, ${((b.rps / a.rps) * 100).toFixed(0)}% req/s`;
  return (
    `  ${mode.padEnd(30)} ${String(connections).padStart(3)} clients: chat +${added.toFixed(1)} ms p50 (${mark(added < 2)}), ` +
    `${(share * 100).toFixed(0)}% of the req/s (${mark(share > 0.5)}) | key vs token ${delta(turn)} | admission ${delta(admission)}`
  );
}

function load(target: Target, connections: number, duration: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: target.url,
        method: target.method ?? 'POST',
        headers: target.headers,
        body: typeof target.body === 'string' ? target.body : undefined,
        connections,
        duration,
        timeout: 30,
        ...(target.apiKey || target.path || typeof target.body === 'function'
          ? {
              requests: [
                {
                  setupRequest: (req: autocannon.Request) => ({
                    ...req,
                    ...(target.path ? { path: target.path() } : {}),
                    headers: { ...req.headers, ...(target.apiKey ? { 'x-api-key': target.apiKey() } : {}) },
                    ...(typeof target.body === 'function' ? { body: target.body() } : {}),
                  }),
                },
              ],
            }
          : {}),
      },
      (err, result) => {
        if (err) return reject(err);
        const counts = (result.statusCodeStats ?? {}) as Record<string, { count?: number }>;
        const unexpected = target.status ? result.requests.total - (counts[String(target.status)]?.count ?? 0) : result.non2xx;
        if (unexpected > 0 || result.errors > 0 || result.timeouts > 0) {
          return reject(new Error(`${target.url}: ${unexpected} unexpected answers, ${result.errors} errors, ${result.timeouts} timeouts (${JSON.stringify(result.statusCodeStats)})`));
        }
        resolve(result);
      },
    );
  });
}


/**
 * The platform process (BENCH_ROLE=platform): AI service and core API as `npm start` composes them, on
 * PGlite in a fresh DATA_DIR (or PostgreSQL in a fresh schema), with an owner on the Enterprise plan
 * (no quota to run out of), one application and KEYS keys at the top rate limit.
 */
async function runPlatform(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-public-'));
  const schema = process.env.DATABASE_URL ? `bench_${randomBytes(4).toString('hex')}` : undefined;
  const admin = `bench-admin-${randomBytes(4).toString('hex')}@example.com`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAILS: admin,
    PROVIDER_A_API_KEY: 'sk-bench-platform-0000',
    PROVIDER_A_BASE_URL: process.env.BENCH_PROVIDER_URL!,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const infra = await createInfrastructure(config, { schema });
  if (process.env.BENCH_ENGINE !== 'in-process') config.aiServiceUrl = (await listen(await createAiService(infra), '127.0.0.1', 0)).url;
  const core = await listen(await createCoreApi(infra), '127.0.0.1', 0);

  const call = async (method: string, path: string, body: unknown, token?: string) => {
    const res = await fetch(core.url + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  const password = 'bench password';
  const adminSession = await call('POST', '/api/auth/register', { email: admin, password, displayName: 'Admin' });
  const owner = await call('POST', '/api/auth/register', { email: `bench-${randomBytes(4).toString('hex')}@example.com`, password, displayName: 'Owner' });
  await call('PUT', `/api/admin/users/${owner.user.id}/plan`, { plan: 'enterprise' }, adminSession.access_token);
  const app = await call('POST', '/api/applications', { name: 'Bench' }, owner.access_token);
  const keys: string[] = [];
  for (let i = 0; i < KEYS; i++) keys.push((await call('POST', '/api/api-keys', { applicationId: app.id, rateLimit: 10_000 }, owner.access_token)).key);
  const dashboard: string[] = [];
  const started: Platform['public'] = [];
  for (let i = 0; i < CONVERSATIONS; i++) {
    dashboard.push((await call('POST', '/api/conversations', { applicationId: app.id }, owner.access_token)).id);
    const key = keys[i % keys.length]!;
    const res = await fetch(`${core.url}/api/v1/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': key },
      body: JSON.stringify({ message: 'hi', applicationId: app.id }),
    });
    started.push({ id: ((await res.json()) as { conversationId: string }).conversationId, key });
  }
  // Both pools start with one turn each, so the two continuing paths send the same history.
  for (const id of dashboard) await call('POST', `/api/conversations/${id}/messages`, { content: 'hi' }, owner.access_token);
  process.send!({ coreUrl: core.url, applicationId: app.id, keys, token: owner.access_token, dashboard, public: started } satisfies Platform);
  process.on('SIGTERM', () => {
    void (async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (schema) {
        await infra.close().catch(() => undefined);
        const client = new Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
      process.exit(0);
    })();
  });
}

(process.env.BENCH_ROLE === 'platform' ? runPlatform() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});

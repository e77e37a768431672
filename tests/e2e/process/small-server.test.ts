import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { openMemoryCgroup, type MemoryCgroup } from '../../support/memory-cgroup';
import { freePort, serviceOf, waitUntilUp, type Service } from '../../support/spawn-service';

const ROOT = join(__dirname, '..', '..', '..');
const LIMIT = 768 * 1024 * 1024;
const CLIENTS = 32;
/** 8 s in the suite; `SMALL_SERVER_CHAT_SECONDS=20` runs the issue's full 20 s by hand. */
const CHAT_SECONDS = Number(process.env.SMALL_SERVER_CHAT_SECONDS) > 0 ? Number(process.env.SMALL_SERVER_CHAT_SECONDS) : 8;
const SECTIONS = 2_000;
const WORDS = ['copper', 'meadow', 'signal', 'harvest', 'quartz', 'ember', 'glacier', 'orchard', 'compass', 'lantern', 'harbour', 'falcon'];

/**
 * Issue 49: `npm start` on a 1 GB server. The embedded default, on a new data folder and again on the same folder,
 * each time in a memory cgroup of 768 MB (page cache included), with no setting changed: it starts, answers 32
 * clients chatting and ingests a 2,000-section document that can then be searched, every request 2xx and no process
 * of the group killed for memory. Needs a memory cgroup it can create (root, cgroup v1 or v2); skipped otherwise.
 */
const cgroup = openMemoryCgroup(`platform-small-server-${process.pid}`, LIMIT);
const run = 'reason' in cgroup ? it.skip : it;

describe(`npm start on a 1 GB server (a ${LIMIT / 1024 ** 2} MB memory cgroup)${'reason' in cgroup ? `: skipped, ${cgroup.reason}` : ''}`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-small-server-'));
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startEmulator();
    emulator.behaviour.delayMs = 20;
  });
  afterAll(async () => {
    await emulator?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (!('reason' in cgroup)) cgroup.remove();
  });

  run('starts, chats with 32 clients and ingests a 2,000-section document, on a new data folder and again on it, without an OOM kill', async () => {
    const group = cgroup as MemoryCgroup;
    const ports = { PORT: await freePort(), AI_SERVICE_PORT: await freePort(), MARKETPLACE_PORT: await freePort() };
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      ADMIN_EMAILS: 'small-admin@example.com',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      PROVIDER_A_API_KEY: 'sk-small-server-0000',
      PROVIDER_A_BASE_URL: emulator.baseUrls.provider_a,
    };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'PLATFORM_WASM_TIERS', 'NODE_OPTIONS']) delete env[name];
    const base = `http://127.0.0.1:${ports.PORT}`;

    let app: { id: string } | undefined;
    for (const round of ['a new data folder', 'the same folder again']) {
      // As a self-hoster starts it: npm start, npm itself inside the group too.
      const service = serviceOf(spawn('sh', ['-c', group.wrap('npm start')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
      try {
        await waitUntilUp(`${base}/api/health`, service, 180_000);
        const api = new Api(base);
        const token = round === 'a new data folder' ? await api.owner() : await api.login();
        // The second start finds what the first stored.
        app = app ? await api.get(`/api/applications/${app.id}`, token) : await api.post('/api/applications', { name: 'Small server' }, token);
        if (!app) throw new Error('no application');
        const conversations: string[] = [];
        for (let i = 0; i < CLIENTS; i++) conversations.push((await api.post('/api/conversations', { applicationId: app!.id }, token)).id);

        const chat = await chatLoad(base, token, conversations);
        expect({ round, non2xx: chat.non2xx, errors: chat.errors, timeouts: chat.timeouts }).toEqual({ round, non2xx: 0, errors: 0, timeouts: 0 });
        expect(chat['2xx']).toBeGreaterThan(0);
        const documentId = await api.upload(app.id, token, round === 'a new data folder' ? 'first' : 'second');
        const document = await api.ready(documentId, token);
        expect(document.chunkCount).toBeGreaterThan(100);
        const found = await api.get(`/api/knowledge/search?applicationId=${app.id}&query=${encodeURIComponent(`harbour lantern ${round === 'a new data folder' ? 'first' : 'second'}`)}`, token);
        expect(found.length).toBeGreaterThan(0);
        expect(api.failures).toEqual([]);
        expect({ round, oomKills: group.oomKills() }).toEqual({ round, oomKills: 0 });
      } finally {
        expect(await stop(service)).toBe(0);
      }
    }
    expect(group.oomKills()).toBe(0);
  }, 240_000);
});

async function stop(service: Service): Promise<number | null> {
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 30_000);
  try {
    return await service.stop('SIGTERM');
  } finally {
    clearTimeout(timer);
  }
}

function chatLoad(base: string, token: string, conversations: string[]): Promise<autocannon.Result> {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ content: 'hello there', provider: 'provider_a', model: 'gpt-4o-mini' }),
        connections: CLIENTS,
        duration: CHAT_SECONDS,
        timeout: 60,
        requests: [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: `/api/conversations/${conversations[next++ % conversations.length]}/messages` }) }],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** A plain-text document of SECTIONS numbered sections. */
function documentText(tag: string): string {
  const sections: string[] = [];
  for (let i = 0; i < SECTIONS; i++) {
    const words = Array.from({ length: 12 }, (_, j) => WORDS[(i * 3 + j * 5) % WORDS.length]);
    sections.push(`Section ${i + 1} (${tag}): ${words.join(' ')}.`);
  }
  return sections.join('\n\n');
}

class Api {
  readonly failures: string[] = [];
  constructor(private readonly base: string) {}

  async request(method: string, path: string, body?: unknown, token?: string): Promise<any> {
    const res = await fetch(this.base + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) this.failures.push(`${method} ${path}: ${res.status} ${text}`);
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
  post = (path: string, body: unknown, token?: string) => this.request('POST', path, body, token);
  get = (path: string, token: string) => this.request('GET', path, undefined, token);

  /** Registers the owner and moves it to a plan with platform keys (through an administrator). */
  async owner(): Promise<string> {
    const session = await this.post('/api/auth/register', { email: 'small-owner@example.com', password: 'small server pw', displayName: 'Owner' });
    const admin = await this.post('/api/auth/register', { email: 'small-admin@example.com', password: 'small server pw', displayName: 'Admin' });
    await this.request('PUT', `/api/admin/users/${session.user.id}/plan`, { plan: 'enterprise' }, admin.access_token);
    return session.access_token;
  }

  async login(): Promise<string> {
    return (await this.post('/api/auth/login', { email: 'small-owner@example.com', password: 'small server pw' })).access_token;
  }

  async upload(applicationId: string, token: string, tag: string): Promise<string> {
    const form = new FormData();
    form.append('applicationId', applicationId);
    form.append('file', new Blob([documentText(tag)], { type: 'text/plain' }), `handbook-${tag}.txt`);
    const res = await fetch(`${this.base}/api/knowledge`, { method: 'POST', body: form, headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 202) this.failures.push(`upload: ${res.status} ${await res.text()}`);
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  }

  async ready(id: string, token: string): Promise<{ status: string; chunkCount: number }> {
    for (;;) {
      const document = await this.get(`/api/knowledge/${id}`, token);
      if (document.status !== 'processing') {
        expect(document.status).toBe('ready');
        return document;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

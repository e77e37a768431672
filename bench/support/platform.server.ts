import { randomBytes } from 'node:crypto';
import { createAiService } from '../../apps/ai-service/ai-service.container';
import { coreApiModules } from '../../apps/core-api/core-api.container';
import { composeApp } from '../../apps/shared/compose';
import { loadConfig } from '../../apps/shared/config';
import { createInfrastructure } from '../../apps/shared/infrastructure';
import { listen } from '../../apps/shared/serve';
import { platformEnv } from './platform-env';
import { instrument } from './turn-instruments';

/**
 * The whole path as `npm start` runs it: core API (chat engine in-process) -> provider, on the embedded database
 * in a fresh DATA_DIR, with a user, an application and `BENCH_CONVERSATIONS` conversations ready.
 */
void (async () => {
  const config = loadConfig({ ...platformEnv(), ADMIN_EMAILS: 'bench-admin@example.com', AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  // On PostgreSQL the run gets a schema of its own, dropped when the benchmark stops.
  const schema = config.databaseUrl ? (process.env.BENCH_SCHEMA ?? `bench_${randomBytes(4).toString('hex')}`) : undefined;
  const infra = await createInfrastructure(config, { schema });
  // BENCH_AI_SERVICE_URL: an AI service running in a process of its own (ai-service.server.ts), reached over
  // HTTP as `npm run start:core-api` with AI_SERVICE_URL does. Otherwise the AI service runs in this process
  // and, as in `npm start`, the core API runs the chat engine in-process; BENCH_ENGINE=http sends it over
  // HTTP to the AI service in this process instead (how `npm start` composed it before).
  const ai = process.env.BENCH_AI_SERVICE_URL ? { url: process.env.BENCH_AI_SERVICE_URL } : await listen(await createAiService(infra), '127.0.0.1', 0);
  const overHttp = !!process.env.BENCH_AI_SERVICE_URL || process.env.BENCH_ENGINE === 'http';
  config.aiServiceUrl = overHttp ? ai.url : undefined;
  // BENCH_EVENTS=off: the core API without the events area, so chat turns publish nothing (the cost of publishing).
  const modules = coreApiModules(infra, { chatEngine: overHttp ? 'from-config' : 'in-process' }).filter((m) => process.env.BENCH_EVENTS !== 'off' || m.name !== 'events');
  const core = await listen(await composeApp('core-api', infra, modules), '127.0.0.1', 0);

  const post = async (path: string, body: unknown, token?: string, method = 'POST') => {
    const res = await fetch(core.url + path, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<any>;
  };
  // A Pro user: answers use the platform key and count against the token quota, as for a paying customer.
  const session = await post('/api/auth/register', { email: `bench-${randomBytes(4).toString('hex')}@example.com`, password: 'bench password', displayName: 'Bench' });
  const admin = await post('/api/auth/register', { email: 'bench-admin@example.com', password: 'bench password', displayName: 'Admin' });
  await post(`/api/admin/users/${session.user.id}/plan`, { plan: 'pro' }, admin.access_token, 'PUT');
  const app = await post('/api/applications', { name: 'Bench' }, session.access_token);
  const conversations: string[] = [];
  for (let i = 0; i < Number(process.env.BENCH_CONVERSATIONS ?? 64); i++) {
    conversations.push((await post('/api/conversations', { applicationId: app.id }, session.access_token)).id);
  }
  // BENCH_INSTRUMENT=1 (bench:turn): statements counted and the main thread profiled on the bench's request.
  if (process.env.BENCH_INSTRUMENT === '1') instrument(infra.dataSource);
  // BENCH_CONFIGS=on: two more applications of the same user, each with a default model config on the same
  // model, one plain and one with a retry policy and a fallback (docs/connections.md, "Resilience"), so the
  // benchmark can run the same load against both in one run: what a configured policy costs when nothing fails.
  const configured: Record<'plain' | 'resilient', string[]> = { plain: [], resilient: [] };
  if (process.env.BENCH_CONFIGS === 'on') {
    const policies = {
      plain: {},
      resilient: { resilience: { retry: { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 }, fallbacks: [{ provider: 'provider_b', model: 'claude-3-5-haiku-latest' }] } },
    };
    for (const arm of ['plain', 'resilient'] as const) {
      const armApp = await post('/api/applications', { name: `Bench ${arm} config` }, session.access_token);
      await post('/api/model-configs', { applicationId: armApp.id, name: arm, provider: 'provider_a', modelId: 'gpt-4o-mini', isDefault: true, settings: policies[arm] }, session.access_token);
      for (let i = 0; i < Number(process.env.BENCH_CONVERSATIONS ?? 64); i++) {
        configured[arm].push((await post('/api/conversations', { applicationId: armApp.id }, session.access_token)).id);
      }
    }
  }
  process.send!({ coreUrl: core.url, aiUrl: ai.url, token: session.access_token, applicationId: app.id, conversations, configured });
  process.on('SIGTERM', async () => {
    if (schema) await infra.dataSource.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => undefined);
    process.exit(0);
  });
})();

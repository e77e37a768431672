import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createLogger } from '../../../../adapters/logging/logger';
import { coreApiModules } from '../../../../apps/core-api/core-api.container';
import { evaluationsModule } from '../../../../apps/core-api/modules/evaluations.module';
import { composeApp } from '../../../../apps/shared/compose';
import { createInfrastructure, type Infrastructure } from '../../../../apps/shared/infrastructure';
import { listen } from '../../../../apps/shared/serve';
import { startEmulator, type Emulator } from '../../../support/emulator/emulator';
import { TestClient } from '../../../support/http-client';
import { openTestDatabase } from '../../../support/test-database';
import { ADMIN_EMAIL, FAST_HASHING, PLATFORM_KEYS, registerUser, stopListening, testConfig, userWithApplication } from '../../../support/test-stack';
import { answerTo, finished, inputOf, twoVersions } from './evaluation-support';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the BullMQ variant of the evaluation restart test is skipped\n');

const queues: Array<[string, string | undefined]> = [['in-process jobs', undefined], ...(REDIS_URL ? [['BullMQ jobs on Redis', REDIS_URL] as [string, string]] : [])];

describe.each(queues)('an evaluation run across a restart (%s)', (_name, redisUrl) => {
  let infra: Infrastructure;
  let emulator: Emulator;
  const jobPrefix = `test-evals-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    emulator = await startEmulator();
    const env: Record<string, string> = { ADMIN_EMAILS: ADMIN_EMAIL, PROVIDER_TIMEOUT_MS: '5000', ...(redisUrl ? { REDIS_URL: redisUrl } : {}) };
    for (const [id, url] of Object.entries(emulator.baseUrls)) env[`${id.toUpperCase()}_BASE_URL`] = url;
    for (const [id, key] of Object.entries(PLATFORM_KEYS)) env[`${id.toUpperCase()}_API_KEY`] = key;
    infra = await createInfrastructure(testConfig(env), { database: await openTestDatabase(), logger: createLogger('silent') });
  });
  afterAll(async () => {
    await infra.close();
    await emulator.close();
    rmSync(infra.config.dataDir, { recursive: true, force: true });
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${jobPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  /** One core API process (the chat engine in it): stopping it and starting another on the same database is a restart. */
  async function startCore() {
    const modules = coreApiModules(infra, { passwordHashing: FAST_HASHING }).map((m) => (m.name === 'evaluations' ? evaluationsModule({ jobPrefix, sweepIntervalMs: 100 }) : m));
    const app = await composeApp('core-api', infra, modules);
    const listening = await listen(app, '127.0.0.1', 0);
    return {
      client: new TestClient(listening.url),
      async stop() {
        await stopListening(listening);
        await app.stop();
      },
    };
  }

  const states = async (runId: string) =>
    (await infra.dataSource.query(`SELECT state, count(*)::int AS n FROM evaluation_results WHERE run_id = $1 GROUP BY state`, [runId])) as Array<{ state: string; n: number }>;
  const count = async (runId: string, state: string) => (await states(runId)).find((s) => s.state === state)?.n ?? 0;

  it('resumes after the process stops mid-run and answers each item once', async () => {
    let core = await startCore();
    const admin = await registerUser(core.client, { email: ADMIN_EMAIL });
    const owner = await userWithApplication(core.client, { name: 'Restart' });
    await core.client.put(`/api/admin/users/${owner.user.id}/plan`, { plan: 'pro' }, { token: admin.access_token });
    const versions = await twoVersions(core.client, owner.token, owner.app.id);
    const base = `/api/applications/${owner.app.id}`;
    const dataset = await core.client.post(`${base}/datasets`, { name: 'Twelve' }, { token: owner.token });
    const items = Array.from({ length: 12 }, (_, i) => ({ input: { message: inputOf(i + 1) }, expected: answerTo(inputOf(i + 1)) }));
    expect((await core.client.post(`${base}/datasets/${dataset.body.id}/items`, { items }, { token: owner.token })).status).toBe(201);

    emulator.behaviour.delayMs = 60;
    const started = await core.client.post(`${base}/evaluations`, { datasetId: dataset.body.id, targets: [{ kind: 'config_version', versionId: versions.full }], evaluators: [{ type: 'exact' }], concurrency: 1 }, { token: owner.token });
    expect(started.status).toBe(202);
    const runId = started.body.id as string;
    while ((await count(runId, 'done')) < 3) await new Promise((r) => setTimeout(r, 20));
    await core.stop();

    // The stopped process finished the answer it had begun and claimed nothing more.
    const doneBefore = await count(runId, 'done');
    expect(doneBefore).toBeLessThan(12);
    expect(await count(runId, 'running')).toBe(0);
    // And as if another process had died holding an item: claimed once, its claim lapsed, no answer stored.
    await infra.dataSource.query(
      `UPDATE evaluation_results SET state = 'running', attempts = 1, claimed_until = now() - interval '1 second'
        WHERE id = (SELECT id FROM evaluation_results WHERE run_id = $1 AND state = 'pending' ORDER BY seq LIMIT 1)`,
      [runId],
    );
    const answeredBefore = emulator.requests.filter((r) => r.method === 'POST').length;
    expect(answeredBefore).toBe(doneBefore);
    emulator.behaviour.delayMs = 0;

    core = await startCore();
    const run = await finished(core.client, `${base}/evaluations/${runId}`, { token: owner.token });
    expect(run).toMatchObject({ status: 'completed', targets: [{ finished: 12, passed: 12 }] });
    // Every item answered once in all: the provider saw 12 requests, and each result row holds one answer.
    expect(emulator.requests.filter((r) => r.method === 'POST')).toHaveLength(12);
    const rows = (await infra.dataSource.query(`SELECT attempts, message_id FROM evaluation_results WHERE run_id = $1`, [runId])) as Array<{ attempts: number; message_id: string }>;
    expect(rows.map((r) => r.attempts).sort()).toEqual([...new Array(11).fill(1), 2]);
    expect(new Set(rows.map((r) => r.message_id)).size).toBe(12);
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      expect((await redis.keys(`${jobPrefix}:*`)).length).toBeGreaterThan(0);
      redis.disconnect();
    }
    await core.stop();
  });
});

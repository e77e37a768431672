import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Redis } from 'ioredis';
import { createLogger } from '../../../../adapters/logging/logger';
import { coreApiModules } from '../../../../apps/core-api/core-api.container';
import { knowledgeModule } from '../../../../apps/core-api/modules/knowledge.module';
import { composeApp } from '../../../../apps/shared/compose';
import { createInfrastructure, type Infrastructure } from '../../../../apps/shared/infrastructure';
import { listen } from '../../../../apps/shared/serve';
import { TestClient } from '../../../support/http-client';
import { openTestDatabase } from '../../../support/test-database';
import { FAST_HASHING, stopListening, testConfig, userWithApplication } from '../../../support/test-stack';
import { DOCUMENTS, settled, uploadDocument } from './knowledge-documents';

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) process.stdout.write('note: TEST_REDIS_URL is not set; the BullMQ variant of the knowledge restart tests is skipped\n');

/** One core API process: stopping it and starting another on the same database and DATA_DIR is a restart. */
async function startCore(infra: Infrastructure, jobPrefix: string) {
  const modules = coreApiModules(infra, { passwordHashing: FAST_HASHING }).map((m) => (m.name === 'knowledge' ? knowledgeModule({ jobPrefix }) : m));
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

const queues: Array<[string, string | undefined]> = [['in-process jobs', undefined], ...(REDIS_URL ? [['BullMQ jobs on Redis', REDIS_URL] as [string, string]] : [])];

describe.each(queues)('knowledge documents across a restart (%s)', (_name, redisUrl) => {
  let infra: Infrastructure;
  const jobPrefix = `test-knowledge-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    const config = testConfig(redisUrl ? { REDIS_URL: redisUrl } : {});
    infra = await createInfrastructure(config, { database: await openTestDatabase(), logger: createLogger('silent') });
  });
  afterAll(async () => {
    await infra.close();
    rmSync(infra.config.dataDir, { recursive: true, force: true });
    if (redisUrl) {
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${jobPrefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });

  /** What a crash part-way through leaves: the document still processing, some chunks written, no job anywhere. */
  async function crashMidway(documentId: string, attempts = 1): Promise<void> {
    await infra.dataSource.query(`UPDATE knowledge_documents SET status = 'processing', progress = 40, chunk_count = 0, attempts = $2 WHERE id = $1`, [documentId, attempts]);
    await infra.dataSource.query(`DELETE FROM knowledge_chunks WHERE document_id = $1 AND chunk_index > 0`, [documentId]);
  }

  const chunksOf = async (documentId: string) =>
    ((await infra.dataSource.query(`SELECT count(*)::int AS n FROM knowledge_chunks WHERE document_id = $1`, [documentId])) as { n: number }[])[0]!.n;

  it('picks up a document left processing and finishes it, without doubling its chunks', async () => {
    let core = await startCore(infra, jobPrefix);
    const user = await userWithApplication(core.client, { name: 'Restart' });
    const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} explains how the Zephyr-9 drone is serviced.`).join('\n\n');
    const uploaded = await uploadDocument(core.client, user.token, { applicationId: user.app.id, chunkSize: '200', chunkOverlap: '0' }, { name: 'service.md', text });
    const first = await settled(core.client, user.token, uploaded.body.id);
    expect(first.status).toBe('ready');
    await core.stop();
    await crashMidway(uploaded.body.id);

    core = await startCore(infra, jobPrefix);
    const resumed = await settled(core.client, user.token, uploaded.body.id);

    expect(resumed).toMatchObject({ status: 'ready', progress: 100, chunkCount: first.chunkCount });
    expect(await chunksOf(uploaded.body.id)).toBe(first.chunkCount);
    const found = await core.client.get(`/api/knowledge/search?applicationId=${user.app.id}&query=serviced`, { token: user.token });
    expect(found.body[0].documentId).toBe(uploaded.body.id);
    await core.stop();
  });

  it('gives up on a document whose processing keeps being interrupted', async () => {
    let core = await startCore(infra, jobPrefix);
    const user = await userWithApplication(core.client, { name: 'Crashing' });
    const uploaded = await uploadDocument(core.client, user.token, { applicationId: user.app.id }, DOCUMENTS.drone);
    await settled(core.client, user.token, uploaded.body.id);
    await core.stop();
    await crashMidway(uploaded.body.id, 5);

    core = await startCore(infra, jobPrefix);

    expect(await settled(core.client, user.token, uploaded.body.id)).toMatchObject({ status: 'error', error: expect.stringContaining('interrupted too many times') });
    await core.stop();
  });

  it('processes documents through the configured queue', async () => {
    const core = await startCore(infra, jobPrefix);
    const user = await userWithApplication(core.client, { name: 'Queue' });
    const uploads = await Promise.all(Object.values(DOCUMENTS).map((doc) => uploadDocument(core.client, user.token, { applicationId: user.app.id }, doc)));
    for (const res of uploads) expect(await settled(core.client, user.token, res.body.id)).toMatchObject({ status: 'ready' });
    if (redisUrl) {
      // The jobs went through Redis, under this run's own prefix.
      const redis = new Redis(redisUrl);
      expect(await redis.keys(`${jobPrefix}:knowledge.process-document:*`)).not.toHaveLength(0);
      redis.disconnect();
    }
    await core.stop();
  });
});

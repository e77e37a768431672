import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SweepExpiredExportsUseCase } from '../../../../core/data-export/use-cases/data-export.use-cases';
import { resolve } from '../../../../apps/shared/tokens';
import { createKey, withKey } from '../../public-api/public-api-support';
import { paidUserWithApplication, registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';
import { download, exportAndDownload, exportWhenDone, unzip } from './data-export-support';

type Owner = Awaited<ReturnType<typeof paidUserWithApplication>>;

/** Everything an export must never show, created by the test. */
interface Secrets {
  values: string[];
}

describe('core API: data export and import', () => {
  let stack: TestStack;
  let owner: Owner;
  const secrets: Secrets = { values: [] };

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    owner = await paidUserWithApplication(stack, 'pro', { name: 'Exported Bot', description: 'Answers "quoted", commas, and\nnew lines', allowedOrigins: ['https://shop.example.com'] });
    const { token } = owner;
    const config = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Precise', provider: 'provider_a', modelId: 'gpt-4o', settings: { temperature: 0.2 } }, { token });
    expect(config.status).toBe(201);
    const second = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Claude', provider: 'provider_b', modelId: 'claude-3-5-haiku-20241022' }, { token });
    expect(second.status).toBe(201);
    const prompt = await stack.client.post('/api/prompts', { applicationId: owner.app.id, name: 'Greeting', content: '  Hello {{name}}, welcome to {{shop}}!  ', isDefault: true }, { token });
    expect(prompt.status).toBe(201);
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token });
    expect(conversation.status).toBe(201);
    for (const content of ['=SUM(A1:A2) is a formula', 'Second question, with a comma']) {
      const said = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content }, { token });
      expect([said.status, said.text]).toEqual([200, expect.any(String)]);
    }
    const key = await createKey(stack.client, token, { applicationId: owner.app.id });
    expect((await stack.client.post('/api/v1/chat', { message: 'Hello from the API', applicationId: owner.app.id }, withKey(key.key))).status).toBe(200);
    // A rating, so the field is carried too.
    await stack.infra.dataSource.query(
      `UPDATE messages SET rating = 4 WHERE id = (SELECT id FROM messages WHERE conversation_id = $1 AND role = 'assistant' ORDER BY seq LIMIT 1)`,
      [conversation.body.id],
    );
    const providerKey = 'sk-ant-api03-ExportSecretB-9d8c7b6a5f4e';
    expect((await stack.client.put('/api/provider-keys/provider_b', { apiKey: providerKey }, { token })).status).toBe(200);
    const hook = await stack.client.post('/api/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['subscription.updated'] }, { token });
    expect(hook.status).toBe(201);
    const stored = await stack.infra.dataSource.query(`SELECT password_hash FROM users WHERE id = $1`, [owner.user.id]);
    const keyRow = await stack.infra.dataSource.query(`SELECT key_hash FROM api_keys WHERE id = $1`, [key.id]);
    const sealed = await stack.infra.dataSource.query(`SELECT sealed_key FROM provider_keys WHERE user_id = $1`, [owner.user.id]);
    secrets.values.push(owner.password, stored[0].password_hash, key.key, keyRow[0].key_hash, providerKey, sealed[0].sealed_key, hook.body.secret, owner.token, owner.refresh_token);
    for (const s of secrets.values) expect(typeof s === 'string' && s.length > 8).toBe(true);
  });
  afterAll(() => stack.close());

  const expectNoSecrets = (text: string) => {
    for (const secret of secrets.values) expect(text.includes(secret)).toBe(false);
    // Nor any part of the sealed key or API key that would identify them.
    expect(text).not.toMatch(/pk_live_|sk-ant-api03|whsec_|\$argon2/);
  };

  it('exports everything as JSON: the applications with configs, prompts and conversations, and analytics, without secrets', async () => {
    const file = await exportAndDownload(stack, owner.token, { resources: 'all', format: 'json' });
    expect(file.contentType).toBe('application/json; charset=utf-8');
    expect(file.disposition).toContain('attachment');
    expect(file.bytes.length).toBe(file.byteSize);
    const text = file.bytes.toString('utf8');
    expectNoSecrets(text);
    const doc = JSON.parse(text);
    expect(doc).toMatchObject({ format: 'ai-platform-export', version: 2, resources: 'all' });
    expect(doc.applications).toHaveLength(1);
    const app = doc.applications[0];
    expect(app).toMatchObject({
      clientId: owner.app.id,
      name: 'Exported Bot',
      description: 'Answers "quoted", commas, and\nnew lines',
      allowedOrigins: ['https://shop.example.com'],
    });
    expect(app.modelConfigs.map((c: { name: string; provider: string; modelId: string; isDefault: boolean }) => [c.name, c.provider, c.modelId, c.isDefault])).toEqual([
      ['Precise', 'provider_a', 'gpt-4o', true],
      ['Claude', 'provider_b', 'claude-3-5-haiku-20241022', false],
    ]);
    expect(app.modelConfigs[0].settings.temperature).toBe(0.2);
    expect(app.promptTemplates).toEqual([{ name: 'Greeting', content: '  Hello {{name}}, welcome to {{shop}}!  ', isDefault: true }]);

    // Exactly what is stored, conversation by conversation.
    const stored = await stack.infra.dataSource.query(
      `SELECT c.id, c.source, count(m.id)::int AS n, coalesce(sum(m.total_tokens), 0)::int AS tokens
         FROM conversations c LEFT JOIN messages m ON m.conversation_id = c.id WHERE c.application_id = $1 GROUP BY c.id, c.source`,
      [owner.app.id],
    );
    expect(app.conversations).toHaveLength(stored.length);
    expect(stored.length).toBe(2);
    for (const row of stored) {
      const exported = app.conversations.find((c: { clientId: string }) => c.clientId === row.id);
      expect(exported.source).toBe(row.source);
      expect(exported.messages).toHaveLength(row.n);
      const stats = doc.analytics.conversations.find((s: { conversationId: string }) => s.conversationId === row.id);
      expect(stats).toMatchObject({ applicationId: owner.app.id, messages: row.n, userMessages: row.n / 2, assistantMessages: row.n / 2, totalTokens: row.tokens });
      expect(row.tokens).toBeGreaterThan(0);
    }
    const dashboard = app.conversations.find((c: { source: string }) => c.source === 'dashboard');
    expect(dashboard.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(dashboard.messages[0].content).toBe('=SUM(A1:A2) is a formula');
    expect(dashboard.messages[1]).toMatchObject({ status: 'complete', provider: 'provider_a', rating: 4 });
    const days = doc.analytics.days;
    expect(days.reduce((sum: number, d: { messages: number }) => sum + d.messages, 0)).toBe(6);
    expect(days.every((d: { day: string; applicationId: string }) => /^\d{4}-\d{2}-\d{2}$/.test(d.day) && d.applicationId === owner.app.id)).toBe(true);
  });

  it('exports CSV tables in a ZIP, spreadsheet-safe and without secrets', async () => {
    const file = await exportAndDownload(stack, owner.token, { resources: 'all', format: 'csv' });
    expect(file.contentType).toBe('application/zip');
    const tables = await unzip(file.bytes);
    expect([...tables.keys()].sort()).toEqual(
      ['analytics_conversations.csv', 'analytics_days.csv', 'applications.csv', 'conversations.csv', 'messages.csv', 'model_config_versions.csv', 'model_configs.csv', 'prompt_templates.csv'].sort(),
    );
    for (const text of tables.values()) expectNoSecrets(text);
    const messages = tables.get('messages.csv')!.trim().split('\r\n');
    expect(messages[0]).toBe(
      'conversation_id,role,content,status,error,provider,model,prompt_tokens,completion_tokens,total_tokens,latency_ms,rating,sources,config_version_id,tool_calls,tool_call_id,tool_name,is_error,created_at',
    );
    expect(messages).toHaveLength(1 + 6);
    // A formula-looking cell is kept as text; commas are quoted.
    expect(tables.get('messages.csv')).toContain(",user,'=SUM(A1:A2) is a formula,");
    expect(tables.get('messages.csv')).toContain(',user,"Second question, with a comma",');
    expect(tables.get('applications.csv')).toContain('"Answers ""quoted"", commas, and\nnew lines"');
    expect(tables.get('prompt_templates.csv')!.trim().split('\r\n')).toHaveLength(2);
  });

  it.each([
    ['applications', ['applications'], ['conversations', 'analytics']],
    ['conversations', ['conversations'], ['applications', 'analytics']],
    ['analytics', ['analytics'], ['applications', 'conversations']],
  ])('exports %s alone', async (resources, present, absent) => {
    const file = await exportAndDownload(stack, owner.token, { resources, format: 'json' });
    const doc = JSON.parse(file.bytes.toString('utf8'));
    for (const key of present) expect(doc[key]).toBeDefined();
    for (const key of absent) expect(doc[key]).toBeUndefined();
    if (resources === 'applications') expect(doc.applications[0].conversations).toBeUndefined();
    if (resources === 'conversations') {
      expect(doc.conversations).toHaveLength(2);
      expect(doc.conversations[0].applicationClientId).toBe(owner.app.id);
    }
    expectNoSecrets(file.bytes.toString('utf8'));
  });

  it('gives the download to its owner only, for 24 hours, then removes it', async () => {
    const file = await exportAndDownload(stack, owner.token, { resources: 'applications', format: 'json' });
    const path = `/api/data-export/${file.id}/download`;
    const other = await registerUser(stack.client);
    expect((await download(stack, path)).status).toBe(401);
    expect((await download(stack, path, other.access_token)).status).toBe(404);
    expect((await stack.client.get(`/api/data-export/${file.id}`, { token: other.access_token })).status).toBe(404);
    const mine = await download(stack, path, owner.token);
    expect(mine.status).toBe(200);
    expect(mine.cacheControl).toBe('private, no-store');

    const status = await stack.client.get(`/api/data-export/${file.id}`, { token: owner.token });
    expect(new Date(status.body.expiresAt).getTime() - new Date(status.body.createdAt).getTime()).toBe(24 * 3_600_000);

    await stack.infra.dataSource.query(`UPDATE data_exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [file.id]);
    expect((await download(stack, path, owner.token)).status).toBe(404);
    expect((await stack.client.get(`/api/data-export/${file.id}`, { token: owner.token })).body.downloadUrl).toBeNull();
    const onDisk = join(stack.config.dataDir, 'exports', `${file.id}.json`);
    expect(existsSync(onDisk)).toBe(true);
    await resolve(stack.core.container, SweepExpiredExportsUseCase).execute();
    expect(existsSync(onDisk)).toBe(false);
    expect((await stack.client.get(`/api/data-export/${file.id}`, { token: owner.token })).status).toBe(404);

    // A deleted account's exports go with it, and the next sweep removes their files.
    const leaving = await registerUser(stack.client);
    const left = await exportAndDownload(stack, leaving.access_token, { resources: 'all', format: 'csv' });
    const leftOnDisk = join(stack.config.dataDir, 'exports', `${left.id}.zip`);
    expect(existsSync(leftOnDisk)).toBe(true);
    expect((await stack.client.delete('/api/users/me', { token: leaving.access_token, body: { password: leaving.password } })).status).toBe(204);
    await resolve(stack.core.container, SweepExpiredExportsUseCase).execute();
    expect(existsSync(leftOnDisk)).toBe(false);
    expect(existsSync(join(stack.config.dataDir, 'exports', `${file.id}.json`))).toBe(false);
  });

  it("lists the caller's own exports, newest first and paged, never another user's", async () => {
    const me = await registerUser(stack.client);
    const other = await registerUser(stack.client);
    expect((await stack.client.get('/api/data-export')).status).toBe(401);
    const empty = await stack.client.get('/api/data-export', { token: me.access_token });
    expect([empty.status, empty.body, empty.headers.get('x-total-count')]).toEqual([200, [], '0']);

    const first = await exportAndDownload(stack, me.access_token, { resources: 'applications', format: 'json' });
    const theirs = await exportAndDownload(stack, other.access_token, { resources: 'all', format: 'json' });
    const second = await stack.client.post('/api/data-export', { resources: 'analytics', format: 'csv' }, { token: me.access_token });
    expect(second.status).toBe(202);
    await exportWhenDone(stack, second.body.id, me.access_token);

    const list = await stack.client.get('/api/data-export', { token: me.access_token });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.body.map((e: { id: string }) => e.id)).toEqual([second.body.id, first.id]);
    expect(list.body.map((e: { id: string }) => e.id)).not.toContain(theirs.id);
    // Each item is what the single view answers.
    const single = await stack.client.get(`/api/data-export/${first.id}`, { token: me.access_token });
    expect(list.body[1]).toEqual(single.body);
    expect(list.body[1]).toMatchObject({ status: 'ready', resources: 'applications', format: 'json', downloadUrl: `/api/data-export/${first.id}/download` });
    expectNoSecrets(list.text);
    expect(list.text).not.toMatch(/file_?name|owner_?id/i);

    const page2 = await stack.client.get('/api/data-export?page=2&limit=1', { token: me.access_token });
    expect([page2.status, page2.headers.get('x-total-count'), page2.body.map((e: { id: string }) => e.id)]).toEqual([200, '2', [first.id]]);
    const theirList = await stack.client.get('/api/data-export', { token: other.access_token });
    expect(theirList.body.map((e: { id: string }) => e.id)).toEqual([theirs.id]);

    // An expired export stays listed without its link, as the single view shows it, until the sweep deletes it.
    await stack.infra.dataSource.query(`UPDATE data_exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [first.id]);
    const expired = await stack.client.get('/api/data-export', { token: me.access_token });
    expect(expired.body[1]).toMatchObject({ id: first.id, status: 'ready', downloadUrl: null });

    for (const query of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=1&page=2', 'limit=0', 'limit=101', 'limit=ten']) {
      const res = await stack.client.get(`/api/data-export?${query}`, { token: me.access_token });
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
      expect(res.body.details).toEqual([expect.objectContaining({ path: query.startsWith('page') ? 'page' : 'limit' })]);
    }
  });

  it('refuses bad requests, and a second export while one is being prepared', async () => {
    const { token } = owner;
    expect((await stack.client.post('/api/data-export', { resources: 'all' })).status).toBe(401);
    for (const body of [{ resources: 'everything' }, { format: 'xml' }, { resources: 1 }, { format: ['json'] }]) {
      const res = await stack.client.post('/api/data-export', body, { token });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('Bad Request');
    }
    expect((await stack.client.get('/api/data-export/not-a-uuid', { token })).status).toBe(404);
    expect((await stack.client.get(`/api/data-export/${randomUUID()}/download`, { token })).status).toBe(404);

    const user = await registerUser(stack.client);
    const [pending] = await stack.infra.dataSource.query(
      `INSERT INTO data_exports (owner_id, resources, format, expires_at) VALUES ($1, 'all', 'json', now() + interval '1 day') RETURNING id`,
      [user.user.id],
    );
    const refused = await stack.client.post('/api/data-export', { resources: 'all', format: 'json' }, { token: user.access_token });
    expect(refused.status).toBe(409);
    // Not ready yet: no download.
    expect((await download(stack, `/api/data-export/${pending.id}/download`, user.access_token)).status).toBe(409);
    // A lost job stops blocking after an hour.
    await stack.infra.dataSource.query(`UPDATE data_exports SET created_at = now() - interval '2 hours' WHERE id = $1`, [pending.id]);
    const accepted = await stack.client.post('/api/data-export', {}, { token: user.access_token });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ resources: 'all', format: 'json', status: 'pending', downloadUrl: null });
    expect((await exportWhenDone(stack, accepted.body.id, user.access_token)).status).toBe('ready');
  });

  it('imports an export of everything into a fresh account with equal content, and a re-import changes nothing', async () => {
    const exported = JSON.parse((await exportAndDownload(stack, owner.token, { resources: 'all', format: 'json' })).bytes.toString('utf8'));
    const fresh = await registerUser(stack.client);
    const imported = await stack.client.post('/api/data-import', exported, { token: fresh.access_token });
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ created: 1, skipped: 0, failed: 0 });
    expect(imported.body.results).toEqual([{ index: 0, status: 'created', applicationId: expect.any(String) }]);
    const newAppId = imported.body.results[0].applicationId;

    const back = JSON.parse((await exportAndDownload(stack, fresh.access_token, { resources: 'all', format: 'json' })).bytes.toString('utf8'));
    expect(comparable(back)).toEqual(comparable(exported));
    expect(back.applications[0].clientId).toBe(newAppId);

    // The imported application works like any other.
    const app = await stack.client.get(`/api/applications/${newAppId}`, { token: fresh.access_token });
    expect(app.status).toBe(200);
    expect(app.body.slug).not.toBe(owner.app.slug);
    const conversations = await stack.client.get(`/api/conversations?applicationId=${newAppId}`, { token: fresh.access_token });
    expect(conversations.body).toHaveLength(2);

    const again = await stack.client.post('/api/data-import', exported, { token: fresh.access_token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: 0, skipped: 1, failed: 0, results: [{ index: 0, status: 'skipped', applicationId: newAppId }] });
    const count = await stack.infra.dataSource.query(`SELECT count(*)::int AS n FROM applications WHERE owner_id = $1`, [fresh.user.id]);
    expect(count[0].n).toBe(1);
    // Announced once, like any created application (webhooks, plugins).
    const events = await stack.infra.dataSource.query(`SELECT application_id, data FROM event_outbox WHERE type = 'application.created' AND owner_id = $1`, [fresh.user.id]);
    expect(events).toEqual([{ application_id: newAppId, data: { applicationId: newAppId, name: 'Exported Bot' } }]);
  });

  it('reports each record on its own: a bad application fails with a reason and stores nothing; a bad item is refused alone, listed with its reason', async () => {
    const user = await registerUser(stack.client);
    await stack.setPlan(user.user.id, 'pro');
    const good = (clientId: string, name: string) => ({
      clientId,
      name,
      modelConfigs: [{ name: 'Main', provider: 'provider_a', modelId: 'gpt-4o' }],
      conversations: [{ title: 'Hi', messages: [{ role: 'user', content: 'hello' }, { role: 'assistant', content: 'hi there', totalTokens: 7 }] }],
    });
    const res = await stack.client.post(
      '/api/data-import',
      {
        applications: [
          good('a-1', 'First'),
          { ...good('a-2', 'Bad provider'), modelConfigs: [{ name: 'X', provider: 'provider_z', modelId: 'x' }, { name: 'Y', provider: 'provider_a', modelId: 'gpt-4o' }] },
          { ...good('a-3', 'Bad message'), conversations: [{ title: 'T', messages: [{ role: 'user', content: 'ok' }, { role: 'system', content: 'no' }] }, ...good('', '').conversations] },
          { name: 'No client id' },
          'not an object',
          { ...good('a-6', 'Two defaults'), promptTemplates: [{ name: 'a', content: 'x', isDefault: true }, { name: 'b', content: 'y', isDefault: true }] },
          good('a-7', 'Last'),
        ],
      },
      { token: user.access_token },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 5, skipped: 0, failed: 2 });
    expect(res.body.results.map((r: { index: number; status: string }) => [r.index, r.status])).toEqual([
      [0, 'created'],
      [1, 'created'],
      [2, 'created'],
      [3, 'failed'],
      [4, 'failed'],
      [5, 'created'],
      [6, 'created'],
    ]);
    expect(res.body.results[0].refused).toBeUndefined();
    expect(res.body.results[1].refused).toEqual([{ item: 'modelConfigs[0]', error: expect.stringContaining('provider must be one of') }]);
    expect(res.body.results[2].refused).toEqual([{ item: 'conversations[0]', error: 'messages[1].role: role must be user, assistant or tool' }]);
    expect(res.body.results[3].error).toContain('clientId');
    expect(res.body.results[4].error).toBe('an application must be an object');
    expect(res.body.results[5].refused).toEqual([{ item: 'promptTemplates[1]', error: 'isDefault: promptTemplates[0] is already the default (an application has one at most)' }]);
    const apps = await stack.infra.dataSource.query(`SELECT name FROM applications WHERE owner_id = $1 ORDER BY name`, [user.user.id]);
    expect(apps.map((a: { name: string }) => a.name)).toEqual(['Bad message', 'Bad provider', 'First', 'Last', 'Two defaults']);
    const configs = await stack.infra.dataSource.query(`SELECT c.name FROM model_configs c WHERE c.application_id = $1`, [res.body.results[1].applicationId]);
    expect(configs).toEqual([{ name: 'Y' }]);
    // The refused conversation is not there at all; the application's other one is, whole.
    const conversations = await stack.infra.dataSource.query(
      `SELECT c.title, count(m.id)::int AS n FROM conversations c LEFT JOIN messages m ON m.conversation_id = c.id WHERE c.application_id = $1 GROUP BY c.id, c.title`,
      [res.body.results[2].applicationId],
    );
    expect(conversations).toEqual([{ title: 'Hi', n: 2 }]);
    const messages = await stack.infra.dataSource.query(
      `SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id JOIN applications a ON a.id = c.application_id WHERE a.owner_id = $1`,
      [user.user.id],
    );
    expect(messages[0].n).toBe(10);
  });

  it('imports one client id once even when two imports race: the loser stores nothing and reports it skipped', async () => {
    const user = await registerUser(stack.client);
    await stack.setPlan(user.user.id, 'pro');
    const body = {
      applications: [{ clientId: 'race-1', name: 'Raced', conversations: Array.from({ length: 20 }, (_, i) => ({ title: `c${i}`, messages: [{ role: 'user', content: `m${i}` }] })) }],
    };
    const results = await Promise.all([0, 1, 2].map(() => stack.client.post('/api/data-import', body, { token: user.access_token })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const statuses = results.map((r) => r.body.results[0].status).sort();
    expect(statuses).toEqual(['created', 'skipped', 'skipped']);
    const stored = await stack.infra.dataSource.query(
      `SELECT count(DISTINCT a.id)::int AS apps, count(c.id)::int AS conversations FROM applications a LEFT JOIN conversations c ON c.application_id = a.id WHERE a.owner_id = $1`,
      [user.user.id],
    );
    expect(stored[0]).toEqual({ apps: 1, conversations: 20 });
    const events = await stack.infra.dataSource.query(`SELECT count(*)::int AS n FROM event_outbox WHERE type = 'application.created' AND owner_id = $1`, [user.user.id]);
    expect(events[0].n).toBe(1);
  });

  it("keeps to the plan's application limit, record by record", async () => {
    const user = await registerUser(stack.client); // Free: 3 applications
    const applications = Array.from({ length: 4 }, (_, i) => ({ clientId: `free-${i}`, name: `Free ${i}` }));
    const res = await stack.client.post('/api/data-import', { applications }, { token: user.access_token });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(['created', 'created', 'created', 'failed']);
    expect(res.body.results[3].error).toMatch(/plan|applications/i);
  });

  it('refuses a malformed import as a whole with 400 and 401 without a token', async () => {
    const user = await registerUser(stack.client);
    expect((await stack.client.post('/api/data-import', { applications: [] })).status).toBe(401);
    for (const body of [{}, { applications: {} }, { applications: [] }, { applications: 'x' }, { applications: Array.from({ length: 501 }, () => ({})) }]) {
      const res = await stack.client.post('/api/data-import', body, { token: user.access_token });
      expect(res.status).toBe(400);
    }
    const count = await stack.infra.dataSource.query(`SELECT count(*)::int AS n FROM applications WHERE owner_id = $1`, [user.user.id]);
    expect(count[0].n).toBe(0);
  });
});

/** An export with what must differ between accounts removed: ids, the application's creation time, the export's time. */
function comparable(doc: { applications: Array<Record<string, unknown>>; analytics: { conversations: Array<Record<string, unknown>>; days: Array<Record<string, unknown>> } }) {
  return {
    applications: doc.applications.map(({ clientId: _id, createdAt: _at, conversations, ...app }) => ({
      ...app,
      conversations: (conversations as Array<Record<string, unknown>>).map(({ clientId: _c, ...c }) => c),
    })),
    analytics: {
      conversations: doc.analytics.conversations.map(({ conversationId: _c, applicationId: _a, ...s }) => s),
      days: doc.analytics.days.map(({ applicationId: _a, ...d }) => d),
    },
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { postStream } from '../../../support/sse';
import { paidUserWithApplication, registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';
import { createKey, withKey } from '../../public-api/public-api-support';
import { DOCUMENTS, settled, uploadDocument } from '../knowledge/knowledge-documents';
import { exportAndDownload } from './data-export-support';

type Owner = Awaited<ReturnType<typeof paidUserWithApplication>>;
type Row = Record<string, unknown>;

/**
 * An application as stored, field by field: every column of its configs, A/B versions, templates,
 * conversations and messages, less the ids and times that differ between accounts by design. Every
 * column is read (`to_jsonb(row) - ...`), so a column added later and not carried fails the comparison.
 * A/B assignments are compared by what they name (config and version label), not by id.
 */
async function storedApplication(db: DataSource, applicationId: string) {
  const versionName = (column: string) =>
    `(SELECT vc.name || ' / ' || vv.label FROM model_config_versions vv JOIN model_configs vc ON vc.id = vv.config_id WHERE vv.id = ${column})`;
  const [app] = await db.query(`SELECT name, description, allowed_origins FROM applications WHERE id = $1`, [applicationId]);
  const configs: Row[] = await db.query(
    `SELECT to_jsonb(c) - 'id' - 'application_id' - 'created_at' - 'updated_at' AS row,
            (SELECT coalesce(jsonb_agg(to_jsonb(v) - 'id' - 'config_id' - 'application_id' - 'created_at' - 'updated_at' ORDER BY v.created_at, v.id), '[]')
               FROM model_config_versions v WHERE v.config_id = c.id) AS versions
       FROM model_configs c WHERE c.application_id = $1 ORDER BY c.created_at, c.id`,
    [applicationId],
  );
  const templates: Row[] = await db.query(
    `SELECT to_jsonb(t) - 'id' - 'application_id' - 'created_at' - 'updated_at' AS row FROM prompt_templates t WHERE t.application_id = $1 ORDER BY t.created_at, t.id`,
    [applicationId],
  );
  // api_key_id: the API key a conversation was started with is a credential, never exported (docs/data-export.md).
  const conversations: Row[] = await db.query(
    `SELECT to_jsonb(c) - 'id' - 'application_id' - 'api_key_id' - 'config_version_id' - 'created_at' - 'updated_at' AS row,
            ${versionName('c.config_version_id')} AS version,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('row', to_jsonb(m) - 'id' - 'conversation_id' - 'seq' - 'config_version_id' - 'created_at',
                                                          'version', ${versionName('m.config_version_id')}) ORDER BY m.seq), '[]')
               FROM messages m WHERE m.conversation_id = c.id) AS messages
       FROM conversations c WHERE c.application_id = $1 ORDER BY c.created_at, c.id`,
    [applicationId],
  );
  return { app, configs, templates, conversations };
}

/** The owner's endpoint an http tool calls. */
async function startShop(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ order: decodeURIComponent(req.url!.split('/').pop()!), status: 'shipped' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('core API: an export imports back whole, whatever the account holds', () => {
  let stack: TestStack;
  let shop: Awaited<ReturnType<typeof startShop>>;
  let owner: Owner;

  beforeAll(async () => {
    shop = await startShop();
    stack = await startCoreApi({ providers: true, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    owner = await paidUserWithApplication(stack, 'pro', { name: 'Whole Bot', description: 'Everything a bot can hold', allowedOrigins: ['https://shop.example.com'] });
    const { token } = owner;
    const db = stack.infra.dataSource;
    const ok = (res: { status: number; text: string }, status: number) => expect({ status: res.status, text: res.text }).toEqual({ status, text: expect.any(String) });

    // Configs, with A/B versions: one taking all the traffic (so every new conversation is assigned to it), one inactive.
    const precise = await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Precise', provider: 'provider_a', modelId: 'gpt-4o', settings: { temperature: 0.2 } }, { token });
    ok(precise, 201);
    ok(await stack.client.post('/api/model-configs', { applicationId: owner.app.id, name: 'Claude', provider: 'provider_b', modelId: 'claude-3-5-haiku-20241022' }, { token }), 201);
    const cooler = await stack.client.post(`/api/model-configs/${precise.body._id}/versions`, { label: 'Cooler', settings: { temperature: 0.1 }, trafficPercent: 100 }, { token });
    ok(cooler, 201);
    ok(await stack.client.post(`/api/model-configs/${precise.body._id}/versions`, { label: 'Idle', trafficPercent: 0, isActive: false }, { token }), 201);
    ok(await stack.client.post('/api/prompts', { applicationId: owner.app.id, name: 'Greeting', content: 'Hello {{name}}', isDefault: true }, { token }), 201);

    // Knowledge, so an answer cites sources.
    const drone = await uploadDocument(stack.client, token, { applicationId: owner.app.id }, DOCUMENTS.drone);
    await settled(stack.client, token, drone.body.id);

    // A tool, so a turn stores an assistant message with its calls and the tool's result.
    const tool = await stack.client.post(
      `/api/applications/${owner.app.id}/tools`,
      {
        name: 'order_status',
        description: 'Status of an order',
        parameters: { type: 'object', properties: { order: { type: 'string', pattern: '^[0-9]{1,6}$' } }, required: ['order'], additionalProperties: false },
        source: { type: 'http', method: 'GET', url: `${shop.url}/orders/{{args.order}}` },
        timeoutMs: 5000,
      },
      { token },
    );
    ok(tool, 201);
    ok(await stack.client.put(`/api/applications/${owner.app.id}/agent`, { enabledTools: ['order_status'], maxToolRounds: 2 }, { token }), 200);

    const conversation = async () => {
      const res = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token });
      ok(res, 201);
      return res.body.id as string;
    };
    const say = (id: string, content: string) => stack.client.post(`/api/conversations/${id}/messages`, { content }, { token });
    const stored = async (id: string) => (await stack.client.get(`/api/conversations/${id}`, { token })).body.messages as Array<{ id: string; role: string; status: string }>;

    // 1. Answers with sources, a rating, a turn with a tool call, and a formula-looking text.
    const rich = await conversation();
    const cited = await say(rich, 'How many minutes can the Zephyr-9 drone fly?');
    ok(cited, 200);
    expect(cited.body.sources?.length).toBeGreaterThan(0);
    ok(await stack.client.post(`/api/conversations/${rich}/messages/${cited.body.message.id}/rating`, { rating: 4 }, { token }), 200);
    const toolTurn = await say(rich, 'Where is my order? [[call order_status {"order":"123456"}]]');
    ok(toolTurn, 200);
    expect(toolTurn.body.toolCalls).toHaveLength(1);
    ok(await say(rich, '=SUM(A1:A2) and "quotes", commas\nand lines'), 200);

    // 2. A failed answer (empty, with its error).
    const failing = await conversation();
    stack.emulator!.behaviour.failStatus = 500;
    expect((await say(failing, 'Are you there?')).status).toBe(502);
    stack.emulator!.reset();

    // 3. A stream stopped before its first chunk: kept as interrupted, empty.
    const stopped = await conversation();
    stack.emulator!.behaviour.delayMs = 3000;
    const controller = new AbortController();
    const before = stack.emulator!.requests.length;
    const stream = postStream(`${stack.listening.url}/api/conversations/${stopped}/stream`, { content: 'Tell me a long story' }, { Authorization: `Bearer ${token}` }, controller.signal);
    await stack.emulator!.waitFor((requests) => requests.length > before);
    controller.abort();
    await stream.catch(() => undefined);
    await until(async () => (await stored(stopped))[1]?.status === 'interrupted');
    stack.emulator!.reset();

    // 4. An archived conversation.
    const archived = await conversation();
    ok(await say(archived, 'Archive me'), 200);
    ok(await stack.client.delete(`/api/conversations/${archived}`, { token }), 204);

    // 5. A conversation of the public API.
    const key = await createKey(stack.client, token, { applicationId: owner.app.id });
    ok(await stack.client.post('/api/v1/chat', { message: 'Hello from the API', applicationId: owner.app.id }, withKey(key.key)), 200);

    // 6. An assignment to a version deleted since: it names nothing, and is exported as null.
    ok(await stack.client.put(`/api/model-configs/${precise.body._id}/versions/${cooler.body._id}`, { trafficPercent: 0 }, { token }), 200);
    const gone = await stack.client.post(`/api/model-configs/${precise.body._id}/versions`, { label: 'Gone', trafficPercent: 100 }, { token });
    ok(gone, 201);
    const orphan = await conversation();
    ok(await say(orphan, 'Soon without my version'), 200);
    ok(await stack.client.delete(`/api/model-configs/${precise.body._id}/versions/${gone.body._id}`, { token }), 204);

    // Every kind of message the platform stores is there.
    const kinds: Array<{ role: string; status: string; empty: boolean; calls: boolean; rated: boolean; cited: boolean; versioned: boolean }> = await db.query(
      `SELECT DISTINCT m.role, m.status, m.content = '' AS empty, m.tool_calls IS NOT NULL AS calls, m.rating IS NOT NULL AS rated,
              m.sources IS NOT NULL AS cited, m.config_version_id IS NOT NULL AS versioned
         FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.application_id = $1`,
      [owner.app.id],
    );
    for (const kind of [
      { role: 'user', status: 'complete' },
      { role: 'assistant', status: 'complete', rated: true, cited: true, versioned: true },
      { role: 'assistant', status: 'complete', calls: true },
      { role: 'tool', status: 'complete' },
      { role: 'assistant', status: 'failed', empty: true, versioned: true },
      { role: 'assistant', status: 'interrupted', empty: true, versioned: true },
    ]) {
      expect(kinds).toContainEqual(expect.objectContaining(kind));
    }
    const [conversations] = await db.query(
      `SELECT count(*) FILTER (WHERE status = 'archived')::int AS archived, count(*) FILTER (WHERE source = 'api')::int AS api,
              count(*) FILTER (WHERE config_version_id IS NOT NULL)::int AS assigned
         FROM conversations WHERE application_id = $1`,
      [owner.app.id],
    );
    expect(conversations).toEqual({ archived: 1, api: 1, assigned: 6 });
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((resolve) => shop?.server.close(resolve));
  });

  const exportOf = async (token: string) => JSON.parse((await exportAndDownload(stack, token, { resources: 'all', format: 'json' })).bytes.toString('utf8'));
  /** The export of the owner's first application alone (the tests below add copies to the account). */
  const exportOfOriginal = async () => {
    const doc = await exportOf(owner.token);
    return { ...doc, applications: doc.applications.filter((a: { clientId: string }) => a.clientId === owner.app.id) };
  };
  const applicationsOf = async (userId: string): Promise<string[]> =>
    (await stack.infra.dataSource.query(`SELECT id FROM applications WHERE owner_id = $1 ORDER BY created_at, id`, [userId])).map((r: { id: string }) => r.id);

  it('exports every stored message, tool results and empty answers included, with the A/B versions and their assignments', async () => {
    const doc = await exportOfOriginal();
    expect(doc).toMatchObject({ format: 'ai-platform-export', version: 2 });
    const [app] = doc.applications;
    const stored = await stack.infra.dataSource.query(
      `SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.application_id = $1`,
      [owner.app.id],
    );
    const exported = app.conversations.flatMap((c: { messages: unknown[] }) => c.messages);
    expect(exported).toHaveLength(stored[0].n);
    const precise = app.modelConfigs.find((c: { name: string }) => c.name === 'Precise');
    expect(precise.versions.map((v: { label: string; trafficPercent: number; isActive: boolean }) => [v.label, v.trafficPercent, v.isActive])).toEqual([
      ['Cooler', 100, true],
      ['Idle', 0, false],
    ]);
    expect(precise.versions[0].counters.requestCount).toBeGreaterThan(0);
    const cooler = precise.versions[0].clientId;
    // In order of creation: five assigned to Cooler, the last one to the version deleted since.
    expect(app.conversations.map((c: { configVersionClientId: string }) => c.configVersionClientId)).toEqual([cooler, cooler, cooler, cooler, cooler, null]);
    const tool = exported.find((m: { role: string }) => m.role === 'tool');
    expect(tool).toMatchObject({ toolName: 'order_status', toolCallId: expect.any(String), isError: false, content: expect.stringContaining('shipped') });
    expect(exported.find((m: { toolCalls: unknown }) => m.toolCalls)).toMatchObject({ role: 'assistant', toolCalls: [{ id: tool.toolCallId, name: 'order_status', arguments: { order: '123456' } }] });
    expect(exported.find((m: { status: string }) => m.status === 'failed')).toMatchObject({ role: 'assistant', content: '', error: expect.any(String), configVersionClientId: cooler });
    expect(exported.find((m: { status: string }) => m.status === 'interrupted')).toMatchObject({ role: 'assistant', content: '' });
  });

  it('imports it into a new account equal field by field, and a second import there changes nothing', async () => {
    const doc = await exportOfOriginal();
    const fresh = await registerUser(stack.client);
    await stack.setPlan(fresh.user.id, 'pro');
    const imported = await stack.client.post('/api/data-import', doc, { token: fresh.access_token });
    expect(imported.status).toBe(200);
    // Created whole: nothing refused.
    expect(imported.body).toEqual({ results: [{ index: 0, status: 'created', applicationId: expect.any(String) }], created: 1, skipped: 0, failed: 0 });
    const copy = imported.body.results[0].applicationId;
    const original = await storedApplication(stack.infra.dataSource, owner.app.id);
    expect(original.conversations).toHaveLength(6);
    expect(await storedApplication(stack.infra.dataSource, copy)).toEqual(original);

    // The imported account's own export is the same document, ids and times aside.
    expect(comparable(await exportOf(fresh.access_token))).toEqual(comparable(doc));

    const again = await stack.client.post('/api/data-import', doc, { token: fresh.access_token });
    expect(again.body).toEqual({ results: [{ index: 0, status: 'skipped', applicationId: copy }], created: 0, skipped: 1, failed: 0 });
    expect(await applicationsOf(fresh.user.id)).toEqual([copy]);
    expect(await storedApplication(stack.infra.dataSource, copy)).toEqual(original);
  });

  it('imports it into the same account as a whole copy (its clientId was never imported there), then skips it', async () => {
    const doc = await exportOfOriginal();
    const before = await applicationsOf(owner.user.id);
    const imported = await stack.client.post('/api/data-import', doc, { token: owner.token });
    expect(imported.body).toMatchObject({ created: 1, skipped: 0, failed: 0 });
    expect(imported.body.results[0].refused).toBeUndefined();
    const copy = imported.body.results[0].applicationId;
    expect(await applicationsOf(owner.user.id)).toEqual([...before, copy]);
    const original = await storedApplication(stack.infra.dataSource, owner.app.id);
    expect(await storedApplication(stack.infra.dataSource, copy)).toEqual(original);

    const again = await stack.client.post('/api/data-import', doc, { token: owner.token });
    expect(again.body).toEqual({ results: [{ index: 0, status: 'skipped', applicationId: copy }], created: 0, skipped: 1, failed: 0 });
    expect(await applicationsOf(owner.user.id)).toEqual([...before, copy]);
    expect(await storedApplication(stack.infra.dataSource, copy)).toEqual(original);
  });

  it('refuses a malformed message with its conversation, listed with the reason, and imports the rest of the application', async () => {
    const doc = await exportOfOriginal();
    const [app] = doc.applications;
    app.clientId = `${app.clientId}-with-a-bad-message`;
    const bad = app.conversations.findIndex((c: { messages: unknown[] }) => c.messages.length > 2);
    app.conversations[bad].messages[1].role = 'system';
    app.conversations[bad].messages[2].rating = 9;
    const fresh = await registerUser(stack.client);
    const res = await stack.client.post('/api/data-import', doc, { token: fresh.access_token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 1, skipped: 0, failed: 0 });
    expect(res.body.results[0].refused).toEqual([{ item: `conversations[${bad}]`, error: expect.stringMatching(/messages\[1\]\.role: role must be user, assistant or tool; messages\[2\]\.rating: rating must be from 1 to 5/) }]);
    const copy = res.body.results[0].applicationId;
    const original = await storedApplication(stack.infra.dataSource, owner.app.id);
    const imported = await storedApplication(stack.infra.dataSource, copy);
    // Everything but that conversation, whole; nothing of it.
    expect(imported).toEqual({ ...original, conversations: original.conversations.filter((_, i) => i !== bad) });
  });

  it('still imports a file of the previous version (1), and refuses one of a version it does not know', async () => {
    const doc = await exportOfOriginal();
    // What version 1 wrote: no tool messages, no A/B versions or assignments, none of the newer message fields.
    const [app] = doc.applications;
    const v1 = {
      format: 'ai-platform-export',
      version: 1,
      applications: [
        {
          clientId: `${app.clientId}-v1`,
          name: app.name,
          description: app.description,
          allowedOrigins: app.allowedOrigins,
          createdAt: app.createdAt,
          modelConfigs: app.modelConfigs.map(({ name, provider, modelId, settings, isDefault }: Row) => ({ name, provider, modelId, settings, isDefault })),
          promptTemplates: app.promptTemplates,
          conversations: app.conversations.map(({ clientId, title, status, source, createdAt, messages }: Row) => ({
            clientId,
            title,
            status,
            source,
            createdAt,
            messages: (messages as Row[])
              .filter((m) => m.role !== 'tool' && m.content !== '')
              .map(({ role, content, status: s, provider, model, promptTokens, completionTokens, totalTokens, latencyMs, rating, sources, createdAt: at }) => ({
                role, content, status: s, provider, model, promptTokens, completionTokens, totalTokens, latencyMs, rating, sources, createdAt: at,
              })),
          })),
        },
      ],
    };
    const fresh = await registerUser(stack.client);
    const res = await stack.client.post('/api/data-import', v1, { token: fresh.access_token });
    expect(res.body).toEqual({ results: [{ index: 0, status: 'created', applicationId: expect.any(String) }], created: 1, skipped: 0, failed: 0 });
    const back = await exportOf(fresh.access_token);
    expect(back.applications[0].conversations.map((c: { messages: unknown[] }) => c.messages.length)).toEqual(v1.applications[0]!.conversations.map((c: { messages: unknown[] }) => c.messages.length));

    const newer = await stack.client.post('/api/data-import', { ...v1, version: 3 }, { token: fresh.access_token });
    expect(newer.status).toBe(400);
    expect(newer.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('version 3 is newer') });
  });
});

/** An export with what differs between accounts by design removed: ids (and the ids naming versions), times. */
function comparable(doc: { applications: Row[] }) {
  const versionNames = new Map<string, string>();
  for (const app of doc.applications) {
    for (const c of app.modelConfigs as Row[]) for (const v of c.versions as Row[]) versionNames.set(v.clientId as string, `${c.name} / ${v.label}`);
  }
  const named = (id: unknown) => (id === null ? null : versionNames.get(id as string) ?? `unknown ${String(id)}`);
  return doc.applications.map(({ clientId: _id, createdAt: _at, modelConfigs, conversations, ...app }) => ({
    ...app,
    modelConfigs: (modelConfigs as Row[]).map((c) => ({ ...c, versions: (c.versions as Row[]).map(({ clientId: _v, createdAt: _c, ...v }) => v) })),
    conversations: (conversations as Row[]).map(({ clientId: _c, createdAt: _t, configVersionClientId, messages, ...c }) => ({
      ...c,
      version: named(configVersionClientId),
      messages: (messages as Row[]).map(({ createdAt: _m, configVersionClientId: v, ...m }) => ({ ...m, version: named(v) })),
    })),
  }));
}

import { startStreamableMcp } from '../../../support/local-mcp-servers';
import type { TestResponse } from '../../../support/http-client';
import { startCoreApi, type TestStack } from '../../../support/test-stack';
import { DATABASE_KINDS } from '../../../support/test-database';
import { teamWithEveryRole, type TeamWorld } from '../../teams/team-support';
import { sendForm } from '../uploads/send-form';

interface Record {
  action: string;
  resourceType: string;
  resourceId: string | null;
  applicationId: string | null;
  teamId: string | null;
  actorId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  outcome: string;
  details: { [key: string]: unknown };
}

/**
 * Every change to an application's configuration, keys, integrations and plugins is an audit record that names
 * the application (`GET /api/audit?application=`) and the person who made it (name and e-mail, read with the
 * record); once the application is in a team, the team's Owner and Admins see its records too. Secrets sent
 * with a change (an API key, a webhook's signing secret, a tool's secret) never appear in them.
 */
describe.each(DATABASE_KINDS)('the audit log of an application (%s)', (database) => {
  let stack: TestStack;
  let world: TeamWorld;
  beforeAll(async () => {
    stack = await startCoreApi({ database, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    world = await teamWithEveryRole(stack, 'pro');
  }, 60_000);
  afterAll(() => stack?.close());

  const ok = (res: TestResponse, what: string) => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.body;
  };
  const idOf = (body: { id?: string; _id?: string }) => (body.id ?? body._id)!;
  const recordsOf = async (applicationId: string, token: string): Promise<Record[]> =>
    ok(await stack.client.get(`/api/audit?application=${applicationId}&limit=100`, { token }), 'audit') as Record[];

  it('records each change to an application, filterable by it, with the person who made it and no secret', async () => {
    const { owner, admin } = world.users;
    const token = owner.token;
    const as = { token };
    const c = stack.client;
    const app = ok(await c.post('/api/applications', { name: 'Audited', allowedOrigins: ['https://a.example.com'] }, as), 'create application');
    const other = ok(await c.post('/api/applications', { name: 'Unrelated' }, as), 'create another application');
    const base = `/api/applications/${app.id}`;
    ok(await c.put(base, { allowedOrigins: ['https://shop.example.com'] }, as), 'allowed origins');
    ok(await c.put(`/api/branding/${app.id}`, { widget: { welcomeMessage: 'Hi there' } }, as), 'branding');

    const config = idOf(ok(await c.post('/api/model-configs', { applicationId: app.id, name: 'Cfg', provider: 'provider_a', modelId: 'gpt-4o-mini' }, as), 'config'));
    ok(await c.put(`/api/model-configs/${config}`, { name: 'Renamed' }, as), 'edit config');
    const version = idOf(ok(await c.post(`/api/model-configs/${config}/versions`, { label: 'V' }, as), 'version'));
    ok(await c.put(`/api/model-configs/${config}/versions/${version}`, { label: 'V2' }, as), 'edit version');
    ok(await c.delete(`/api/model-configs/${config}/versions/${version}`, as), 'delete version');
    const second = idOf(ok(await c.post('/api/model-configs', { applicationId: app.id, name: 'Second', provider: 'provider_a', modelId: 'gpt-4o-mini' }, as), 'config'));
    ok(await c.patch(`/api/model-configs/${second}/default`, {}, as), 'default config');
    ok(await c.delete(`/api/model-configs/${config}`, as), 'delete config');

    const prompt = idOf(ok(await c.post('/api/prompts', { applicationId: app.id, name: 'P', content: 'Hello {{name}}' }, as), 'prompt'));
    ok(await c.put(`/api/prompts/${prompt}`, { content: 'Bye' }, as), 'edit prompt');
    ok(await c.delete(`/api/prompts/${prompt}`, as), 'delete prompt');

    const tool = idOf(ok(await c.post(`${base}/tools`, { name: 'kb', description: 'Search the knowledge base', source: { type: 'builtin', builtin: 'search_knowledge' } }, as), 'tool'));
    ok(await c.put(`${base}/tools/${tool}`, { description: 'Searches' }, as), 'edit tool');
    ok(await c.put(`${base}/agent`, { enabledTools: ['kb'] }, as), 'agent');
    ok(await c.delete(`${base}/tools/${tool}`, as), 'delete tool');

    const closed = await startStreamableMcp();
    await closed.close();
    const mcp = idOf(ok(await c.post(`${base}/mcp-servers`, { name: 'later', url: closed.url, headers: { 'X-Docs-Key': 'mcp-header-secret-000111' } }, as), 'mcp server'));
    ok(await c.put(`${base}/mcp-servers/${mcp}`, { name: 'docs' }, as), 'edit mcp server');
    ok(await c.delete(`${base}/mcp-servers/${mcp}`, as), 'delete mcp server');

    const document = idOf(ok(await sendForm(c.baseUrl, '/api/knowledge', { token, fields: { applicationId: app.id }, file: { name: 'facts.txt', bytes: 'Kettles boil at 100 degrees.' } }), 'upload'));
    ok(await c.delete(`/api/knowledge/${document}`, as), 'delete document');

    const key = ok(await c.post('/api/api-keys', { name: 'K', applicationId: app.id }, as), 'api key') as { id: string; key: string };
    ok(await c.post(`/api/api-keys/${key.id}/revoke`, {}, as), 'revoke key');
    const hook = ok(await c.post('/api/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['application.created'], applicationId: app.id }, as), 'webhook') as { id: string; secret: string };
    ok(await c.put(`/api/webhooks/${hook.id}`, { enabled: false }, as), 'edit webhook');
    ok(await c.delete(`/api/webhooks/${hook.id}`, as), 'delete webhook');
    const domain = idOf(ok(await c.post('/api/custom-domains', { applicationId: app.id, domain: `chat-${app.id.slice(0, 8)}.audit-example.com` }, as), 'domain'));
    ok(await c.delete(`/api/custom-domains/${domain}`, as), 'delete domain');
    // A plugin that does not exist: refused, and recorded as a failed change of the application.
    expect((await c.post(`${base}/plugins`, { pluginId: '00000000-0000-4000-8000-000000000000', settings: {} }, as)).status).toBe(404);

    ok(await c.post(`${base}/transfer`, { teamId: world.teamId }, as), 'move into the team');
    ok(await c.put(base, { description: 'Now the team’s' }, { token: admin.token }), 'edit as the team Admin');

    const records = await recordsOf(app.id, token);
    const actions = records.map((r) => r.action).reverse();
    expect(actions).toEqual([
      'application.create',
      'application.update',
      'branding.update',
      'model_config.create',
      'model_config.update',
      'model_config.version_create',
      'model_config.version_update',
      'model_config.version_delete',
      'model_config.create',
      'model_config.set_default',
      'model_config.delete',
      'prompt.create',
      'prompt.update',
      'prompt.delete',
      'tool.create',
      'tool.update',
      'agent.update',
      'tool.delete',
      'mcp_server.create',
      'mcp_server.update',
      'mcp_server.delete',
      'knowledge.upload',
      'knowledge.delete',
      'api_key.create',
      'api_key.revoke',
      'webhook.create',
      'webhook.update',
      'webhook.delete',
      'custom_domain.create',
      'custom_domain.delete',
      'plugin.change',
      'application.transfer',
      // The Admin's own record is theirs and the team's; the Owner sees it as the team's Owner.
      'application.update',
    ]);
    expect(records.every((r) => r.applicationId === app.id)).toBe(true);
    const byOwner = records.filter((r) => r.actorId === owner.user.id);
    expect(byOwner).toHaveLength(records.length - 1);
    for (const r of byOwner) expect(r).toMatchObject({ actorEmail: owner.email, actorName: 'Test User' });
    expect(records[0]).toMatchObject({ actorId: admin.user.id, actorEmail: admin.email, teamId: world.teamId, outcome: 'success' });
    // What changed, by name: the allowed origins; the resources by id, created ones from the answer.
    expect(records.find((r) => r.action === 'application.update' && r.actorId === owner.user.id)!.details).toMatchObject({ fields: 'allowedOrigins' });
    expect(records.find((r) => r.action === 'model_config.delete')).toMatchObject({ resourceType: 'model_config', resourceId: config });
    expect(records.find((r) => r.action === 'model_config.version_delete')!.details).toMatchObject({ versionId: version });
    expect(records.find((r) => r.action === 'knowledge.delete')).toMatchObject({ resourceId: document, outcome: 'success' });
    expect(records.find((r) => r.action === 'api_key.create')).toMatchObject({ resourceId: key.id });
    expect(records.find((r) => r.action === 'plugin.change')).toMatchObject({ outcome: 'failure' });
    const text = JSON.stringify(records);
    for (const secret of [key.key, hook.secret, 'mcp-header-secret-000111']) expect(text).not.toContain(secret);
    // The other application's history is its own.
    expect((await recordsOf(other.id, token)).map((r) => r.action)).toEqual(['application.create']);

    // The team's Admin sees the records made since it is the team's (the team carries them), not the earlier ones.
    const seenByAdmin = await recordsOf(app.id, admin.token);
    expect(seenByAdmin.map((r) => r.action)).toEqual(['application.update', 'application.transfer']);

    // Someone with no role in the team who tries a change gets a 404, and their attempt stays their own record.
    const { outsider } = world.users;
    expect((await c.put(base, { name: 'Mine now' }, { token: outsider.token })).status).toBe(404);
    expect((await recordsOf(app.id, outsider.token)).map((r) => [r.action, r.outcome, r.teamId])).toEqual([['application.update', 'failure', null]]);
    expect((await recordsOf(app.id, admin.token)).map((r) => r.actorId)).not.toContain(outsider.user.id);

    // Deleting it is the last record of its history, for the Owner and the team.
    ok(await c.delete(base, as), 'delete application');
    expect((await recordsOf(app.id, admin.token))[0]).toMatchObject({ action: 'application.delete', teamId: world.teamId, actorEmail: owner.email });
    expect((await c.get('/api/audit?application=not-an-id', as)).status).toBe(400);
  });

  it('records an application deployed from a template and its workflows, under the new application', async () => {
    const { owner } = world.users;
    const deployed = ok(await stack.client.post('/api/templates/support-bot/deploy', { name: 'From a template' }, { token: owner.token }), 'deploy') as { application: { id: string } };
    const appId = deployed.application.id;
    const flow = idOf(ok(await stack.client.post('/api/workflows', { applicationId: appId, name: 'Flow', steps: [{ id: 'a', kind: 'template', text: 'hello' }] }, { token: owner.token }), 'workflow'));
    ok(await stack.client.delete(`/api/workflows/${flow}`, { token: owner.token }), 'delete workflow');
    const records = await recordsOf(appId, owner.token);
    expect(records.map((r) => [r.action, r.resourceId])).toEqual([
      ['workflow.delete', flow],
      ['workflow.create', flow],
      ['application.create_from_template', appId],
    ]);
    expect(records[2]).toMatchObject({ details: { templateId: 'support-bot' }, actorEmail: owner.email });
  });

  it("records a team's member and role changes and a user's provider keys, with the person and without the key", async () => {
    const { owner, member } = world.users;
    ok(await stack.client.put(`/api/teams/${world.teamId}/members/${member.user.id}`, { role: 'viewer' }, { token: owner.token }), 'role change');
    const records = ok(await stack.client.get(`/api/audit?resource=team&limit=5`, { token: owner.token }), 'audit') as Record[];
    expect(records[0]).toMatchObject({ action: 'team.member_role', teamId: world.teamId, actorEmail: owner.email, details: { memberId: member.user.id, role: 'viewer' } });
    const providerKey = 'sk-audit-provider-key-0123456789abcdef';
    await stack.client.put('/api/provider-keys/provider_a', { apiKey: providerKey }, { token: owner.token });
    const keys = ok(await stack.client.get('/api/audit?resource=provider_key', { token: owner.token }), 'audit') as Record[];
    expect(keys[0]).toMatchObject({ action: 'provider_key.save', actorEmail: owner.email });
    expect(JSON.stringify(keys)).not.toContain(providerKey);
  });
});

import { sendForm } from '../core-api/uploads/send-form';
import { waitFor } from '../../support/wait-for';
import type { TestResponse } from '../../support/http-client';
import { startCoreApi, type TestStack } from '../../support/test-stack';
import { ROLES, session, teamApplication, teamWithEveryRole, addMember, type Role, type TeamWorld } from './team-support';

/**
 * The role matrix of docs/teams.md as a table: every role (and an outsider, the Owner of another
 * team) tries every action on a team's resources. Allowed answers 2xx, a role below the action's 403,
 * the outsider 404 (they may not even know it exists).
 */
const RANK: Record<Role, number> = { owner: 3, admin: 2, member: 1, viewer: 0 };

interface Action {
  name: string;
  /** The least role that may do it. */
  least: Role;
  /** Makes what the call needs, as the Owner; answers the id it acts on. */
  prepare?: () => Promise<string>;
  call: (token: string, id: string) => Promise<TestResponse>;
}

describe('teams: one access policy for every resource of a team application', () => {
  let stack: TestStack;
  let world: TeamWorld;
  let app: { id: string; slug: string };
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true });
    world = await teamWithEveryRole(stack, 'pro');
    app = await teamApplication(stack, world);
  }, 60_000);
  afterAll(() => stack.close());

  const owner = () => world.users.owner.token;
  const ok = (res: TestResponse, what: string) => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${res.text}`);
    return res.body;
  };
  const newConversation = async () => ok(await stack.client.post('/api/conversations', { applicationId: app.id }, { token: owner() }), 'conversation').id as string;
  const newConfig = async () =>
    ok(await stack.client.post('/api/model-configs', { applicationId: app.id, name: 'Cfg', provider: 'provider_a', modelId: 'gpt-4o-mini' }, { token: owner() }), 'config')._id as string;
  const newPrompt = async () => ok(await stack.client.post('/api/prompts', { applicationId: app.id, name: 'P', content: 'Hello {{name}}' }, { token: owner() }), 'prompt').id as string;
  const newApiKey = async () => ok(await stack.client.post('/api/api-keys', { name: 'K', applicationId: app.id }, { token: owner() }), 'api key').id as string;
  let domains = 0;
  const newWorkflow = async () =>
    ok(await stack.client.post('/api/workflows', { applicationId: app.id, name: 'Flow', steps: [{ id: 'a', kind: 'template', text: 'hello' }] }, { token: owner() }), 'workflow').id as string;

  const ACTIONS: Action[] = [
    { name: 'read the application', least: 'viewer', call: (token) => stack.client.get(`/api/applications/${app.id}`, { token }) },
    { name: 'change the application settings', least: 'admin', call: (token) => stack.client.put(`/api/applications/${app.id}`, { description: `by ${token.slice(-6)}` }, { token }) },
    {
      name: 'delete the application',
      least: 'owner',
      prepare: async () => (await teamApplication(stack, world, 'Doomed')).id,
      call: (token, id) => stack.client.delete(`/api/applications/${id}`, { token }),
    },
    { name: 'start a conversation', least: 'viewer', call: (token) => stack.client.post('/api/conversations', { applicationId: app.id }, { token }) },
    { name: 'chat', least: 'viewer', prepare: newConversation, call: (token, id) => stack.client.post(`/api/conversations/${id}/messages`, { content: 'hello' }, { token }) },
    { name: 'read a conversation', least: 'viewer', prepare: newConversation, call: (token, id) => stack.client.get(`/api/conversations/${id}`, { token }) },
    { name: 'archive a conversation', least: 'member', prepare: newConversation, call: (token, id) => stack.client.delete(`/api/conversations/${id}`, { token }) },
    { name: 'list model configs', least: 'viewer', call: (token) => stack.client.get(`/api/model-configs?applicationId=${app.id}`, { token }) },
    {
      name: 'create a model config',
      least: 'member',
      call: (token) => stack.client.post('/api/model-configs', { applicationId: app.id, name: 'Mine', provider: 'provider_a', modelId: 'gpt-4o-mini' }, { token }),
    },
    { name: 'edit a model config', least: 'member', prepare: newConfig, call: (token, id) => stack.client.put(`/api/model-configs/${id}`, { name: 'Renamed' }, { token }) },
    { name: 'read a model config', least: 'viewer', prepare: newConfig, call: (token, id) => stack.client.get(`/api/model-configs/${id}`, { token }) },
    { name: 'create a prompt', least: 'member', call: (token) => stack.client.post('/api/prompts', { applicationId: app.id, name: 'Mine', content: 'Hi' }, { token }) },
    { name: 'read a prompt', least: 'viewer', prepare: newPrompt, call: (token, id) => stack.client.get(`/api/prompts/${id}`, { token }) },
    { name: 'edit a prompt', least: 'member', prepare: newPrompt, call: (token, id) => stack.client.put(`/api/prompts/${id}`, { content: 'Bye' }, { token }) },
    {
      name: 'add knowledge',
      least: 'member',
      // A file of each caller's own (one by the same name would be a new version of the first, refused while that one is still processed).
      call: (token) => sendForm(stack.client.baseUrl, '/api/knowledge', { token, fields: { applicationId: app.id }, file: { name: `facts-${token.slice(-12)}.txt`, bytes: `Kettles boil (${token.slice(-12)}, ${Math.random()}).` } }),
    },
    { name: 'list knowledge', least: 'viewer', call: (token) => stack.client.get(`/api/knowledge?applicationId=${app.id}`, { token }) },
    { name: 'create an API key of the application', least: 'admin', call: (token) => stack.client.post('/api/api-keys', { name: 'Mine', applicationId: app.id }, { token }) },
    { name: 'revoke an API key of the application', least: 'admin', prepare: newApiKey, call: (token, id) => stack.client.post(`/api/api-keys/${id}/revoke`, {}, { token }) },
    { name: 'read the branding', least: 'viewer', call: (token) => stack.client.get(`/api/branding/${app.id}`, { token }) },
    { name: 'change the branding', least: 'admin', call: (token) => stack.client.put(`/api/branding/${app.id}`, { widget: { welcomeMessage: 'Hi there' } }, { token }) },
    { name: 'list installed plugins', least: 'viewer', call: (token) => stack.client.get(`/api/applications/${app.id}/plugins`, { token }) },
    {
      name: 'add a custom domain',
      least: 'admin',
      call: (token) => stack.client.post('/api/custom-domains', { applicationId: app.id, domain: `chat${++domains}.team-example.com` }, { token }),
    },
    { name: 'list workflows', least: 'viewer', call: (token) => stack.client.get(`/api/workflows?applicationId=${app.id}`, { token }) },
    { name: 'read a workflow', least: 'viewer', prepare: newWorkflow, call: (token, id) => stack.client.get(`/api/workflows/${id}`, { token }) },
    {
      name: 'create a workflow',
      least: 'member',
      call: (token) => stack.client.post('/api/workflows', { applicationId: app.id, name: 'Mine', steps: [{ id: 'a', kind: 'template', text: 'x' }] }, { token }),
    },
    {
      name: 'edit a workflow',
      least: 'member',
      prepare: newWorkflow,
      call: (token, id) => stack.client.put(`/api/workflows/${id}`, { steps: [{ id: 'a', kind: 'template', text: 'bye' }] }, { token }),
    },
    { name: 'run a workflow', least: 'member', prepare: newWorkflow, call: (token, id) => stack.client.post(`/api/workflows/${id}/trigger`, { input: {} }, { token }) },
    { name: 'list the runs of a workflow', least: 'viewer', prepare: newWorkflow, call: (token, id) => stack.client.get(`/api/workflows/${id}/runs`, { token }) },
    { name: 'read the analytics of the application', least: 'viewer', call: (token) => stack.client.get(`/api/analytics/overview?applicationId=${app.id}`, { token }) },
    { name: 'read the costs of the application', least: 'viewer', call: (token) => stack.client.get(`/api/analytics/costs?applicationId=${app.id}`, { token }) },
    { name: 'read the team', least: 'viewer', call: (token) => stack.client.get(`/api/teams/${world.teamId}`, { token }) },
    { name: 'list the members', least: 'viewer', call: (token) => stack.client.get(`/api/teams/${world.teamId}/members`, { token }) },
    { name: 'change the team settings', least: 'admin', call: (token) => stack.client.put(`/api/teams/${world.teamId}`, { description: 'updated' }, { token }) },
    { name: 'list the invitations', least: 'admin', call: (token) => stack.client.get(`/api/teams/${world.teamId}/invitations`, { token }) },
    {
      name: 'save a team provider key',
      least: 'admin',
      call: (token) => stack.client.put(`/api/teams/${world.teamId}/provider-keys/provider_d`, { apiKey: 'hf_team_matrix_key_0001' }, { token }),
    },
    { name: 'list the team provider keys', least: 'admin', call: (token) => stack.client.get(`/api/teams/${world.teamId}/provider-keys`, { token }) },
  ];

  const cases = ACTIONS.flatMap((action) => [...ROLES, 'outsider' as const].map((who) => [action.name, who, action] as const));

  it.each(cases)('%s as %s', async (_name, who, action) => {
    const id = action.prepare ? await action.prepare() : '';
    const res = await action.call(world.users[who].token, id);
    if (who === 'outsider') expect(res.status).toBe(404);
    else if (RANK[who] >= RANK[action.least]) expect(res.status).toBeLessThan(300);
    else {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ statusCode: 403, error: expect.any(String), message: expect.any(String) });
    }
  });

  it('lists the team\'s conversations, API keys and custom domains to its members, filtered by ?teamId=', async () => {
    const { viewer, outsider } = world.users;
    const conversation = await newConversation();
    const key = await newApiKey();
    const own = (await stack.client.post('/api/api-keys', { name: 'Viewer own' }, { token: viewer.token })).body.id as string;
    const ids = async (path: string, token = viewer.token) => ((await stack.client.get(path, { token })).body as Array<{ id: string }>).map((x) => x.id);
    expect(await ids(`/api/conversations?teamId=${world.teamId}`)).toContain(conversation);
    expect(await ids('/api/conversations')).toContain(conversation);
    expect(await ids('/api/conversations?teamId=personal')).not.toContain(conversation);
    expect(await ids('/api/conversations', outsider.token)).not.toContain(conversation);
    expect(await ids('/api/api-keys')).toEqual(expect.arrayContaining([key, own]));
    expect(await ids(`/api/api-keys?teamId=${world.teamId}`)).not.toContain(own);
    expect(await ids(`/api/api-keys?teamId=${world.teamId}`)).toContain(key);
    expect(await ids('/api/api-keys?teamId=personal')).toEqual([own]);
    expect(await ids('/api/api-keys', outsider.token)).not.toContain(key);
    expect((await ids(`/api/custom-domains?teamId=${world.teamId}`)).length).toBeGreaterThan(0);
    expect(await ids(`/api/custom-domains?teamId=${world.teamId}`, outsider.token)).toEqual([]);
    expect((await stack.client.get('/api/webhooks?teamId=nonsense', { token: viewer.token })).status).toBe(400);
    const flow = await newWorkflow();
    const flows = ids;
    expect(await flows('/api/workflows?limit=100')).toContain(flow);
    expect(await flows(`/api/workflows?limit=100&teamId=${world.teamId}`)).toContain(flow);
    expect(await flows('/api/workflows?limit=100&teamId=personal')).not.toContain(flow);
    expect(await flows('/api/workflows?limit=100', outsider.token)).not.toContain(flow);
    expect(await flows(`/api/workflows?limit=100&teamId=${world.teamId}`, outsider.token)).toEqual([]);
    // Analytics without an application cover every application the caller sees, narrowed the same way.
    const opened = async (query: string, token = viewer.token) => (await stack.client.get(`/api/analytics/overview${query}`, { token })).body.totals.conversations as number;
    const all = await opened('');
    expect(all).toBeGreaterThan(0);
    expect(await opened(`?teamId=${world.teamId}`)).toBe(all);
    expect(await opened('?teamId=personal')).toBe(0);
    expect(await opened('', outsider.token)).toBe(0);
  });

  describe('a sweep of every route with a path id: another team\'s member and a member just removed get 404 and change nothing', () => {
    const TABLES = ['applications', 'conversations', 'messages', 'model_configs', 'prompt_templates', 'knowledge_documents', 'api_keys', 'branding', 'teams', 'team_members', 'team_invitations', 'team_provider_keys', 'custom_domains'];
    const digest = async () => {
      const out: Record<string, string> = {};
      for (const table of TABLES) {
        const [row] = await stack.infra.dataSource.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t`);
        out[table] = `${row.n}:${row.h}`;
      }
      return out;
    };

    const routes = async (): Promise<Array<[string, string, unknown?]>> => {
      const conversation = await newConversation();
      const config = await newConfig();
      const prompt = await newPrompt();
      const key = await newApiKey();
      const doc = ok(await sendForm(stack.client.baseUrl, '/api/knowledge', { token: owner(), fields: { applicationId: app.id }, file: { name: 'sweep.txt', bytes: `Sweep ${Math.random()}.` } }), 'doc').id; // the same bytes twice would be a 409
      // Every document's processing finishes first: it writes in the background.
      await waitFor(async () => {
        const docs = (await stack.client.get(`/api/knowledge?applicationId=${app.id}&limit=100`, { token: owner() })).body as Array<{ status: string }>;
        return docs.every((d) => d.status !== 'processing' && d.status !== 'pending');
      });
      const memberId = world.users.member.user.id;
      const t = world.teamId;
      return [
        ['GET', `/api/applications/${app.id}`],
        ['PUT', `/api/applications/${app.id}`, { name: 'Taken over' }],
        ['DELETE', `/api/applications/${app.id}`],
        ['POST', `/api/applications/${app.id}/transfer`, { teamId: world.outsiderTeamId }],
        ['POST', `/api/applications/${app.id}/theme`, { themeId: 'default' }],
        ['GET', `/api/applications/${app.id}/plugins`],
        ['GET', `/api/branding/${app.id}`],
        ['PUT', `/api/branding/${app.id}`, { widget: { welcomeMessage: 'Hijacked' } }],
        ['GET', `/api/conversations/${conversation}`],
        ['DELETE', `/api/conversations/${conversation}`],
        ['POST', `/api/conversations/${conversation}/messages`, { content: 'hi' }],
        ['GET', `/api/model-configs/${config}`],
        ['PUT', `/api/model-configs/${config}`, { name: 'Taken' }],
        ['DELETE', `/api/model-configs/${config}`],
        ['GET', `/api/model-configs/${config}/versions`],
        ['GET', `/api/prompts/${prompt}`],
        ['PUT', `/api/prompts/${prompt}`, { content: 'Taken' }],
        ['DELETE', `/api/prompts/${prompt}`],
        ['GET', `/api/knowledge/${doc}`],
        ['DELETE', `/api/knowledge/${doc}`],
        ['POST', `/api/api-keys/${key}/revoke`, {}],
        ['DELETE', `/api/api-keys/${key}`],
        ['GET', `/api/teams/${t}`],
        ['PUT', `/api/teams/${t}`, { name: 'Taken' }],
        ['DELETE', `/api/teams/${t}`],
        ['GET', `/api/teams/${t}/members`],
        ['PUT', `/api/teams/${t}/members/${memberId}`, { role: 'viewer' }],
        ['DELETE', `/api/teams/${t}/members/${memberId}`],
        ['POST', `/api/teams/${t}/leave`, {}],
        ['POST', `/api/teams/${t}/transfer`, { userId: memberId }],
        ['GET', `/api/teams/${t}/invitations`],
        ['POST', `/api/teams/${t}/invitations`, { email: 'intruder@example.com' }],
        ['GET', `/api/teams/${t}/provider-keys`],
        ['PUT', `/api/teams/${t}/provider-keys/provider_a`, { apiKey: 'sk-intruder-0000' }],
        ['DELETE', `/api/teams/${t}/provider-keys/provider_d`],
      ];
    };

    const sweep = async (token: string) => {
      const list = await routes();
      const before = await digest();
      const answers: string[] = [];
      for (const [method, path, body] of list) {
        const res = await stack.client.request(method, path, { body, token });
        if (res.status !== 404) answers.push(`${method} ${path} answered ${res.status}`);
      }
      expect(answers).toEqual([]);
      expect(await digest()).toEqual(before);
    };

    it('as the Owner of another team', async () => {
      await sweep(world.users.outsider.token);
    });

    it('as an Admin removed from the team a moment ago', async () => {
      const former = await session(stack);
      await addMember(stack, world.teamId, world.users.owner, former, 'admin');
      expect((await stack.client.get(`/api/applications/${app.id}`, { token: former.token })).status).toBe(200);
      expect((await stack.client.delete(`/api/teams/${world.teamId}/members/${former.user.id}`, { token: world.users.owner.token })).status).toBe(204);
      await sweep(former.token);
    });
  });
});

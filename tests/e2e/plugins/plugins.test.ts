import { DATABASE_KINDS } from '../../support/test-database';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { aPlugin, zipOf } from '../../support/plugins/plugin-examples';

type Owner = Awaited<ReturnType<typeof userWithApplication>>;

describe.each(DATABASE_KINDS)('core API: plugins and installations (%s)', (database) => {
  let stack: TestStack;
  let owner: Owner;
  let stranger: Owner;

  beforeAll(async () => {
    stack = await startCoreApi({ database });
    owner = await userWithApplication(stack.client);
    stranger = await userWithApplication(stack.client);
  });
  afterAll(() => stack.close());

  const create = (body: unknown, token = owner.token) => stack.client.post('/api/plugins', body, { token });
  const install = (appId: string, body: unknown, token = owner.token) => stack.client.post(`/api/applications/${appId}/plugins`, body, { token });
  const move = (appId: string, id: string, to: 'activate' | 'deactivate', token = owner.token) => stack.client.put(`/api/applications/${appId}/plugins/${id}/${to}`, undefined, { token });
  const uploadZip = (zip: Buffer, token = owner.token) => {
    const form = new FormData();
    form.set('package', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'plugin.zip');
    return fetch(`${stack.client.baseUrl}/api/plugins`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  };

  it('creates a private plugin, shows its source to the owner only, and publishes it', async () => {
    const res = await create(aPlugin(`definePlugin({})`, { name: 'private-one', displayName: 'Private one', permissions: { hosts: ['api.example.com'] } }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'private-one', displayName: 'Private one', version: '1.0.0', published: false, isOwner: true, source: 'definePlugin({})' });
    expect(res.body.manifest.permissions).toEqual({ hosts: ['api.example.com'], events: [] });
    const id = res.body.id;
    expect((await stack.client.get(`/api/plugins/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await stack.client.get('/api/plugins', { token: stranger.token })).body.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await stack.client.put(`/api/plugins/${id}/publish`, undefined, { token: stranger.token })).status).toBe(404);
    expect((await install(stranger.app.id, { pluginId: id }, stranger.token)).status).toBe(404);

    const published = await stack.client.put(`/api/plugins/${id}/publish`, undefined, { token: owner.token });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ published: true, publishedAt: expect.any(String) });
    const seen = await stack.client.get(`/api/plugins/${id}`, { token: stranger.token });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({ isOwner: false, source: 'definePlugin({})', versions: [{ version: '1.0.0', current: true }] });
    expect((await stack.client.get('/api/plugins', { token: stranger.token })).body.map((p: { id: string }) => p.id)).toContain(id);
    expect((await stack.client.put(`/api/plugins/${id}/publish`, undefined, { token: stranger.token })).status).toBe(404);
    expect((await create(aPlugin(`definePlugin({})`, { name: 'private-one' }))).status).toBe(409);
  });

  it.each([
    ['a name that is not a slug', { name: 'Not A Slug' }, 'manifest.name'],
    ['a version that is not SemVer', { version: '1.2' }, 'manifest.version'],
    ['no main', { main: undefined }, 'manifest.main'],
    ['a host with a scheme', { permissions: { hosts: ['https://api.example.com'] } }, 'manifest.permissions.hosts[0]'],
    ['an IP address as host', { permissions: { hosts: ['169.254.169.254'] } }, 'manifest.permissions.hosts[0]'],
    ['a setting of an unknown type', { settings: { words: { type: 'list' } } }, 'manifest.settings.words.type'],
    ['a secret with a default', { settings: { token: { type: 'string', secret: true, default: 'x' } } }, 'manifest.settings.token.default'],
  ])('answers 400 for a manifest with %s, naming the field', async (_case, fields, path) => {
    const body = aPlugin('definePlugin({})', fields as Record<string, unknown>);
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('answers 400 for a missing manifest or source', async () => {
    expect((await create({ source: 'definePlugin({})' })).body.details[0].path).toBe('manifest');
    expect((await create({ manifest: aPlugin('').manifest })).body.details[0].path).toBe('source');
    expect((await create({ manifest: 'nope', source: 'x' })).status).toBe(400);
  });

  it('creates a plugin from a ZIP package', async () => {
    const zip = await zipOf({ 'manifest.json': JSON.stringify({ name: 'zipped', version: '2.0.0-beta.1', main: 'lib/main.js' }), 'lib/main.js': 'definePlugin({ on: {} })' });
    const res = await uploadZip(zip);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'zipped', version: '2.0.0-beta.1', source: 'definePlugin({ on: {} })' });
  });

  it('refuses a ZIP bomb, a ZIP with ../ paths, a broken ZIP and a ZIP without its main file', async () => {
    const bomb = await zipOf({ 'manifest.json': JSON.stringify({ name: 'bomb', version: '1.0.0', main: 'index.js' }), 'index.js': Buffer.alloc(5 * 1024 * 1024, 0x20) });
    const bombRes = await uploadZip(bomb);
    expect(bombRes.status).toBe(400);
    expect((await bombRes.json()).message).toMatch(/ZIP bomb|more than allowed|larger than/);

    // yazl refuses to write "../", so the name is patched in place (same length) in both headers.
    const traversal = Buffer.from((await zipOf({ 'manifest.json': JSON.stringify({ name: 'trav', version: '1.0.0', main: 'index.js' }), 'index.js': 'x', 'zz/evil.js': 'x' }, { compress: false })).toString('latin1').replaceAll('zz/evil.js', '../evil.js'), 'latin1');
    const travRes = await uploadZip(traversal);
    expect(travRes.status).toBe(400);
    expect((await travRes.json()).message).toMatch(/outside|invalid relative path|not a readable ZIP/);

    const broken = await uploadZip(Buffer.from('PK\u0003\u0004 definitely not a zip'));
    expect(broken.status).toBe(400);
    const noMain = await uploadZip(await zipOf({ 'manifest.json': JSON.stringify({ name: 'nomain', version: '1.0.0', main: 'index.js' }) }));
    expect(noMain.status).toBe(400);
    expect((await noMain.json()).details[0].path).toBe('manifest.main');
  });

  it('installs with checked settings, seals secrets and never returns them', async () => {
    const plugin = (
      await create(aPlugin(`definePlugin({ onActivate() { if (!platform.settings.apiToken.startsWith('tok_')) throw new Error('bad token'); } })`, {
        settings: { apiToken: { type: 'string', secret: true, required: true }, words: { type: 'array', items: 'string', default: ['a'] } },
      }))
    ).body;
    const missing = await install(owner.app.id, { pluginId: plugin.id, settings: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'settings.apiToken', message: 'settings.apiToken is required' }]);
    const wrong = await install(owner.app.id, { pluginId: plugin.id, settings: { apiToken: 'tok_1', words: [1], extra: true } });
    expect(wrong.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['settings.extra', 'settings.words']);

    const res = await install(owner.app.id, { pluginId: plugin.id, settings: { apiToken: 'tok_secret_value' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: 'installed', version: '1.0.0', settings: { apiToken: { secret: true, set: true }, words: ['a'] }, counters: { calls: 0, failures: 0 } });
    expect(JSON.stringify(res.body)).not.toContain('tok_secret_value');
    const [row] = await stack.infra.dataSource.query(`SELECT sealed_secrets::text AS s FROM plugin_installations WHERE id = $1`, [res.body.id]);
    expect(row.s).not.toContain('tok_secret_value');
    expect((await install(owner.app.id, { pluginId: plugin.id, settings: { apiToken: 'tok_x' } })).status).toBe(409);

    // The secret reaches the code: onActivate checks it.
    const activated = await move(owner.app.id, res.body.id, 'activate');
    expect(activated.status).toBe(200);
    expect(activated.body.state).toBe('activated');
    const listed = await stack.client.get(`/api/applications/${owner.app.id}/plugins`, { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain('tok_secret_value');
  });

  it('updates settings, keeping a secret that is left out, and reloads the active code', async () => {
    const plugin = (
      await create(aPlugin(`definePlugin({ endpoints: [{ method: 'GET', path: '/settings', handler: () => ({ body: { words: platform.settings.words, hasToken: platform.settings.apiToken.startsWith('tok_') } }) }] })`, {
        settings: { apiToken: { type: 'string', secret: true, required: true }, words: { type: 'array', items: 'string', default: [] } },
      }))
    ).body;
    const installed = (await install(owner.app.id, { pluginId: plugin.id, settings: { apiToken: 'tok_keep_me', words: ['a'] } })).body;
    await move(owner.app.id, installed.id, 'activate');
    const read = () => stack.client.get(`/api/plugins/${plugin.id}/endpoints/settings?applicationId=${owner.app.id}`);
    expect((await read()).body).toEqual({ words: ['a'], hasToken: true });
    const updated = await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.id}/settings`, { settings: { words: ['b', 'c'] } }, { token: owner.token });
    expect(updated.status).toBe(200);
    expect(updated.body.settings).toEqual({ words: ['b', 'c'], apiToken: { secret: true, set: true } });
    expect((await read()).body).toEqual({ words: ['b', 'c'], hasToken: true });
    const bad = await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.id}/settings`, { settings: { words: 'b' } }, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('settings.words');
    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.id}/settings`, { settings: {} }, { token: stranger.token })).status).toBe(404);
  });

  it('moves installations as SPEC 3 says and answers 409 for other moves', async () => {
    const plugin = (await create(aPlugin(`definePlugin({ adminPages: [{ path: '/report', title: 'Report', group: 'tools' }] })`))).body;
    const installed = (await install(owner.app.id, { pluginId: plugin.id })).body;
    const id = installed.id;
    expect((await move(owner.app.id, id, 'deactivate')).status).toBe(409);
    expect((await move(owner.app.id, id, 'activate')).body.state).toBe('activated');
    const again = await move(owner.app.id, id, 'activate');
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/activated/);
    const pages = await stack.client.get(`/api/applications/${owner.app.id}/plugins/admin-pages`, { token: owner.token });
    expect(pages.body).toContainEqual(expect.objectContaining({ path: '/report', title: 'Report', group: 'tools', pluginId: plugin.id }));
    const refused = await stack.client.delete(`/api/applications/${owner.app.id}/plugins/${id}`, { token: owner.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/deactivate it first/);
    // By plugin id works too.
    expect((await move(owner.app.id, plugin.id, 'deactivate')).body.state).toBe('deactivated');
    expect((await move(owner.app.id, id, 'activate')).body.state).toBe('activated');
    expect((await move(owner.app.id, id, 'deactivate')).body.state).toBe('deactivated');
    // Another user's installation: 404 on every route.
    expect((await stack.client.get(`/api/applications/${owner.app.id}/plugins`, { token: stranger.token })).status).toBe(404);
    expect((await move(owner.app.id, id, 'activate', stranger.token)).status).toBe(404);
    expect((await move(stranger.app.id, id, 'activate', stranger.token)).status).toBe(404);
    expect((await stack.client.delete(`/api/applications/${stranger.app.id}/plugins/${id}`, { token: stranger.token })).status).toBe(404);
    expect((await stack.client.delete(`/api/applications/${owner.app.id}/plugins/${id}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`/api/applications/${owner.app.id}/plugins/${id}`, { token: owner.token })).status).toBe(404);
  });

  it('refuses activation of code that does not load, with the reason', async () => {
    const broken = (await create(aPlugin(`definePlugin({ hooks: { 'message:unknown': () => 1 } })`))).body;
    const installed = (await install(owner.app.id, { pluginId: broken.id })).body;
    const res = await move(owner.app.id, installed.id, 'activate');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/unknown hook "message:unknown"/);
    const syntax = (await create(aPlugin(`definePlugin({`))).body;
    const res2 = await move(owner.app.id, (await install(owner.app.id, { pluginId: syntax.id })).body.id, 'activate');
    expect(res2.status).toBe(422);
    expect(res2.body.message).toMatch(/SyntaxError|Unexpected/);
    const badCron = (await create(aPlugin(`definePlugin({ cron: [{ name: 'x', schedule: '61 * * * *', handler() {} }] })`))).body;
    const res3 = await move(owner.app.id, (await install(owner.app.id, { pluginId: badCron.id })).body.id, 'activate');
    expect(res3.status).toBe(400);
    expect(res3.body.details[0].path).toBe('cron.x');
  });

  it('answers 404 for unknown ids and applications', async () => {
    expect((await stack.client.get('/api/plugins/not-a-uuid', { token: owner.token })).status).toBe(404);
    expect((await stack.client.get('/api/plugins/00000000-0000-4000-8000-000000000000', { token: owner.token })).status).toBe(404);
    expect((await install('00000000-0000-4000-8000-000000000000', { pluginId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
    expect((await stack.client.get('/api/plugins', {})).status).toBe(401);
    const other = await registerUser(stack.client);
    expect((await stack.client.get(`/api/applications/${owner.app.id}/plugins/admin-pages`, { token: other.access_token })).status).toBe(404);
  });
});

import { get, type IncomingMessage } from 'node:http';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';

describe.each(DATABASE_KINDS)('core API: themes (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database });
  });
  afterAll(() => stack.close());

  it('lists the four presets first and shows one by id', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const list = await stack.client.get('/api/themes', { token });
    expect(list.status).toBe(200);
    expect(list.body.map((t: { id: string }) => t.id).slice(0, 4)).toEqual(['default', 'dark', 'minimal', 'vibrant']);
    const dark = await stack.client.get('/api/themes/dark', { token });
    expect(dark.body).toMatchObject({ id: 'dark', preset: true, definition: { colors: { background: '#111827' } } });
    expect(dark.body.variables['--ap-color-background']).toBe('#111827');
    expect((await stack.client.get('/api/themes', {})).status).toBe(401);
  });

  it('creates a theme extending a preset with a partial override, deep-merged', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const created = await stack.client.post('/api/themes', { name: 'Night shop', extend: 'dark', colors: { primary: '#ff0066' }, custom: { brandGlow: '#00ffaa' } }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Night shop', extend: 'dark', own: true, preset: false, published: false });
    expect(created.body.definition.colors).toMatchObject({ primary: '#ff0066', background: '#111827' });
    expect(created.body.variables['--ap-custom-brand-glow']).toBe('#00ffaa');
    expect((await stack.client.get(`/api/themes/${created.body.id}`, { token })).body.id).toBe(created.body.id);
    const list = await stack.client.get('/api/themes', { token });
    expect(list.headers.get('x-total-count')).toBe('5');
    // A theme can extend the caller's own theme too.
    const child = await stack.client.post('/api/themes', { name: 'Child', extend: created.body.id, layout: { borderRadius: '2px' } }, { token });
    expect(child.body.definition).toMatchObject({ colors: { primary: '#ff0066' }, layout: { borderRadius: '2px' } });
  });

  it('answers 400 naming each field missing or invalid after merging', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const incomplete = await stack.client.post('/api/themes', { name: 'Bare', colors: { primary: '#fff' } }, { token });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.details.map((d: { path: string }) => d.path)).toContain('colors.background');
    const bad = await stack.client.post('/api/themes', { name: 'Bad', extend: 'default', typography: { fontSize: 'huge' } }, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'typography.fontSize', message: expect.stringContaining('typography.fontSize') }]);
    const unknownBase = await stack.client.post('/api/themes', { name: 'X', extend: 'no-such-theme' }, { token });
    expect(unknownBase.status).toBe(400);
    expect(unknownBase.body.details[0].path).toBe('extend');
  });

  it("keeps another user's unpublished theme hidden (404) and shares published ones", async () => {
    const a = await registerUser(stack.client);
    const b = await registerUser(stack.client);
    const secret = await stack.client.post('/api/themes', { name: 'Secret', extend: 'minimal' }, { token: a.access_token });
    const shared = await stack.client.post('/api/themes', { name: 'Shared', extend: 'vibrant', published: true }, { token: a.access_token });
    expect((await stack.client.get(`/api/themes/${secret.body.id}`, { token: b.access_token })).status).toBe(404);
    expect((await stack.client.get(`/api/themes/${shared.body.id}`, { token: b.access_token })).body).toMatchObject({ own: false, published: true });
    const owner = await userWithApplication(stack.client);
    expect((await stack.client.post(`/api/applications/${owner.app.id}/theme`, { themeId: secret.body.id }, { token: owner.token })).status).toBe(404);
    expect((await stack.client.post(`/api/applications/${owner.app.id}/theme`, { themeId: shared.body.id }, { token: owner.token })).status).toBe(200);
    expect((await stack.client.get('/api/themes/not-a-theme', { token: b.access_token })).status).toBe(404);
  });

  it("resolves an application's theme and customization into theme.css, cacheable by ETag", async () => {
    const owner = await userWithApplication(stack.client);
    expect((await stack.client.post(`/api/applications/${owner.app.id}/theme`, { themeId: 'nope' }, { token: owner.token })).status).toBe(404);
    expect((await stack.client.post(`/api/applications/${owner.app.id}/theme`, { themeId: 'dark' }, { token: owner.token })).status).toBe(200);
    const customized = await stack.client.put(`/api/applications/${owner.app.id}/theme/customize`, { colors: { primary: '#0a7d4f' }, layout: { maxWidth: '800px' } }, { token: owner.token });
    expect(customized.status).toBe(200);
    const invalid = await stack.client.put(`/api/applications/${owner.app.id}/theme/customize`, { layout: { density: 'dense' } }, { token: owner.token });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details[0].path).toBe('layout.density');

    const css = await stack.client.get(`/api/applications/${owner.app.id}/theme.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toMatch(/public/);
    expect(css.text).toContain('--ap-color-primary: #0a7d4f;');
    expect(css.text).toContain('--ap-color-background: #111827;');
    expect(css.text).toContain('--ap-layout-max-width: 800px;');
    const etag = css.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // node:http, because fetch adds `Cache-Control: no-cache`, which rightly forbids a 304.
    const revalidate = () =>
      new Promise<IncomingMessage>((resolve) => get(`${stack.listening.url}/api/applications/${owner.app.id}/theme.css`, { headers: { 'If-None-Match': etag } }, resolve));
    const again = await revalidate();
    again.resume();
    expect(again.statusCode).toBe(304);
    await stack.client.put(`/api/applications/${owner.app.id}/theme/customize`, { colors: { primary: '#123456' } }, { token: owner.token });
    const changed = await revalidate();
    changed.resume();
    expect(changed.statusCode).toBe(200);
    expect((await stack.client.get('/api/applications/00000000-0000-4000-8000-000000000000/theme.css')).status).toBe(404);
  });
});

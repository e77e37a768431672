import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';
import { createKey, withKey } from '../public-api/public-api-support';

describe.each(DATABASE_KINDS)('core API: branding (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database });
  });
  afterAll(() => stack.close());

  it('answers the defaults, then keeps what PUT sets, section by section', async () => {
    const owner = await userWithApplication(stack.client);
    const initial = await stack.client.get(`/api/branding/${owner.app.id}`, { token: owner.token });
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ applicationId: owner.app.id, colors: {}, customCss: '', showAttribution: true, updatedAt: null });
    const put = await stack.client.put(
      `/api/branding/${owner.app.id}`,
      {
        colors: { primary: '#0a7d4f', background: '#fffbea' },
        typography: { bodyFont: 'Inter, sans-serif', headingFont: 'Georgia, serif' },
        widget: { position: 'bottom-left', borderRadius: '6px', welcomeMessage: 'Hi! How can we help?', placeholder: 'Ask us anything' },
        email: { fromName: 'Harbour Help', replyTo: 'help@harbour.example', headerLogoUrl: 'https://harbour.example/logo.png', footerText: 'Harbour Ltd' },
        customCss: '.m { letter-spacing: .01em }',
      },
      { token: owner.token },
    );
    expect(put.status).toBe(200);
    const partial = await stack.client.put(`/api/branding/${owner.app.id}`, { widget: { placeholder: 'Type here' } }, { token: owner.token });
    expect(partial.body).toMatchObject({
      colors: { primary: '#0a7d4f', background: '#fffbea' },
      widget: { position: 'bottom-left', borderRadius: '6px', welcomeMessage: 'Hi! How can we help?', placeholder: 'Type here' },
      email: { fromName: 'Harbour Help' },
      customCss: '.m { letter-spacing: .01em }',
    });
    expect((await stack.client.get(`/api/branding/${owner.app.id}`, { token: owner.token })).body).toEqual(partial.body);

    // Branding applies over the theme: theme.css and the public app config carry it.
    const css = await stack.client.get(`/api/applications/${owner.app.id}/theme.css`);
    expect(css.text).toContain('--ap-color-primary: #0a7d4f;');
    expect(css.text).toContain('--ap-font-family: Inter, sans-serif;');
    expect(css.text).toContain('--ap-layout-border-radius: 6px;');
    const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    const config = await stack.client.get('/api/v1/app', withKey(key.key));
    expect(config.body.branding).toEqual({ position: 'bottom-left', welcomeMessage: 'Hi! How can we help?', placeholder: 'Type here', customCss: '.m{letter-spacing:.01em}', showAttribution: true });
    expect(config.body.theme.colors).toMatchObject({ primary: '#0a7d4f' });
  });

  it.each([
    ['@import', '@import url("https://evil.example/a.css");'],
    ['url(javascript:)', '.a{background:url(javascript:alert(1))}'],
    ['expression(', '.a{width:expression(alert(1))}'],
    ['</style>', '.a{color:red}</style><script>alert(1)</script>'],
    ['behavior', '.a{behavior:url(https://x.example/a.htc)}'],
  ])('refuses custom CSS with %s: 400 naming the rule, nothing stored', async (_name, customCss) => {
    const owner = await userWithApplication(stack.client);
    const res = await stack.client.put(`/api/branding/${owner.app.id}`, { customCss, colors: { primary: '#000000' } }, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.details[0].path).toBe('customCss');
    expect(res.body.message).toMatch(/in rule `/);
    expect((await stack.client.get(`/api/branding/${owner.app.id}`, { token: owner.token })).body.colors).toEqual({});
  });

  it('takes custom CSS of exactly 5 KB and refuses one byte more', async () => {
    const owner = await userWithApplication(stack.client);
    const rule = '.a{color:red}';
    const exact = rule + ' '.repeat(5 * 1024 - rule.length);
    expect((await stack.client.put(`/api/branding/${owner.app.id}`, { customCss: exact }, { token: owner.token })).status).toBe(200);
    const over = await stack.client.put(`/api/branding/${owner.app.id}`, { customCss: exact + ' ' }, { token: owner.token });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/5 KB/);
  });

  it('refuses invalid fields with 400 naming them', async () => {
    const owner = await userWithApplication(stack.client);
    const res = await stack.client.put(
      `/api/branding/${owner.app.id}`,
      { colors: { primary: 'red;}' }, widget: { position: 'middle' }, email: { replyTo: 'nope', headerLogoUrl: 'http://x.example/a.png' }, showAttribution: 'no' },
      { token: owner.token },
    );
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['colors.primary', 'email.headerLogoUrl', 'email.replyTo', 'showAttribution', 'widget.position']);
  });

  it('needs a paid plan to hide the attribution line (402 on Free)', async () => {
    const owner = await userWithApplication(stack.client);
    const free = await stack.client.put(`/api/branding/${owner.app.id}`, { showAttribution: false }, { token: owner.token });
    expect(free.status).toBe(402);
    expect(free.body).toMatchObject({ statusCode: 402, error: 'Payment Required' });
    await stack.setPlan(owner.user.id, 'starter');
    const paid = await stack.client.put(`/api/branding/${owner.app.id}`, { showAttribution: false }, { token: owner.token });
    expect(paid.status).toBe(200);
    expect(paid.body.showAttribution).toBe(false);
    const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
    expect((await stack.client.get('/api/v1/app', withKey(key.key))).body.branding.showAttribution).toBe(false);
    // Back on Free, the line shows again (the setting is kept for a later upgrade).
    await stack.setPlan(owner.user.id, 'free');
    expect((await stack.client.get('/api/v1/app', withKey(key.key))).body.branding.showAttribution).toBe(true);
  });

  it("answers 404 for another user's branding", async () => {
    const owner = await userWithApplication(stack.client);
    const other = await registerUser(stack.client);
    expect((await stack.client.get(`/api/branding/${owner.app.id}`, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.put(`/api/branding/${owner.app.id}`, { colors: { primary: '#000000' } }, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.get('/api/branding/not-a-uuid', { token: other.access_token })).status).toBe(404);
  });
});

describe('core API: e-mail branding in the password-reset mail', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  const lastMailTo = (email: string) => {
    const dir = join(stack.config.dataDir, 'outbox');
    const mails = readdirSync(dir).sort().map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { to: string; text: string; html?: string; fromName?: string; replyTo?: string });
    return mails.filter((m) => m.to === email).at(-1)!;
  };

  it("carries the branding of an application the account owns, and never another owner's", async () => {
    const owner = await userWithApplication(stack.client);
    await stack.client.put(
      `/api/branding/${owner.app.id}`,
      { email: { fromName: 'Harbour Help', replyTo: 'help@harbour.example', headerLogoUrl: 'https://harbour.example/logo.png', footerText: 'Harbour Ltd <3' } },
      { token: owner.token },
    );
    expect((await stack.client.post('/api/auth/password-reset/request', { email: owner.email, applicationId: owner.app.id })).status).toBe(202);
    const branded = lastMailTo(owner.email);
    expect(branded).toMatchObject({ fromName: 'Harbour Help', replyTo: 'help@harbour.example' });
    expect(branded.text).toMatch(/--\nHarbour Ltd <3$/);
    expect(branded.html).toContain('<img src="https://harbour.example/logo.png"');
    expect(branded.html).toContain('Harbour Ltd &lt;3');

    const stranger = await registerUser(stack.client);
    await stack.client.post('/api/auth/password-reset/request', { email: stranger.email, applicationId: owner.app.id });
    const plain = lastMailTo(stranger.email);
    expect(plain.fromName).toBeUndefined();
    expect(plain.html).toBeUndefined();
    expect(plain.text).not.toContain('Harbour');
  });
});

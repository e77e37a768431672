import { IssueSetupLinkUseCase } from '../../../core/auth/use-cases/platform-setup.use-cases';
import { resolve } from '../../../apps/shared/tokens';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';
import { outbox } from '../teams/team-support';

/** The setup link of the start log: its absolute URL and the token it carries. */
function setupLinkOf(startLog: readonly string[]): { url: URL; token: string; message: string } {
  const line = startLog.map((l) => JSON.parse(l) as { msg: string; url?: string }).find((l) => l.url?.includes('/setup?token='));
  if (!line) throw new Error(`no setup link in the start log:\n${startLog.join('\n')}`);
  const url = new URL(line.url!);
  return { url, token: url.searchParams.get('token')!, message: line.msg };
}

const admin = (token: string, email = 'operator@example.com') => ({ token, email, password: 'correct horse battery', displayName: 'Operator' });

describe.each(DATABASE_KINDS)('first run and self-hosting (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database, env: { DEFAULT_PLAN: 'starter' } });
  });
  afterAll(() => stack.close());

  it("prints the console's address and a one-time setup link; the link makes the admin, once", async () => {
    const lines = stack.startLog.map((l) => JSON.parse(l) as { msg: string });
    expect(lines.map((l) => l.msg)).toContain(`Console: ${stack.listening.url}/`);
    const link = setupLinkOf(stack.startLog);
    expect(link.url.origin + link.url.pathname).toBe(`${stack.listening.url}/setup`);
    expect(link.message).toMatch(/^Set up this platform: open http:\/\/\S+\/setup\?token=\S+ to create its admin account\. The link works once/);
    expect(link.token).toMatch(/^[\w-]{43}$/);

    // An ordinary sign-up is no admin.
    const ordinary = await registerUser(stack.client);
    expect(ordinary.user.role).toBe('developer');

    const wrong = await stack.client.post('/api/auth/setup', admin('x'.repeat(43)));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: [expect.objectContaining({ path: 'token' })] });
    expect((await stack.client.post('/api/auth/setup', { ...admin(link.token), password: 'short' })).status).toBe(400);
    // A taken e-mail is a 409 that leaves the link usable.
    expect((await stack.client.post('/api/auth/setup', admin(link.token, ordinary.user.email))).status).toBe(409);

    // Two at once with the same link: one admin.
    const [a, b] = await Promise.all([
      stack.client.post('/api/auth/setup', admin(link.token, 'first@example.com')),
      stack.client.post('/api/auth/setup', admin(link.token, 'second@example.com')),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 400]);
    const made = a.status === 201 ? a : b;
    expect(made.body.user).toMatchObject({ role: 'admin' });
    expect(made.body.access_token).toEqual(expect.any(String));
    expect((await stack.client.get('/api/auth/me', { token: made.body.access_token })).body).toMatchObject({ role: 'admin' });

    // Used: refused ever after, and the next start prints no link.
    const again = await stack.client.post('/api/auth/setup', admin(link.token, 'third@example.com'));
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/no longer works/);
    expect(await resolve(stack.core.container, IssueSetupLinkUseCase).execute()).toBeNull();
  });

  it('holds the admin to no plan limit, and an ordinary account to DEFAULT_PLAN with a true message', async () => {
    const login = await stack.client.post('/api/auth/login', { email: (await adminEmail()) ?? '', password: 'correct horse battery' });
    const token = login.body.access_token as string;
    for (let i = 0; i < 12; i++) expect((await stack.client.post('/api/applications', { name: `Admin app ${i}` }, { token })).status).toBe(201);
    const appId = (await stack.client.get('/api/applications', { token })).body[0].id;
    for (let i = 0; i < 12; i++) expect((await stack.client.post('/api/api-keys', { name: `Key ${i}`, applicationId: appId }, { token })).status).toBe(201);
    const usage = (await stack.client.get('/api/billing/usage', { token })).body;
    expect(usage).toMatchObject({ plan: 'starter', exempt: true, payments: false, platformKeys: true });
    expect(usage.limits).toEqual({ includedTokens: null, applications: null, messagesPerMonth: null, apiKeys: null });

    const user = await registerUser(stack.client);
    const mine = (await stack.client.get('/api/billing/usage', { token: user.access_token })).body;
    expect(mine).toMatchObject({ plan: 'starter', effectivePlan: 'starter', exempt: false, payments: false, limits: { applications: 10, apiKeys: 10 } });
    for (let i = 0; i < 10; i++) expect((await stack.client.post('/api/applications', { name: `App ${i}` }, { token: user.access_token })).status).toBe(201);
    const refused = await stack.client.post('/api/applications', { name: 'One too many' }, { token: user.access_token });
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe(
      "The Starter plan allows 10 applications, and all are in use. To create another application, ask the platform's administrator to raise your plan.",
    );
  });

  it('mails people the console’s absolute page, in plain words', async () => {
    const user = await registerUser(stack.client);
    expect((await stack.client.post('/api/auth/password-reset/request', { email: user.user.email })).status).toBe(202);
    const team = (await stack.client.post('/api/teams', { name: 'Harbour' }, { token: user.access_token })).body;
    expect((await stack.client.post(`/api/teams/${team.id}/invitations`, { email: 'guest@example.com' }, { token: user.access_token })).status).toBe(201);
    const reset = outbox(stack).find((m) => m.to === user.user.email && m.subject === 'Reset your password')!;
    const invitation = outbox(stack).find((m) => m.to === 'guest@example.com')!;
    expect(reset.text).toContain(`\n${stack.listening.url}/reset-password\n`);
    expect(invitation.text).toMatch(new RegExp(`\\n${stack.listening.url.replace(/[.]/g, '\\.')}/teams/accept\\?token=[\\w-]{43}\\n`));
    for (const mail of [reset, invitation]) {
      // The token is random text (it may hold capitals and underscores), in the link and on its own line: the words around it are read.
      expect(mail.text.replace(/[\w-]{43}/g, '')).not.toMatch(/\/api\/|POST|PUT|\{"token"|[A-Z]{3,}_[A-Z]+/);
    }
  });

  async function adminEmail(): Promise<string | undefined> {
    const rows = await stack.infra.dataSource.query(`SELECT email FROM users WHERE role = 'admin'`);
    return (rows as { email: string }[])[0]?.email;
  }
});

describe('the setup link before it is used', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  it('is replaced at the next start (the earlier link stops working) and expires', async () => {
    const first = setupLinkOf(stack.startLog).token;
    const next = await resolve(stack.core.container, IssueSetupLinkUseCase).execute();
    expect(next).toMatchObject({ token: expect.stringMatching(/^[\w-]{43}$/), expiresAt: expect.any(Date) });
    expect(next!.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect((await stack.client.post('/api/auth/setup', admin(first))).status).toBe(400);
    await stack.infra.dataSource.query(`UPDATE platform_setup SET expires_at = now() - interval '1 second'`);
    expect((await stack.client.post('/api/auth/setup', admin(next!.token))).status).toBe(400);
    await stack.infra.dataSource.query(`UPDATE platform_setup SET expires_at = now() + interval '1 hour'`);
    expect((await stack.client.post('/api/auth/setup', admin(next!.token))).status).toBe(201);
  });

  it('is not printed when an ADMIN_EMAILS account exists', async () => {
    await registerUser(stack.client, { email: 'admin@platform.test' });
    await stack.infra.dataSource.query(`DELETE FROM users WHERE role = 'admin'`);
    expect(await resolve(stack.core.container, IssueSetupLinkUseCase).execute()).toBeNull();
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

describe('core API: password reset', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  const outbox = () => {
    const dir = join(stack.config.dataDir, 'outbox');
    try {
      return readdirSync(dir).sort().map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { to: string; text: string });
    } catch {
      return [];
    }
  };
  const tokenFrom = (text: string) => /^([A-Za-z0-9_-]{43})$/m.exec(text)![1]!;

  it('answers the same whether or not the account exists, and mails only real accounts', async () => {
    const user = await registerUser(stack.client);
    const before = outbox().length;
    const known = await stack.client.post('/api/auth/password-reset/request', { email: user.email });
    const unknown = await stack.client.post('/api/auth/password-reset/request', { email: 'ghost@example.com' });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body).toEqual(unknown.body);
    const mails = outbox();
    expect(mails).toHaveLength(before + 1);
    expect(mails.at(-1)!.to).toBe(user.email);
  });

  it('resets the password with the mailed token once, and signs out every session', async () => {
    const user = await registerUser(stack.client);
    await stack.client.post('/api/auth/password-reset/request', { email: user.email });
    const token = tokenFrom(outbox().filter((m) => m.to === user.email).at(-1)!.text);
    const res = await stack.client.post('/api/auth/password-reset/confirm', { token, password: 'a fresh password' });
    expect(res.status).toBe(200);
    expect((await stack.client.post('/api/auth/login', { email: user.email, password: 'a fresh password' })).status).toBe(200);
    expect((await stack.client.post('/api/auth/refresh', { refresh_token: user.refresh_token })).status).toBe(401);
    const again = await stack.client.post('/api/auth/password-reset/confirm', { token, password: 'another password' });
    expect(again.status).toBe(400);
  });

  it('refuses an unknown token and a short password', async () => {
    expect((await stack.client.post('/api/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'long enough pw' })).status).toBe(400);
    expect((await stack.client.post('/api/auth/password-reset/confirm', { token: 'x'.repeat(43), password: 'short' })).status).toBe(400);
  });
});

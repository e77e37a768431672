import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

describe('core API: /api/users/me', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  it('reads and updates the display name', async () => {
    const user = await registerUser(stack.client);
    const res = await stack.client.put('/api/users/me', { displayName: 'New Name' }, { token: user.access_token });
    expect(res.status).toBe(200);
    expect(res.body.displayName).toBe('New Name');
    expect((await stack.client.get('/api/users/me', { token: user.access_token })).body.displayName).toBe('New Name');
  });

  it.each(['role', 'email', 'password'])('refuses to write %s with 400 and leaves it unchanged', async (field) => {
    const user = await registerUser(stack.client);
    const res = await stack.client.put('/api/users/me', { [field]: field === 'role' ? 'admin' : 'x@example.com' }, { token: user.access_token });
    expect(res.status).toBe(400);
    const me = await stack.client.get('/api/users/me', { token: user.access_token });
    expect(me.body.role).toBe('developer');
    expect(me.body.email).toBe(user.email);
  });

  it('deletes the account and all it owns only with the current password', async () => {
    const user = await registerUser(stack.client);
    const app = await stack.client.post('/api/applications', { name: 'Doomed' }, { token: user.access_token });
    expect(app.status).toBe(201);
    expect((await stack.client.delete('/api/users/me', { token: user.access_token, body: { password: 'wrong password' } })).status).toBe(400);
    expect((await stack.client.delete('/api/users/me', { token: user.access_token, body: { password: user.password } })).status).toBe(204);
    expect((await stack.client.get('/api/users/me', { token: user.access_token })).status).toBe(401);
    expect((await stack.client.post('/api/auth/login', { email: user.email, password: user.password })).status).toBe(401);
    const left = await stack.infra.dataSource.query('SELECT count(*)::int AS n FROM applications WHERE id = $1', [app.body.id]);
    expect(left[0].n).toBe(0);
  });

  it('never returns a password hash in any response body', async () => {
    const user = await registerUser(stack.client);
    const bodies = [
      (await stack.client.get('/api/users/me', { token: user.access_token })).text,
      (await stack.client.get('/api/auth/me', { token: user.access_token })).text,
      (await stack.client.post('/api/auth/login', { email: user.email, password: user.password })).text,
      (await stack.client.put('/api/users/me', { displayName: 'Z' }, { token: user.access_token })).text,
    ];
    for (const body of bodies) {
      expect(body).not.toMatch(/argon2|passwordHash|password_hash/);
      expect(body).not.toContain(user.password);
    }
  });
});

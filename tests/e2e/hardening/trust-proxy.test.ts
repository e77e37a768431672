import { startCoreApi, type TestStack } from '../../support/test-stack';

/** TRUST_PROXY comes from the validated configuration: on, the client address is X-Forwarded-For's. */
describe.each([
  ['on', true],
  ['off', false],
] as const)('TRUST_PROXY=%s', (setting, trusted) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ env: { TRUST_PROXY: setting, AUTH_RATE_LIMIT_PER_MINUTE: '2' } });
  });
  afterAll(() => stack.close());

  const login = (address: string) =>
    stack.client.post('/api/auth/login', { email: 'nobody@example.com', password: 'wrong password' }, { headers: { 'X-Forwarded-For': address } });

  it(trusted ? 'limits each forwarded client address on its own' : 'ignores X-Forwarded-For: one address, one limit', async () => {
    expect((await login('203.0.113.1')).status).toBe(401);
    expect((await login('203.0.113.1')).status).toBe(401);
    expect((await login('203.0.113.1')).status).toBe(429);
    // Another forwarded address: its own budget only when the proxy is trusted.
    expect((await login('203.0.113.2')).status).toBe(trusted ? 401 : 429);
  });
});

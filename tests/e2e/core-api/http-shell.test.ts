import { registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

describe('core API: the HTTP shell', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  it('answers unknown routes with the error body', async () => {
    const res = await stack.client.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'Cannot GET /api/nothing-here', error: 'Not Found' });
  });

  it('answers a wrong method with 405 in the error body', async () => {
    const res = await stack.client.request('PATCH', '/api/auth/login');
    expect(res.status).toBe(405);
    expect(res.body.error).toBe('Method Not Allowed');
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const res = await stack.client.request('POST', '/api/auth/login', { rawBody: '{"email": ', headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ statusCode: 400, message: 'Request body is not valid JSON', error: 'Bad Request' });
  });

  it('answers an oversized body with 413', async () => {
    const res = await stack.client.request('POST', '/api/auth/register', {
      rawBody: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024), displayName: 'A' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('Payload Too Large');
  });

  it('answers a non-JSON body with 415', async () => {
    const res = await stack.client.request('POST', '/api/auth/login', { rawBody: 'email=a', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
  });

  it('answers a JSON array or scalar body with 400', async () => {
    const { access_token: token } = await registerUser(stack.client);
    const res = await stack.client.request('POST', '/api/applications', { rawBody: '[1,2]', token, headers: { 'Content-Type': 'application/json' } });
    expect(res.status).toBe(400);
  });

  it('gives every response a request id, keeping a well-formed incoming one', async () => {
    const res = await stack.client.get('/api/health', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    expect((await stack.client.get('/api/health')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health with status, the database check, version and uptime', async () => {
    const res = await stack.client.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'healthy', service: 'core-api', version: expect.any(String), uptimeSeconds: expect.any(Number), checks: { database: { status: 'up' } } });
  });

  it('serves the OpenAPI document and Swagger UI', async () => {
    const doc = await stack.client.get('/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const ui = await stack.client.get('/api/docs');
    expect(ui.text).toContain('swagger-ui-bundle.js');
    expect((await stack.client.get('/api/docs/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('serves the icon browsers ask for, not a 404', async () => {
    const icon = await fetch(`${stack.client.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    // An ICO file: reserved 0, type 1 (icon), one image.
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
  });
});

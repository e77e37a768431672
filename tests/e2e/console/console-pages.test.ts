import { ensureConsoleBuilt } from '../../console/support/console-stack';
import { startCoreApi, type TestStack } from '../../support/test-stack';

/** The core API serves the built console at `/` without taking any path from the API. */
describe('the console served by the core API', () => {
  let stack: TestStack;
  beforeAll(async () => {
    ensureConsoleBuilt();
    stack = await startCoreApi();
  });
  afterAll(() => stack?.close());

  it.each(['/', '/applications', '/applications/some/deep/screen', '/sign-in?next=%2Fapplications'])('serves the console page at %s with the strict CSP', async (path) => {
    const res = await stack.client.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<div id="root"></div>');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('has no inline script or style in the page', async () => {
    const res = await stack.client.get('/');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/<style|style=/);
  });

  it('serves the hashed assets as long-lived and immutable; a missing asset is a 404, not the page', async () => {
    const page = await stack.client.get('/');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.text)![1]!;
    const res = await stack.client.get(script);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const missing = await stack.client.get('/assets/nope-123.js');
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('id="root"');
  });

  it('keeps every API path a JSON answer: unknown API paths are JSON 404s', async () => {
    for (const path of ['/api/no-such-thing', '/api', '/public/nothing', '/metrics']) {
      const res = await stack.client.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
    expect((await stack.client.get('/api/health')).body).toMatchObject({ status: expect.any(String) });
    expect((await stack.client.get('/chat/no-such-app')).text).not.toContain('id="root"');
  });

  it('answers only GET and HEAD; other methods on console paths stay JSON', async () => {
    expect((await stack.client.request('HEAD', '/applications')).status).toBe(200);
    const post = await stack.client.post('/applications', {});
    expect(post.status).toBe(404);
    expect(post.body).toMatchObject({ statusCode: 404 });
  });

  it('never reads outside the build (encoded dot segments)', async () => {
    for (const path of ['/%2e%2e/%2e%2e/package.json', '/..%2f..%2fpackage.json', '/assets/..%2f..%2f..%2fpackage.json']) {
      const res = await stack.client.get(path);
      expect(res.text).not.toContain('"name": "ai-app-platform"');
    }
  });
});

import { paidUserWithApplication, registerUser, startCoreApi, type TestStack } from '../../support/test-stack';

async function streamed(stack: TestStack, slug: string, body: object, token?: string) {
  const res = await fetch(`${stack.listening.url}/api/hosted/${slug}/chat/stream`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Conversation-Token': token } : {}) },
    body: JSON.stringify(body),
  });
  return { res, text: await res.text() };
}

describe('the hosted chat page', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, engine: 'in-process' });
    stack.emulator!.behaviour.reply = 'Harbour opens at nine.';
  });
  afterAll(() => stack.close());

  it('is off by default: 404 page, and the page API answers 404', async () => {
    const owner = await paidUserWithApplication(stack);
    const page = await stack.client.get(`/chat/${owner.app.slug}`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('Chat not found');
    expect((await stack.client.get(`/api/hosted/${owner.app.slug}/app`)).status).toBe(404);
    expect((await streamed(stack, owner.app.slug, { message: 'Hi' })).res.status).toBe(404);
    expect((await stack.client.get('/chat/no-such-app-here')).status).toBe(404);
    expect((await stack.client.get('/chat/%3Cscript%3E')).status).toBe(404);
  });

  it('serves the themed page with a strict Content-Security-Policy once enabled', async () => {
    const owner = await paidUserWithApplication(stack, 'pro', { name: 'Harbour <Help>' });
    const enabled = await stack.client.put(`/api/applications/${owner.app.id}`, { hostedPage: { enabled: true } }, { token: owner.token });
    expect(enabled.body.hostedPage).toEqual({ enabled: true });
    const page = await stack.client.get(`/chat/${owner.app.slug}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(page.text).toContain(`<style nonce="${nonce}">`);
    expect(page.text).toContain('<title>Harbour &lt;Help&gt;</title>');
    expect(page.text).toContain(`<link rel="stylesheet" href="/api/applications/${owner.app.id}/theme.css">`);
    expect(page.text).toContain(`data-mode="page" data-slug="${owner.app.slug}"`);
    const app = await stack.client.get(`/api/hosted/${owner.app.slug}/app`);
    expect(app.body).toMatchObject({ id: owner.app.id, theme: { variables: expect.any(Object) }, branding: { showAttribution: true } });
  });

  it('chats without a key; a conversation continues and reads back only with its token', async () => {
    const owner = await paidUserWithApplication(stack);
    await stack.client.put(`/api/applications/${owner.app.id}`, { hostedPage: { enabled: true } }, { token: owner.token });
    const first = await streamed(stack, owner.app.slug, { message: 'When do you open?' });
    expect(first.res.status).toBe(200);
    expect(first.text).toContain('Harbour opens at nine.');
    const conversationId = first.res.headers.get('x-conversation-id')!;
    const token = first.res.headers.get('x-conversation-token')!;
    expect(token).toBeTruthy();
    expect((await streamed(stack, owner.app.slug, { message: 'And close?', conversationId })).res.status).toBe(404);
    expect((await streamed(stack, owner.app.slug, { message: 'And close?', conversationId }, 'forged')).res.status).toBe(404);
    expect((await streamed(stack, owner.app.slug, { message: 'And close?', conversationId }, token)).res.status).toBe(200);
    const history = await stack.client.get(`/api/hosted/${owner.app.slug}/conversations/${conversationId}`, { headers: { 'X-Conversation-Token': token } });
    expect(history.status).toBe(200);
    expect(history.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect((await stack.client.get(`/api/hosted/${owner.app.slug}/conversations/${conversationId}`)).status).toBe(404);
    expect((await streamed(stack, owner.app.slug, { message: '' })).res.status).toBe(400);
    // The owner sees the visitor's conversation as widget traffic.
    const other = await registerUser(stack.client);
    expect((await stack.client.get(`/api/conversations/${conversationId}`, { token: other.access_token })).status).toBe(404);
  });
});

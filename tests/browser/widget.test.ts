import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser';
import { HostPageServer, embedTag, hostPage } from './support/host-page-server';
import { StandInPublicApi, WIDGET_FILE, gate, type StandInApp } from './support/stand-in-public-api';
import { WidgetPage, computed } from './support/widget-page';

const SUPPORT: StandInApp = { id: '6f1d2c3b-1a2b-4c5d-8e9f-0a1b2c3d4e5f', apiKey: 'pk_support_key', name: 'Acme Support' };
const BILLING: StandInApp = {
  id: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
  apiKey: 'pk_billing_key',
  name: 'Billing Desk',
  colors: { primary: '#0a7d4f', background: '#fffbea' },
};
const OUTPUT_DIR = join(__dirname, '../../test-output');

describe('public/widget.js', () => {
  it('stays under 15 KB gzipped', () => {
    expect(gzipSync(readFileSync(WIDGET_FILE)).length).toBeLessThan(15 * 1024);
  });
});

describeInBrowser('the embeddable chat widget', () => {
  let browser: Browser;
  let pages: HostPageServer;
  let api: StandInPublicApi;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let dialogs: string[];

  beforeAll(async () => {
    browser = await launchChromium();
    pages = await HostPageServer.start();
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
  });
  beforeEach(async () => {
    api = await StandInPublicApi.start([SUPPORT, BILLING]);
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    page = await context.newPage();
    pageErrors = [];
    dialogs = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  afterEach(async () => {
    await context.close();
    await api.close();
    expect(pageErrors).toEqual([]);
    expect(dialogs).toEqual([]);
  });

  function embed(app: StandInApp, attributes: Record<string, string> = {}): string {
    return embedTag(api.url, { 'app-id': app.id, 'api-key': app.apiKey, ...attributes });
  }

  async function visit(html: string, title = SUPPORT.name): Promise<WidgetPage> {
    await page.goto(pages.publish(`/page-${Date.now()}-${Math.random().toString(36).slice(2)}.html`, html));
    const widget = new WidgetPage(page, title);
    await widget.launcher.waitFor();
    return widget;
  }

  it.each(['bottom-right', 'bottom-left', 'top-right', 'top-left'])('puts the launcher and the panel in the %s corner', async (position) => {
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT, { position })] }));
    const launcher = (await widget.launcher.boundingBox())!;
    const [vertical, horizontal] = position.split('-');
    expect(horizontal === 'right' ? 1024 - (launcher.x + launcher.width) : launcher.x).toBeLessThanOrEqual(32);
    expect(vertical === 'bottom' ? 768 - (launcher.y + launcher.height) : launcher.y).toBeLessThanOrEqual(32);

    await widget.open();
    const panel = (await widget.dialog.boundingBox())!;
    expect(panel.x).toBeGreaterThanOrEqual(0);
    expect(panel.y).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width).toBeLessThanOrEqual(1024);
    expect(panel.y + panel.height).toBeLessThanOrEqual(768);
    if (vertical === 'bottom') expect(panel.y + panel.height).toBeLessThanOrEqual(launcher.y);
    else expect(panel.y).toBeGreaterThanOrEqual(launcher.y + launcher.height);
  });

  it('streams the answer chunk by chunk and keeps sending disabled until it is done', async () => {
    const rest = gate();
    api.replyWith({ chunks: ['Hello! ', 'Here is **what** I ', 'found:\n\n- first\n- sec', 'ond — café ☕'], holdAfterFirstChunk: rest.opened });
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT, { greeting: 'Hi! How can we help?', placeholder: 'Ask us anything' })] }));
    await widget.open();
    expect(await widget.focused()).toBe('textarea');
    expect(await widget.input.getAttribute('placeholder')).toBe('Ask us anything');
    await widget.log.getByText('Hi! How can we help?').waitFor();

    await widget.send('What can you do?');
    await widget.questions().getByText('What can you do?').waitFor();
    await widget.answers().getByText('Hello!').waitFor();
    expect(await widget.answers().last().textContent()).toBe('Hello! ');
    expect(await widget.sendButton.isDisabled()).toBe(true);
    expect(await widget.log.getAttribute('aria-busy')).toBe('true');
    await widget.input.fill('Impatient second question');
    await widget.input.press('Enter');
    expect(api.chatRequests()).toHaveLength(1);

    rest.open();
    await widget.answered();
    const answer = widget.answers().last();
    expect(await answer.textContent()).toBe('Hello! Here is what I found:firstsecond — café ☕');
    expect(await answer.locator('strong').textContent()).toBe('what');
    expect(await answer.locator('ul > li').allTextContents()).toEqual(['first', 'second — café ☕']);
    expect(await widget.sendButton.isEnabled()).toBe(true);
    expect(api.chatRequests()[0]).toMatchObject({
      apiKey: SUPPORT.apiKey,
      body: { message: 'What can you do?', applicationId: SUPPORT.id },
    });
    expect(api.chatRequests()[0].body).not.toHaveProperty('conversationId');

    await widget.input.fill('');
    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'widget.png') });

    await widget.sendAndWait('And in French?');
    const [conversationId] = api.conversations.keys();
    expect(api.chatRequests()[1].body).toEqual({ message: 'And in French?', applicationId: SUPPORT.id, conversationId });
  });

  it('renders Markdown with DOM nodes and opens only http(s) links, in a new tab without an opener', async () => {
    api.replyWith({ chunks: ['Use `npm test`:\n\n```sh\nnpm test -- --watch\n```\n\n1. *fast*\n2. see [the docs](https://example.com/docs?a=1&b=2)'] });
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('How do I test?');
    const answer = widget.answers().last();
    expect(await answer.locator('p > code').textContent()).toBe('npm test');
    expect(await answer.locator('pre > code').textContent()).toBe('npm test -- --watch');
    expect(await answer.locator('ol > li em').textContent()).toBe('fast');
    const link = answer.getByRole('link', { name: 'the docs' });
    expect(await link.getAttribute('href')).toBe('https://example.com/docs?a=1&b=2');
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows a malicious answer as inert text: no element, handler or script of its own runs', async () => {
    const attack = [
      '<img src=x onerror="window.__pwned = 1; alert(1)">',
      '<script>window.__pwned = 2; alert(2)</script>',
      '[click me](javascript:window.__pwned=3) and [data](data:text/html,<b>x</b>)',
      '<a href="javascript:alert(4)">raw link</a> **<svg onload=alert(5)>**',
    ].join('\n\n');
    api.replyWith({ chunks: [attack.slice(0, 30), attack.slice(30, 90), attack.slice(90)] });
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('Tell me something nasty');

    const answer = widget.answers().last();
    expect(await answer.textContent()).toContain('<img src=x onerror="window.__pwned = 1; alert(1)">');
    expect(await answer.textContent()).toContain('<script>window.__pwned = 2; alert(2)</script>');
    await answer.getByText('click me').click();
    expect(await answer.locator('img, script, svg, iframe, [onerror], [onload]').count()).toBe(0);
    expect(await answer.locator('a').count()).toBe(0);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(pages.requestedPaths).not.toContain('/x');
    expect(api.requests.map((r) => r.path)).not.toContain('/x');
  });

  it('keeps hostile host page CSS out: the widget looks the same', async () => {
    const hostile = `<style>
      * { color: red !important; font-size: 40px !important; font-family: serif !important; line-height: 3 !important;
          --pr: red !important; --bf: red !important; --bg: red !important; }
      html { font-size: 40px; }
      button { display: none !important; }
      div, textarea, p { display: none !important; border: 9px solid red !important; }
    </style>`;
    const widget = await visit(hostPage({ head: hostile, body: '<p id="page-text">page</p>', embeds: [embed(SUPPORT)] }));
    expect(await computed(page.locator('#page-text'), ['color'])).toEqual({ color: 'rgb(255, 0, 0)' });
    const launcher = (await widget.launcher.boundingBox())!;
    expect([launcher.width, launcher.height]).toEqual([56, 56]);
    expect(await computed(widget.launcher, ['display', 'background-color'])).toEqual({ display: 'grid', 'background-color': 'rgb(37, 99, 235)' });

    await widget.open();
    await widget.sendAndWait('Still readable?');
    expect(await widget.input.isVisible()).toBe(true);
    expect(await widget.sendButton.isVisible()).toBe(true);
    const answer = await computed(widget.answers().last(), ['color', 'font-size', 'font-family', 'line-height', 'background-color']);
    expect(answer).toMatchObject({ color: 'rgb(31, 41, 55)', 'font-size': '14px', 'background-color': 'rgb(243, 244, 246)' });
    expect(answer['font-family']).not.toBe('serif');
    expect(await computed(widget.input, ['font-size', 'color'])).toEqual({ 'font-size': '14px', color: 'rgb(31, 41, 55)' });
    expect(await computed(widget.dialog, ['background-color'])).toEqual({ 'background-color': 'rgb(255, 255, 255)' });
  });

  it('keeps its own CSS in: host page elements look the same with and without the widget', async () => {
    const body = '<button id="page-button">Buy</button><p id="page-text">Hello <a href="#x">link</a></p><textarea id="page-input"></textarea>';
    const properties = ['color', 'font-family', 'font-size', 'line-height', 'display', 'box-sizing', 'outline-style', 'background-color', 'border-radius', 'margin-top', 'padding-top', 'width'];
    const snapshot = async () => {
      const result: Record<string, Record<string, string>> = {};
      for (const selector of ['body', '#page-button', '#page-text', '#page-text a', '#page-input']) result[selector] = await computed(page.locator(selector), properties);
      return result;
    };
    await page.goto(pages.publish('/plain.html', hostPage({ body, embeds: [] })));
    const without = await snapshot();

    const widget = await visit(hostPage({ body, embeds: [embed(SUPPORT)] }));
    await widget.open();
    expect(await snapshot()).toEqual(without);
  });

  it('restores the conversation after a reload in the same tab, refreshed from the server', async () => {
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('Remember me');
    const [conversationId] = api.conversations.keys();
    const stored = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null'), `ai-chat-widget:${SUPPORT.id}`);
    expect(stored.conversationId).toBe(conversationId);
    expect(stored.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);

    api.conversations.get(conversationId)!.messages.push({ id: 'm-9', role: 'assistant', content: 'A follow-up from the team', createdAt: new Date().toISOString() });
    await page.reload();
    await widget.open();
    await widget.log.getByText('A follow-up from the team').waitFor();
    expect(await widget.questions().allTextContents()).toEqual(['Remember me']);
    expect(api.requests.some((r) => r.path === `/api/v1/conversations/${conversationId}` && r.apiKey === SUPPORT.apiKey)).toBe(true);

    await widget.sendAndWait('Next question');
    expect(api.chatRequests()[1].body.conversationId).toBe(conversationId);
  });

  it('restores the conversation from sessionStorage alone when the server cannot be read', async () => {
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('Offline later');
    api.failConversationReads(503);
    await page.reload();
    await widget.open();
    await widget.questions().getByText('Offline later').waitFor();
    expect(await widget.answers().last().textContent()).toContain('café ☕');
    expect(await widget.errors().count()).toBe(0);
  });

  it('works from the keyboard: Tab to the launcher, Enter opens, Shift+Enter adds a line, Escape closes', async () => {
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await page.keyboard.press('Tab');
    expect(await widget.focused()).toBe(`button:Chat with ${SUPPORT.name}`);
    expect(await computed(widget.launcher, ['outline-style'])).toEqual({ 'outline-style': 'solid' });
    expect(await widget.launcher.getAttribute('aria-expanded')).toBe('false');

    await page.keyboard.press('Enter');
    await widget.dialog.waitFor();
    expect(await widget.launcher.getAttribute('aria-expanded')).toBe('true');
    expect(await widget.focused()).toBe('textarea');
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    expect(await widget.input.inputValue()).toBe('line one\nline two');
    expect(api.chatRequests()).toHaveLength(0);
    await page.keyboard.press('Enter');
    await widget.answered();
    expect(await widget.questions().last().textContent()).toBe('line one\nline two');

    await page.keyboard.press('Escape');
    await widget.dialog.waitFor({ state: 'hidden' });
    expect(await widget.launcher.getAttribute('aria-expanded')).toBe('false');
    expect(await widget.focused()).toBe(`button:Chat with ${SUPPORT.name}`);
  });

  it('answers a 429 with a polite message and gives the question back', async () => {
    api.replyWith({ status: 429, headers: { 'Retry-After': '7' }, body: JSON.stringify({ statusCode: 429, message: 'Rate limit exceeded', error: 'Too Many Requests' }) });
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('Are you there?');
    expect(await widget.errors().allTextContents()).toEqual(['Too many messages, try again in 7 s.']);
    expect(await widget.questions().count()).toBe(0);
    expect(await widget.input.inputValue()).toBe('Are you there?');
  });

  it('never shows raw HTML or a stack from a failing server', async () => {
    api.replyWith({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1><pre>Error: boom\n    at proxy (/srv/p.js:1:1)</pre></body></html>' });
    api.replyWith({ chunks: ['Partial ans'], failWith: 'Error: boom\n    at provider (/srv/llm.js:10:3)' });
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('First');
    expect(await widget.errors().allTextContents()).toEqual(['The chat service is having trouble right now. Please try again later.']);
    await widget.sendAndWait('Second');
    expect(await widget.answers().last().textContent()).toBe('Partial ans');
    expect(await widget.errors().allTextContents()).toEqual(['The answer could not be completed. Please try again.']);
  });

  it("tells the visitor the site owner's provider key was refused (424), without the key's hint or the API route", async () => {
    const refusal = 'provider_a (OpenAI) rejected the API key ending in "WXYZ": check it, or save a working provider_a (OpenAI) key, under Provider keys';
    api.replyWith({ status: 424, body: JSON.stringify({ statusCode: 424, message: refusal, error: 'Failed Dependency' }) });
    const widget = await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    await widget.open();
    await widget.sendAndWait('Hello?');
    expect(await widget.errors().allTextContents()).toEqual([
      'This chat cannot answer right now: its AI provider refused the key it was set up with. Please let the site owner know.',
    ]);
    expect(await widget.log.textContent()).not.toContain('WXYZ');
  });

  it('tells the visitor the chat is misconfigured when the API key is refused', async () => {
    const widget = await visit(hostPage({ embeds: [embedTag(api.url, { 'app-id': SUPPORT.id, 'api-key': 'pk_revoked', title: 'Help' })] }), 'Help');
    await widget.open();
    await widget.errors().first().waitFor();
    expect(await widget.errors().first().textContent()).toMatch(/not set up correctly/);
  });

  it('applies dark, auto and the application colours', async () => {
    let widget = await visit(hostPage({ embeds: [embed(SUPPORT, { theme: 'dark' })] }));
    await widget.open();
    expect(await computed(widget.dialog, ['background-color', 'color'])).toEqual({ 'background-color': 'rgb(17, 24, 39)', color: 'rgb(243, 244, 246)' });

    await page.emulateMedia({ colorScheme: 'dark' });
    widget = await visit(hostPage({ embeds: [embed(SUPPORT, { theme: 'auto' })] }));
    await widget.open();
    expect(await computed(widget.dialog, ['background-color'])).toEqual({ 'background-color': 'rgb(17, 24, 39)' });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await computed(widget.dialog, ['background-color'])).toEqual({ 'background-color': 'rgb(255, 255, 255)' });

    widget = await visit(hostPage({ embeds: [embed(BILLING)] }), BILLING.name);
    await page.waitForFunction(() => getComputedStyle(document.querySelector('ai-chat-widget')!.shadowRoot!.querySelector('button')!).backgroundColor === 'rgb(10, 125, 79)');
    expect(await computed(widget.launcher, ['color'])).toEqual({ color: 'rgb(255, 255, 255)' });
    await widget.open();
    expect(await computed(widget.dialog, ['background-color'])).toEqual({ 'background-color': 'rgb(255, 251, 234)' });
  });

  it('reports its load once, for its application, with its key', async () => {
    await visit(hostPage({ embeds: [embed(SUPPORT)] }));
    const loads = () => api.requests.filter((r) => r.path === '/api/v1/widget/loaded');
    const until = Date.now() + 5000;
    while (loads().length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(loads()).toEqual([expect.objectContaining({ method: 'POST', apiKey: SUPPORT.apiKey, body: { applicationId: SUPPORT.id } })]);
  });

  it('runs several widgets on one page without clashing', async () => {
    const support = await visit(hostPage({ embeds: [embed(SUPPORT, { position: 'bottom-right' }), embed(BILLING, { position: 'bottom-left' })] }));
    const billing = new WidgetPage(page, BILLING.name);
    await billing.launcher.waitFor();
    await support.open();
    await billing.open();
    await billing.sendAndWait('Where is my invoice?');
    expect(api.chatRequests()).toEqual([expect.objectContaining({ apiKey: BILLING.apiKey, body: { message: 'Where is my invoice?', applicationId: BILLING.id } })]);
    expect(await support.questions().count()).toBe(0);
    expect(await page.evaluate(() => Object.keys(sessionStorage).sort())).toEqual([`ai-chat-widget:${BILLING.id}`]);
  });

  it('waits for the body when pasted without async in the head', async () => {
    const tag = embed(SUPPORT, { title: 'Head Help' }).replace(' async>', '>');
    const widget = await visit(hostPage({ head: tag, embeds: [] }), 'Head Help');
    await widget.open();
    expect(await page.locator('body > ai-chat-widget').count()).toBe(1);
  });

  it('finds its own script tag when document.currentScript is not available', async () => {
    // Module scripts have no currentScript: the widget falls back to the tag whose src ends in /public/widget.js.
    const tag = embed(SUPPORT, { title: 'Module Help' }).replace('<script ', '<script type="module" ');
    const widget = await visit(hostPage({ embeds: [tag] }), 'Module Help');
    await widget.open();
    await widget.sendAndWait('Hello from a module');
    expect(api.chatRequests()[0].body.applicationId).toBe(SUPPORT.id);
  });
});

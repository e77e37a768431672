import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PLATFORM_KEYS, startCoreApi, type TestStack } from '../support/test-stack';
import { anOwnerWithKey } from '../e2e/public-api/public-api-support';
import { settled, uploadDocument } from '../e2e/core-api/knowledge/knowledge-documents';
import { describeInBrowser, launchChromium } from './support/browser';
import { HostPageServer, embedTag, hostPage } from './support/host-page-server';
import { WidgetPage } from './support/widget-page';

const OUTPUT_DIR = join(__dirname, '../../test-output');
const ANSWER = 'The lighthouse keeper lights the lamp at dusk and watches the sea until dawn.';
const HOSTILE = '<img src=x onerror=alert(1)>';
const LAMP_RULES = 'The harbour lamp is lit thirty minutes before sunset and put out at sunrise, every day of the year.';

/** The real platform end to end: core API, AI service and provider emulator behind a widget on a customer's page. */
describeInBrowser('the widget on a customer site, against the real platform', () => {
  let stack: TestStack;
  let browser: Browser;
  let site: HostPageServer;
  let strangerSite: HostPageServer;
  let shop: Server;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    // The owner's endpoint an http tool calls, on loopback (allowed for this stack): its answer is hostile markup.
    shop = createServer((_req, res) => res.end(HOSTILE));
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    [stack, browser, site, strangerSite] = await Promise.all([
      startCoreApi({ providers: true, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } }),
      launchChromium(),
      HostPageServer.start(),
      HostPageServer.start(),
    ]);
    owner = await anOwnerWithKey(stack, { allowedOrigins: [site.url], appName: 'Harbour Help' });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await strangerSite?.close();
    await stack?.close();
    await new Promise((resolve) => shop?.close(resolve));
  });
  beforeEach(async () => {
    stack.emulator!.reset();
    stack.emulator!.behaviour.reply = ANSWER;
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    page = await context.newPage();
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  const embedOn = (host: HostPageServer, name: string) =>
    host.publish(`/${name}.html`, hostPage({
      body: '<h1>Harbour supplies</h1>',
      embeds: [embedTag(stack.listening.url, { 'app-id': owner.app.id, 'api-key': owner.key.key, greeting: 'Ahoy! Ask us anything.' })],
    }));

  it('shows the documents an answer drew on as citations, by name and excerpt, also after a reload', async () => {
    const withDocs = await anOwnerWithKey(stack, { allowedOrigins: [site.url], appName: 'Harbour Docs' });
    const upload = await uploadDocument(stack.client, withDocs.token, { applicationId: withDocs.app.id }, { name: 'lamp-rules.md', text: LAMP_RULES });
    expect((await settled(stack.client, withDocs.token, upload.body.id)).status).toBe('ready');
    await page.goto(site.publish('/docs.html', hostPage({ embeds: [embedTag(stack.listening.url, { 'app-id': withDocs.app.id, 'api-key': withDocs.key.key })] })));
    const widget = new WidgetPage(page, 'Harbour Docs');
    await widget.launcher.waitFor();
    await widget.open();
    await widget.sendAndWait('When is the harbour lamp lit?');
    const citations = widget.answers().last().getByRole('note', { name: 'Sources' });
    expect(await citations.locator('li b').allTextContents()).toEqual(['lamp-rules.md']);
    expect(await citations.locator('li q').allTextContents()).toEqual([LAMP_RULES]);
    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'platform-widget-citations.png') });

    await page.reload();
    const restored = new WidgetPage(page, 'Harbour Docs');
    await restored.launcher.waitFor();
    await restored.open();
    await restored.answers().getByRole('note', { name: 'Sources' }).getByText('lamp-rules.md').waitFor();
  });

  it('loads from the API, streams the answer from the provider, and restores the conversation after a reload', async () => {
    await page.goto(embedOn(site, 'contact'));
    // The launcher's name comes from GET /api/v1/app: the application's own name.
    const widget = new WidgetPage(page, 'Harbour Help');
    await widget.launcher.waitFor();
    await widget.open();
    await widget.log.getByText('Ahoy! Ask us anything.').waitFor();

    await widget.sendAndWait('Who lights the lamp?');
    expect(await widget.questions().last().textContent()).toBe('Who lights the lamp?');
    expect(await widget.answers().last().textContent()).toBe(ANSWER);
    expect(await widget.errors().count()).toBe(0);

    const chat = stack.emulator!.requests.filter((r) => r.provider === 'provider_a');
    expect(chat).toHaveLength(1);
    expect(chat[0]!.apiKey).toBe(PLATFORM_KEYS.provider_a);
    expect(chat[0]!.body.stream).toBe(true);
    const stored: { id: string; api_key_id: string }[] = await stack.infra.dataSource.query(
      `SELECT id, api_key_id FROM conversations WHERE application_id = $1`,
      [owner.app.id],
    );
    expect(stored).toEqual([{ id: expect.any(String), api_key_id: owner.key.id }]);

    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'platform-widget.png') });

    await page.reload();
    const restored = new WidgetPage(page, 'Harbour Help');
    await restored.launcher.waitFor();
    await restored.open();
    await restored.answers().getByText(ANSWER).waitFor();
    await restored.sendAndWait('And at dawn?');
    expect(await restored.answers().last().textContent()).toBe(ANSWER);
    const secondTurn = stack.emulator!.requests.filter((r) => r.provider === 'provider_a').at(-1)!;
    expect(JSON.stringify(secondTurn.body.messages)).toContain('Who lights the lamp?');
  });

  it('says, on a site the application does not list, that the site is not allowed and how to allow it', async () => {
    await page.goto(embedOn(strangerSite, 'copied'));
    // The browser refuses GET /api/v1/app (no CORS for this origin), so the widget keeps its generic title.
    const widget = new WidgetPage(page, 'Chat');
    await widget.launcher.waitFor();
    await widget.open();
    const notAllowed = `This chat is not enabled on ${strangerSite.url}. The site owner can enable it by adding ${strangerSite.url} to the application's allowed origins (allowedOrigins).`;
    // Said before the visitor types anything...
    await widget.errors().getByText(notAllowed).waitFor();
    // ...and again, instead of a network failure, when they send anyway.
    await widget.sendAndWait('Can I borrow your key?');
    expect(await widget.errors().allTextContents()).toEqual([notAllowed]);
    expect(await widget.log.textContent()).not.toMatch(/could not reach/i);
    expect(await widget.log.textContent()).not.toContain(ANSWER);
    expect(stack.emulator!.requests).toEqual([]);
    expect(await stack.infra.dataSource.query(`SELECT id FROM conversations WHERE title = 'Can I borrow your key?'`)).toEqual([]);
  });

  it('shows each tool call of an answer as a plain-text line with its state, and hostile names and output as text', async () => {
    stack.emulator!.behaviour.reply = undefined; // the emulated model answers with what the tools returned
    const withTool = await anOwnerWithKey(stack, { allowedOrigins: [site.url], appName: 'Harbour Orders' });
    const tool = await stack.client.post(`/api/applications/${withTool.app.id}/tools`, {
      name: 'order_status',
      description: 'Where an order is',
      parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      source: { type: 'http', method: 'GET', url: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/orders/{{args.order}}` },
      timeoutMs: 5000,
    }, { token: withTool.token });
    expect(tool.status).toBe(201);
    expect((await stack.client.put(`/api/applications/${withTool.app.id}/agent`, { enabledTools: ['order_status'] }, { token: withTool.token })).status).toBe(200);
    await page.goto(site.publish('/orders.html', hostPage({ embeds: [embedTag(stack.listening.url, { 'app-id': withTool.app.id, 'api-key': withTool.key.key })] })));
    const widget = new WidgetPage(page, 'Harbour Orders');
    await widget.launcher.waitFor();
    await widget.open();
    // The model calls the enabled tool, and one whose name is markup (refused: it is not enabled).
    await widget.sendAndWait(`Where is order 7? [[call order_status {"order":"7"}]] [[call ${HOSTILE.replace(/ /g, '/')} {}]]`);
    const lines = widget.answers().last().getByRole('list', { name: 'Tools used' }).getByRole('listitem');
    expect(await lines.allTextContents()).toEqual(['Used order_status — done', `Used ${HOSTILE.replace(/ /g, '/')} — failed`]);
    expect(await widget.answers().last().textContent()).toContain(`order_status returned: HTTP 200`);
    expect(await widget.answers().last().textContent()).toContain(HOSTILE);
    expect(await widget.log.locator('img').count()).toBe(0);
    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, 'platform-widget-tools.png') });

    // From the conversation's history after a reload (the stored transcript emptied, its conversation kept): the same lines.
    await page.evaluate(() => {
      for (const key of Object.keys(sessionStorage)) sessionStorage.setItem(key, JSON.stringify({ ...JSON.parse(sessionStorage.getItem(key)!), messages: [] }));
    });
    await page.reload();
    const restored = new WidgetPage(page, 'Harbour Orders');
    await restored.launcher.waitFor();
    await restored.open();
    await restored.answers().getByText('order_status returned').waitFor();
    expect(await restored.answers().last().getByRole('listitem').allTextContents()).toEqual(['Used order_status — done', `Used ${HOSTILE.replace(/ /g, '/')} — failed`]);
  });
});

import { mkdirSync } from 'node:fs';
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
const LAMP_RULES = 'The harbour lamp is lit thirty minutes before sunset and put out at sunrise, every day of the year.';

/** The real platform end to end: core API, AI service and provider emulator behind a widget on a customer's page. */
describeInBrowser('the widget on a customer site, against the real platform', () => {
  let stack: TestStack;
  let browser: Browser;
  let site: HostPageServer;
  let strangerSite: HostPageServer;
  let owner: Awaited<ReturnType<typeof anOwnerWithKey>>;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];

  beforeAll(async () => {
    [stack, browser, site, strangerSite] = await Promise.all([
      startCoreApi({ providers: true }),
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
});

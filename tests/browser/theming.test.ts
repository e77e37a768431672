import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { anOwnerWithKey } from '../e2e/public-api/public-api-support';
import { startCoreApi, type TestStack } from '../support/test-stack';
import { describeInBrowser, launchChromium } from './support/browser';
import { HostPageServer, embedTag, hostPage } from './support/host-page-server';
import { WidgetPage, computed } from './support/widget-page';

const OUTPUT_DIR = join(__dirname, '../../test-output');
const ANSWER = 'Our harbour office opens at nine and closes at five.';

/** The hosted page's chat is the page's main landmark, not a dialog. */
class HostedChat extends WidgetPage {
  override get dialog(): Locator {
    return this.page.getByRole('main', { name: this.title });
  }
}

/** Themes and branding as a visitor sees them, against the real platform and the provider emulator. */
describeInBrowser('theming, branding and the hosted chat page in Chromium', () => {
  let stack: TestStack;
  let browser: Browser;
  let site: HostPageServer;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let consoleErrors: string[];

  beforeAll(async () => {
    [stack, browser, site] = await Promise.all([startCoreApi({ providers: true }), launchChromium(), HostPageServer.start()]);
    mkdirSync(OUTPUT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await stack?.close();
  });
  beforeEach(async () => {
    stack.emulator!.reset();
    stack.emulator!.behaviour.reply = ANSWER;
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    page = await context.newPage();
    pageErrors = [];
    consoleErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
  });
  afterEach(async () => {
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  async function themedOwner(appName: string) {
    const owner = await anOwnerWithKey(stack, { allowedOrigins: [site.url], appName });
    const put = (path: string, body: object) => stack.client.put(path, body, { token: owner.token });
    expect((await stack.client.post(`/api/applications/${owner.app.id}/theme`, { themeId: 'dark' }, { token: owner.token })).status).toBe(200);
    expect((await put(`/api/applications/${owner.app.id}/theme/customize`, { colors: { primary: '#0a7d4f' } })).status).toBe(200);
    return { owner, put };
  }

  it('shows the Dark preset with a custom primary colour, and the branding, by computed style', async () => {
    const { owner, put } = await themedOwner('Night Harbour');
    expect((await put(`/api/branding/${owner.app.id}`, { widget: { borderRadius: '4px', welcomeMessage: 'Evening! Ask away.', placeholder: 'Your question' }, typography: { bodyFont: 'Georgia, serif' } })).status).toBe(200);
    await page.goto(site.publish('/dark.html', hostPage({ body: '<h1>Shop</h1>', embeds: [embedTag(stack.listening.url, { 'app-id': owner.app.id, 'api-key': owner.key.key })] })));
    const widget = new WidgetPage(page, 'Night Harbour');
    await widget.launcher.waitFor();
    await widget.open();
    await widget.log.getByText('Evening! Ask away.').waitFor();

    expect(await computed(widget.launcher, ['background-color'])).toEqual({ 'background-color': 'rgb(10, 125, 79)' });
    const panel = page.locator('ai-chat-widget .p');
    expect(await computed(panel, ['background-color', 'border-top-left-radius', 'font-family'])).toEqual({
      'background-color': 'rgb(17, 24, 39)',
      'border-top-left-radius': '4px',
      'font-family': 'Georgia, serif',
    });
    expect(await computed(widget.answers().first(), ['background-color', 'color'])).toEqual({ 'background-color': 'rgb(31, 41, 55)', color: 'rgb(243, 244, 246)' });
    expect(await widget.input.getAttribute('placeholder')).toBe('Your question');
    await expect(page.locator('ai-chat-widget .at').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(OUTPUT_DIR, 'theming-dark-widget.png') });
  });

  it("keeps the owner's custom CSS inside the widget: the host page is untouched", async () => {
    const { owner, put } = await themedOwner('Styled Harbour');
    const customCss = 'button { outline: 7px solid rgb(255, 0, 0) } body, h1 { background: rgb(255, 0, 0); color: rgb(255, 0, 0) } .s { background: rgb(1, 2, 3) }';
    expect((await put(`/api/branding/${owner.app.id}`, { customCss })).status).toBe(200);
    await page.goto(site.publish('/styled.html', hostPage({ body: '<h1 id="title">Shop</h1><button id="buy">Buy</button>', embeds: [embedTag(stack.listening.url, { 'app-id': owner.app.id, 'api-key': owner.key.key })] })));
    const widget = new WidgetPage(page, 'Styled Harbour');
    await widget.launcher.waitFor();
    await widget.open();
    // The custom CSS arrives with the application's config, after the widget has rendered.
    await page.waitForFunction(() => {
      const send = document.querySelector('ai-chat-widget')?.shadowRoot?.querySelector('.s');
      return !!send && getComputedStyle(send).backgroundColor === 'rgb(1, 2, 3)';
    });
    expect((await computed(widget.sendButton, ['outline-width']))['outline-width']).toBe('7px');

    const host = await page.evaluate(() => {
      const style = (el: Element) => getComputedStyle(el);
      return {
        body: style(document.body).backgroundColor,
        h1: style(document.getElementById('title')!).color,
        button: style(document.getElementById('buy')!).outlineWidth,
      };
    });
    expect(host.body).not.toBe('rgb(255, 0, 0)');
    expect(host.h1).not.toBe('rgb(255, 0, 0)');
    expect(host.button).not.toBe('7px');
  });

  it('serves the hosted chat page, themed, under its CSP, and answers a message from the emulator', async () => {
    const { owner, put } = await themedOwner('Harbour Page');
    expect((await put(`/api/branding/${owner.app.id}`, { widget: { welcomeMessage: 'Welcome to the harbour chat.' } })).status).toBe(200);
    expect((await put(`/api/applications/${owner.app.id}`, { hostedPage: { enabled: true } })).status).toBe(200);

    const response = await page.goto(`${stack.listening.url}/chat/${owner.app.slug}`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
    const chat = new HostedChat(page, 'Harbour Page');
    await chat.dialog.waitFor();
    await chat.log.getByText('Welcome to the harbour chat.').waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 24, 39)');
    expect(await computed(chat.sendButton, ['background-color'])).toEqual({ 'background-color': 'rgb(10, 125, 79)' });

    await chat.sendAndWait('When do you open?');
    expect(await chat.answers().last().textContent()).toBe(ANSWER);
    expect(await chat.errors().count()).toBe(0);
    expect(stack.emulator!.requests.filter((r) => r.provider === 'provider_a')).toHaveLength(1);
    await page.screenshot({ path: join(OUTPUT_DIR, 'hosted-chat-page.png') });
    expect(consoleErrors.filter((m) => /Content Security Policy/i.test(m))).toEqual([]);

    // A reload continues the same conversation (its token is kept for the session).
    await page.reload();
    const again = new HostedChat(page, 'Harbour Page');
    await again.answers().getByText(ANSWER).waitFor();
    await again.sendAndWait('And on Sundays?');
    expect(JSON.stringify(stack.emulator!.requests.at(-1)!.body.messages)).toContain('When do you open?');

    const missing = await page.goto(`${stack.listening.url}/chat/no-such-chat`);
    expect(missing!.status()).toBe(404);
    await page.getByRole('heading', { name: 'Chat not found' }).waitFor();
  });
});

import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../browser/support/browser';
import { startMarketplace, type MarketplaceStack } from '../../support/marketplace-stack';
import { startStripeFake, type StripeFake } from '../../support/stripe-fake/stripe-fake';
import { ensureBuilt } from '../../support/spawn-service';
import { startCoreApi, stopListening, type StackOptions, type TestStack } from '../../support/test-stack';

const ROOT = join(__dirname, '..', '..', '..');
/** Screenshots of every screen land here (CI keeps test-output/ as an artifact). */
export const CONSOLE_OUTPUT_DIR = join(ROOT, 'test-output', 'console');

/** A port free right now on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Builds the console when its build is missing or stale (what `npm start` does); cheap when current. */
export const ensureConsoleBuilt = (): void => ensureBuilt('console');

/**
 * One console test file's world: the composed apps (core API serving the built console, AI service,
 * provider emulator with platform keys) on a fresh database, and one Chromium. Each test opens its own
 * browser context (`stack.open()`), so cookies and memory never leak between tests.
 */
export interface ConsoleStack {
  stack: TestStack;
  /** The marketplace service (its own database), when started with `marketplace: true`. */
  market?: MarketplaceStack & { stop(): Promise<void> };
  /** The local Stripe fake (its Checkout page completes the session and calls the platform's webhook), with `stripe: true`. */
  stripe?: StripeFake;
  browser: Browser;
  url: string;
  open(): Promise<ConsolePage>;
  close(): Promise<void>;
}

export interface ConsoleStackOptions extends StackOptions {
  /** Also start the marketplace service and point the core API at it (MARKETPLACE_URL, MARKETPLACE_TOKEN). */
  marketplace?: boolean;
  /** Also start the Stripe fake and configure the core API's payments with it (STRIPE_*). */
  stripe?: boolean;
}

export async function startConsoleStack(options: ConsoleStackOptions = {}): Promise<ConsoleStack> {
  ensureConsoleBuilt();
  const { marketplace, stripe: withStripe, ...stackOptions } = options;
  const [market, stripe] = await Promise.all([marketplace ? startMarketplace({ database: options.database }) : undefined, withStripe ? startStripeFake() : undefined]);
  // With payments, the platform listens where its PUBLIC_BASE_URL says, so Checkout's return URL comes back to it.
  const port = stripe ? await freePort() : stackOptions.port;
  const env = {
    ...(market ? { MARKETPLACE_URL: market.url, MARKETPLACE_TOKEN: market.token } : {}),
    ...(stripe ? { ...stripe.env, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } : {}),
    ...stackOptions.env,
  };
  const [stack, browser] = await Promise.all([startCoreApi({ providers: true, ...stackOptions, port, env }), launchChromium()]);
  if (stripe) stripe.forwardTo = `${stack.listening.url}/api/billing/webhook`;
  const contexts: BrowserContext[] = [];
  let marketUp = true;
  return {
    stack,
    market: market && {
      ...market,
      /** Stops the marketplace service's listener: the core API's marketplace calls are refused from then on. */
      async stop() {
        if (!marketUp) return;
        marketUp = false;
        await stopListening(market.listening);
      },
    },
    stripe,
    browser,
    url: stack.listening.url,
    async open() {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
      contexts.push(context);
      return ConsolePage.open(context, stack.listening.url);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser?.close();
      await stack?.close();
      await market?.close(); // a listener stopped already closes again harmlessly
      await stripe?.close();
    },
  };
}

declare global {
  interface Window {
    /** Set by the page hook: every call is a script that should never have run (an injected payload). */
    __injected?: string[];
    __cspViolations?: string[];
  }
}

/**
 * A console tab with its watchers: page errors, CSP violations and the injected-script hook (payloads
 * call `__injected(...)`; any call means an API value was run as code), and every access token the API
 * handed out (to prove none reaches storage or a URL).
 */
export class ConsolePage {
  readonly pageErrors: string[] = [];
  readonly accessTokens = new Set<string>();
  readonly requestUrls: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  static async open(context: BrowserContext, baseUrl: string): Promise<ConsolePage> {
    await context.addInitScript(() => {
      window.__injected = [];
      window.__cspViolations = [];
      (window as unknown as { __mark: (x: string) => void }).__mark = (x: string) => window.__injected!.push(String(x));
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = await context.newPage();
    const p = new ConsolePage(context, page, baseUrl);
    page.on('pageerror', (error) => p.pageErrors.push(error.message));
    page.on('request', (request) => p.requestUrls.push(request.url()));
    page.on('framenavigated', (frame) => p.requestUrls.push(frame.url()));
    page.on('response', async (response) => {
      if (!/\/api\/auth\/(login|register|refresh|oauth\/exchange)$/.test(new URL(response.url()).pathname)) return;
      const body = (await response.json().catch(() => null)) as { access_token?: string } | null;
      if (body?.access_token) p.accessTokens.add(body.access_token);
    });
    return p;
  }

  goto(path: string) {
    return this.page.goto(`${this.baseUrl}${path}`);
  }

  /** Scripts that ran from API values (must stay empty) and CSP violations (must stay empty). */
  async injected(): Promise<{ injected: string[]; violations: string[] }> {
    return this.page.evaluate(() => ({ injected: window.__injected ?? [], violations: window.__cspViolations ?? [] }));
  }

  /** Every place a token must never be: storage, readable cookies, any URL requested or navigated. */
  async leakedTokens(): Promise<string[]> {
    const kept = await this.page.evaluate(() => JSON.stringify({ l: { ...localStorage }, s: { ...sessionStorage }, c: document.cookie }));
    const cookies = JSON.stringify((await this.context.cookies()).filter((c) => !c.httpOnly));
    const places = [kept, cookies, ...this.requestUrls];
    return [...this.accessTokens].filter((token) => places.some((place) => place.includes(token)));
  }
}

/** Signs up through the console's screen; resolves on the signed-in shell. */
/**
 * Every console test's closing check of its tab: the page threw nothing, no injected script ran and the CSP refused
 * nothing, no token sits in storage, a readable cookie or a URL; then the tab's browser context is closed.
 */
export async function closeCheckedTab(tab: ConsolePage): Promise<void> {
  expect(tab.pageErrors).toEqual([]);
  expect(await tab.injected()).toEqual({ injected: [], violations: [] });
  expect(await tab.leakedTokens()).toEqual([]);
  await tab.context.close();
}

export async function signUp(page: Page, baseUrl: string, user: { email: string; password?: string; name?: string }): Promise<void> {
  await page.goto(`${baseUrl}/sign-up`);
  await page.getByLabel('Your name').fill(user.name ?? 'Ada Lovelace');
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password ?? 'correct horse battery');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Signs in through the console's screen; resolves on the signed-in shell. */
export async function signIn(page: Page, baseUrl: string, user: { email: string; password?: string }): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('E-mail').fill(user.email);
  await page.getByLabel('Password').fill(user.password ?? 'correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

let emails = 0;
/** A fresh e-mail address for a test user. */
export const freshEmail = (label = 'owner') => `${label}${++emails}-${Date.now().toString(36)}@example.com`;

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the current screen: the serious and critical violations (expected to be none), described. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (the page itself may not run inline code).
  // Loaded once per document: a check on the same page reuses it (a navigation starts a new document).
  if (await page.evaluate(`typeof window.axe === 'undefined'`)) await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Saves a screenshot of the screen as test-output/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(CONSOLE_OUTPUT_DIR, { recursive: true });
  const path = join(CONSOLE_OUTPUT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** A value that runs `__mark(...)` if it is ever treated as HTML instead of text. */
export const xssPayload = (label: string) => `<img src=x onerror="__mark('${label}')">${label}`;

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describeInBrowser } from '../browser/support/browser';
import { ADMIN_EMAIL, registerUser } from '../support/test-stack';
import { closeCheckedTab, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/**
 * Words people read (STUDIO.md): no screen of the console shows an API path, a JSON field path or an environment
 * variable name in its text. Code the user copies (the embed snippet, curl examples) is code: `<code>`, `<pre>` and
 * editors are left out, everything else a person sees is read. Every area of the workspace and every tab of an
 * application is walked (the lists come from the console's own registries, so a new screen is walked too), as an
 * admin who holds an application with a conversation, a key and a tool, so the screens show content, not only
 * their empty states.
 */
const CONSOLE_APP = join(__dirname, '..', '..', 'apps', 'console', 'src', 'app');
/** The ids the console's registries list, one line each (`area('id', …)`, `tab('id', …)`), read from their sources. */
const registered = (file: string, fn: string): string[] =>
  [...readFileSync(join(CONSOLE_APP, file), 'utf8').matchAll(new RegExp(`^\\s*${fn}\\('([a-z-]+)'`, 'gm'))].map((m) => m[1]!);
const AREAS = registered('areas.ts', 'area');
const TABS = registered('tabs.ts', 'tab');

const API_PATH = /\/api\//;
const ENV_NAME = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b/;
/** `settings.topP`, `attributeMapping.displayName`, `manifest.version`: a dotted name whose parts are identifiers of ours. */
const FIELD_PATH = /\b(?:[a-z][a-zA-Z0-9]*\.)+[a-z][a-z0-9]*[A-Z][a-zA-Z0-9]*\b|\b(?:settings|manifest|attributeMapping|metadata|customHeaders|variables)\.(?!json\b)[a-zA-Z]/;

/** The text a person sees on the page: visible text nodes outside code, scripts and editors. */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const skip = (el: Element | null): boolean => {
      for (let e = el; e; e = e.parentElement) {
        if (e.matches('code, pre, script, style, template, textarea, .cm-editor, [data-code]')) return true;
      }
      return false;
    };
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      const text = node.textContent?.trim();
      if (!text || !el || skip(el)) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      out.push(text);
    }
    // What assistive technology reads aloud counts too: labels and titles.
    for (const el of Array.from(document.querySelectorAll('[aria-label], [title], [placeholder]'))) {
      if (skip(el)) continue;
      for (const attr of ['aria-label', 'title', 'placeholder']) {
        const value = el.getAttribute(attr);
        if (value) out.push(value);
      }
    }
    return out.join('\n');
  });
}

function offending(text: string): string[] {
  return text.split('\n').filter((line) => API_PATH.test(line) || ENV_NAME.test(line) || FIELD_PATH.test(line));
}

describeInBrowser('console: words people read', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack();
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('shows no API path, field path or environment variable name on any screen of the workspace or an application', async () => {
    const { client } = world.stack;
    const admin = await registerUser(client, { email: ADMIN_EMAIL }).catch(async () => {
      const login = await client.post('/api/auth/login', { email: ADMIN_EMAIL, password: 'correct horse battery' });
      return { ...login.body, email: ADMIN_EMAIL, password: 'correct horse battery' } as { access_token: string; email: string; password: string };
    });
    const token = admin.access_token;
    const app = (await client.post('/api/applications', { name: 'Harbour Help', allowedOrigins: ['https://harbour.example'] }, { token })).body as { id: string };
    expect((await client.post('/api/api-keys', { name: 'Site', applicationId: app.id }, { token })).status).toBe(201);
    const conversation = (await client.post('/api/conversations', { applicationId: app.id }, { token })).body as { id: string };
    expect((await client.post(`/api/conversations/${conversation.id}/messages`, { content: 'When does the harbour open?' }, { token })).status).toBe(200);

    const { page } = tab;
    await signIn(page, world.url, admin);
    const found: Record<string, string[]> = {};
    const visit = async (path: string) => {
      await tab.goto(path);
      // A screen is read once it has settled: no loading indicator left.
      await page.locator('[aria-busy="true"], .ap-loading').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
      await page.waitForLoadState('networkidle');
      const bad = offending(await visibleText(page));
      if (bad.length) found[path] = bad;
    };

    expect(AREAS.length).toBeGreaterThan(15);
    expect(TABS).toEqual(expect.arrayContaining(['overview', 'build', 'publish', 'settings']));
    for (const area of AREAS) await visit(`/${area}`);
    for (const t of TABS) await visit(`/applications/${app.id}/${t}`);
    await visit(`/playground/${app.id}/${conversation.id}`);
    // A model config with an A/B test: its decision view.
    const config = (await client.post('/api/model-configs', { applicationId: app.id, name: 'Harbour', provider: 'provider_a' }, { token })).body as { _id: string };
    await client.post(`/api/model-configs/${config._id}/versions`, { label: 'Shorter', trafficPercent: 50 }, { token });
    expect((await client.put(`/api/model-configs/${config._id}/experiment`, { goal: 'thumbs_up_rate', guardrails: ['error_rate', 'cost'] }, { token })).status).toBe(200);
    await visit(`/model-configs/${config._id}`);
    expect(found).toEqual({});
    // Some 36 screens at 1-3 s each on a busy machine: past the suite's default 60 s.
  }, 120_000);
});

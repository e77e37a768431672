import { describeInBrowser } from '../browser/support/browser';
import { settled, uploadDocument } from '../e2e/core-api/knowledge/knowledge-documents';
import { registerUser, userWithApplication } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

const LAMP_RULES = 'The harbour lamp is lit thirty minutes before sunset and put out at sunrise, every day of the year.';

/** The Playground in Chromium: streamed answers from the emulator through the real platform. */
describeInBrowser('console: playground', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;

  beforeAll(async () => {
    world = await startConsoleStack();
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    world.stack.emulator!.reset();
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  /** An owner on a paid plan (platform keys serve) with an application holding one ready document. */
  async function paidOwnerWithDocs(appName: string) {
    const owner = await userWithApplication(world.stack.client, { name: appName });
    await world.stack.setPlan(owner.user.id, 'pro');
    const upload = await uploadDocument(world.stack.client, owner.token, { applicationId: owner.app.id }, { name: 'lamp-rules.md', text: LAMP_RULES });
    expect((await settled(world.stack.client, owner.token, upload.body.id)).status).toBe('ready');
    return owner;
  }

  it('streams an answer token by token with the picked provider and model, shows its sources, rates it, and reopens the conversation', async () => {
    const { page } = tab;
    const owner = await paidOwnerWithDocs('Harbour Help');
    const answer = 'The lamp is lit thirty minutes before sunset, every single day of the year.';
    world.stack.emulator!.behaviour.reply = answer;
    world.stack.emulator!.behaviour.chunkDelayMs = 60;
    await signIn(page, world.url, owner);
    await tab.goto('/playground');
    await page.getByLabel('Application').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/playground/${owner.app.id}`);

    await page.getByLabel('Provider').selectOption('provider_a');
    await page.getByLabel('Model').selectOption('gpt-4o');
    await page.getByLabel('Message').fill('When is the harbour lamp lit?');
    await page.getByRole('button', { name: 'Send' }).click();

    // Token by token: the answer is seen part-way before it is whole.
    const answerBody = page.locator('.ap-message--assistant .ap-message__body').last();
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const text = (await answerBody.textContent().catch(() => '')) ?? '';
      if (text && text !== 'Answering…') seen.add(text);
      if (text === answer) break;
      await page.waitForTimeout(20);
    }
    expect([...seen].some((t) => t.length > 0 && t.length < answer.length && answer.startsWith(t))).toBe(true);
    await page.getByRole('button', { name: 'Send' }).waitFor(); // the stream ended

    const last = world.stack.emulator!.requests.filter((r) => r.provider === 'provider_a' && r.path.includes('chat/completions')).at(-1)!;
    expect((last.body as { model: string }).model).toBe('gpt-4o');

    const assistant = page.locator('.ap-message--assistant').last();
    await assistant.getByText('lamp-rules.md').waitFor();
    await assistant.getByText(/harbour lamp is lit thirty minutes/).waitFor();
    await assistant.getByRole('button', { name: '4 of 5' }).click();
    await assistant.getByText('Rated 4 of 5').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'playground');

    const conversationUrl = new URL(page.url()).pathname;
    expect(conversationUrl).toMatch(new RegExp(`^/playground/${owner.app.id}/[0-9a-f-]{36}$`));
    await page.getByRole('button', { name: 'New conversation' }).click();
    await page.getByText('Ask something to see how the application answers.').waitFor();
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link').first().click();
    await page.locator('.ap-message--user').getByText('When is the harbour lamp lit?').waitFor();
    await page.locator('.ap-message--assistant').getByText(answer).waitFor();
    expect(new URL(page.url()).pathname).toBe(conversationUrl);
  });

  it('explains a 402 on the Free plan without an own key, with the way out, keeping the message', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Free Desk' });
    await signIn(page, world.url, owner);
    await tab.goto(`/playground/${owner.app.id}`);
    await page.getByLabel('Provider').selectOption('provider_a');
    await page.getByLabel('Message').fill('Hello?');
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.locator('.ap-error-text');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Your plan does not allow this.');
    await page.getByRole('link', { name: 'Save a provider key' }).waitFor();
    await expect(page.getByLabel('Message').inputValue()).resolves.toBe('Hello?');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'playground-402');
  });

  it('shows a message and an answer holding markup as text; nothing runs', async () => {
    const { page } = tab;
    const owner = await paidOwnerWithDocs(xssPayload('app'));
    world.stack.emulator!.behaviour.reply = xssPayload('answer');
    await signIn(page, world.url, owner);
    await tab.goto(`/playground/${owner.app.id}`);
    await page.getByLabel('Message').fill(xssPayload('question'));
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.ap-message--assistant .ap-message__body').getByText(xssPayload('answer')).waitFor();
    await page.locator('.ap-message--user').getByText(xssPayload('question')).first().waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.getByLabel('Application').locator('option').first().textContent()).toBe(xssPayload('app'));
  });

  it('offers an empty playground the way to create an application', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await tab.goto('/playground');
    await page.getByRole('heading', { name: 'No application to chat with yet' }).waitFor();
    await page.getByRole('link', { name: 'Create an application' }).waitFor();
  });

  it('shows a tool call as one block with its name and arguments inside the one answer, also once stored', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Order Desk' });
    await world.stack.setPlan(owner.user.id, 'pro');
    // A tool whose host never resolves (the .invalid domain): saved (no address to judge yet), its call comes back as an error.
    const tool = await world.stack.client.post(
      `/api/applications/${owner.app.id}/tools`,
      {
        name: 'order_status',
        description: 'The status of an order',
        parameters: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
        source: { type: 'http', method: 'GET', url: 'https://orders.invalid/orders/{{args.order}}' },
        timeoutMs: 3000,
      },
      { token: owner.token },
    );
    expect(tool.status).toBe(201);
    expect((await world.stack.client.put(`/api/applications/${owner.app.id}/agent`, { enabledTools: ['order_status'] }, { token: owner.token })).status).toBe(200);
    await signIn(page, world.url, owner);
    await tab.goto(`/playground/${owner.app.id}`);
    await page.getByLabel('Provider').selectOption('provider_a');
    await page.getByLabel('Message').fill('Where is my order? [[call order_status {"order":"123456"}]]');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('order_status returned:', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Send' }).waitFor();

    const check = async () => {
      const answers = page.locator('.ap-message--assistant');
      expect(await answers.count()).toBe(1);
      const block = answers.locator('.ap-tool-call');
      expect(await block.count()).toBe(1);
      const summary = block.locator('summary');
      expect(await summary.locator('.ap-tool-call__name').textContent()).toBe('order_status');
      expect(await summary.textContent()).toContain('{"order":"123456"}');
      expect(await summary.textContent()).toContain('error');
      await summary.click();
      await block.getByText('"order": "123456"').waitFor();
      expect(await block.locator('pre').last().textContent()).not.toBe('');
      // One set of rating stars, on the answer.
      expect(await page.getByRole('group', { name: 'Rate this answer' }).count()).toBe(1);
    };
    await check();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'playground-tool-call');
    await page.reload();
    await page.getByText('order_status returned:', { exact: false }).waitFor();
    await check();
  });

  it('keeps the partial answer on Stop without a reload, titles the conversation from its first message, and shows model, tokens and cost', async () => {
    const { page } = tab;
    const owner = await userWithApplication(world.stack.client, { name: 'Slow Desk' });
    await world.stack.setPlan(owner.user.id, 'pro');
    await signIn(page, world.url, owner);
    await tab.goto(`/playground/${owner.app.id}`);
    await page.getByLabel('Provider').selectOption('provider_a');
    await page.getByLabel('Model').selectOption('gpt-4o-mini');

    // A whole answer first: its meta, and the conversation named after the first message.
    world.stack.emulator!.behaviour.reply = 'Quick answer.';
    const question = 'Could you please explain how the refund policy works for orders that were shipped abroad?';
    await page.getByLabel('Message').fill(question);
    await page.getByRole('button', { name: 'Send' }).click();
    const meta = page.locator('.ap-message--assistant .ap-answer-meta').last();
    await meta.waitFor();
    expect(await meta.getByText('provider_a · gpt-4o-mini').count()).toBe(1);
    expect(await meta.textContent()).toMatch(/Tokens[\d,]+ in · [\d,]+ out/);
    expect(await meta.textContent()).toMatch(/Cost\$0\.\d+/);
    expect(await meta.textContent()).toMatch(/Time\d+(\.\d)? m?s/);
    const title = 'Could you please explain how the refund policy works for…';
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: title }).waitFor();
    await page.getByRole('heading', { name: title }).waitFor();
    // Renamed in place: the heading and the list follow.
    await page.getByRole('button', { name: `Rename “${title}”` }).click();
    await page.getByLabel('Title', { exact: true }).fill('   ');
    expect(await page.getByRole('button', { name: 'Save title' }).isDisabled()).toBe(true);
    await page.getByLabel('Title', { exact: true }).fill('Refunds abroad');
    await page.getByRole('button', { name: 'Save title' }).click();
    await page.getByRole('heading', { name: 'Refunds abroad' }).waitFor();
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'Refunds abroad' }).waitFor();

    // Stop part-way: the words that arrived stay on screen, marked, and are still there once the stored answer replaced them.
    const reply = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    world.stack.emulator!.behaviour.reply = reply;
    world.stack.emulator!.behaviour.chunkDelayMs = 150;
    await page.getByLabel('Message').fill('Tell me a long story');
    await page.getByRole('button', { name: 'Send' }).click();
    const body = page.locator('.ap-message--assistant .ap-message__body').last();
    await page.waitForFunction(() => /word3/.test(document.querySelectorAll('.ap-message--assistant .ap-message__body')[1]?.textContent ?? ''));
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    const partial = (await body.textContent()) ?? '';
    expect(partial.length).toBeGreaterThan(0);
    expect(reply.startsWith(partial.trim())).toBe(true);
    expect(partial.trim()).not.toBe(reply);
    await page.getByText(/Stopped: the answer so far is kept\.|This answer was interrupted\./).waitFor();
    await page.waitForTimeout(3500); // past the refetches of the stored conversation
    const kept = (await body.textContent()) ?? '';
    expect(kept.length).toBeGreaterThan(0);
    expect(reply.startsWith(kept.trim())).toBe(true);
    expect(await page.locator('.ap-message--assistant').count()).toBe(2);
    expect(await page.locator('.ap-message--user').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'playground-stopped');
  });
});

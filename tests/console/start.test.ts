import { describeInBrowser } from '../browser/support/browser';
import { axeViolations, freshEmail, screenshot, signUp, startConsoleStack, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** The first-run path in Chromium: from sign-up to a streamed answer and the widget snippet, without curl. */
describeInBrowser('console: first run', () => {
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

  it('carries a newcomer on the Free plan from sign-up through an application and an own key to a streamed answer and the widget snippet', async () => {
    const { page } = tab;
    await signUp(page, world.url, { email: freshEmail('newcomer') });
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/start');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'start');

    await page.getByLabel('Application name').fill('Lighthouse Desk');
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByText('Your application “Lighthouse Desk” is ready.').waitFor();

    // Free plan: an own key is needed; a wrong prefix is refused on the field first.
    await page.getByLabel('API key').fill('hf_not_an_openai_key_0000');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.locator('.ap-field__error').getByText(/must start with "sk-"/).waitFor();
    await page.getByLabel('API key').fill('sk-newcomer-own-key-1234');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByText('Your OpenAI key ending in 1234 is saved.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'start-ready');

    world.stack.emulator!.behaviour.reply = 'Welcome aboard: the lighthouse is open every day.';
    await page.getByRole('link', { name: 'Open the playground' }).click();
    await page.getByLabel('Provider').selectOption('provider_a');
    await page.getByLabel('Message').fill('Is the lighthouse open?');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.ap-message--assistant').getByText('Welcome aboard: the lighthouse is open every day.').waitFor();
    expect(world.stack.emulator!.requests.some((r) => r.apiKey === 'sk-newcomer-own-key-1234')).toBe(true);

    await page.getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('link', { name: 'Get the widget snippet' }).click();
    await page.getByRole('heading', { name: 'Embed the chat widget' }).waitFor();
    expect(await page.getByLabel('Widget snippet').inputValue()).toContain('/public/widget.js');
  });

  it('creates the application in the team chosen in the switcher, not as a personal one', async () => {
    const { page } = tab;
    const email = freshEmail('team-start');
    await signUp(page, world.url, { email });
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    const login = await world.stack.client.post('/api/auth/login', { email, password: 'correct horse battery' });
    const token = login.body.access_token as string;
    const team = await world.stack.client.post('/api/teams', { name: 'Lantern Crew' }, { token });
    expect(team.status).toBe(201);
    await page.reload();
    await page.getByLabel('Context').selectOption({ label: 'Team: Lantern Crew' });
    await page.getByText('It will be created in the team “Lantern Crew”', { exact: false }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Application name').fill('Lantern Desk');
    await page.getByRole('button', { name: 'Create application' }).click();
    await page.getByText('Your application “Lantern Desk” is ready.').waitFor();
    // Created in the team by the one request: the team lists it, and it is not among the personal ones.
    const inTeam = await world.stack.client.get(`/api/applications?teamId=${team.body.id}`, { token });
    expect(inTeam.body).toEqual([expect.objectContaining({ name: 'Lantern Desk', teamId: team.body.id })]);
    expect((await world.stack.client.get('/api/applications?teamId=personal', { token })).body).toEqual([]);
  });

  it('tells a paid plan that the platform keys serve', async () => {
    const { page } = tab;
    const email = freshEmail('paid');
    await signUp(page, world.url, { email });
    const login = await world.stack.client.post('/api/auth/login', { email, password: 'correct horse battery' });
    await world.stack.setPlan(login.body.user.id, 'pro');
    await page.reload();
    await page.getByText(/Your pro plan uses the platform’s own provider keys/).waitFor();
  });
});

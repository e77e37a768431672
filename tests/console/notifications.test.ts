import { NOTIFICATION_TOKENS } from '../../apps/core-api/modules/notifications.tokens';
import { resolve } from '../../apps/shared/tokens';
import { describeInBrowser } from '../browser/support/browser';
import { registerUser } from '../support/test-stack';
import { axeViolations, screenshot, signIn, startConsoleStack, xssPayload, type ConsolePage, type ConsoleStack, closeCheckedTab } from './support/console-stack';

/** Notifications in Chromium: the shell's bell (polled, paused while hidden), the list, mark read, mark all read. */
describeInBrowser('console: notifications', () => {
  let world: ConsoleStack;
  let tab: ConsolePage;
  const notify = (userId: string, title: string, body?: string, actionUrl?: string) =>
    resolve(world.stack.core.container, NOTIFICATION_TOKENS.Notify).send({ userId, type: 'warning', category: 'billing', title, body, actionUrl });

  beforeAll(async () => {
    world = await startConsoleStack();
  });
  afterAll(() => world?.close());
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('shows the empty list and a bell with nothing unread', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await page.getByRole('link', { name: 'Notifications, none unread' }).waitFor();
    await tab.goto('/notifications');
    await page.getByRole('heading', { name: 'No notifications' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'notifications-empty');
  });

  it('names no count on the bell until the count has arrived', async () => {
    const { page } = tab;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/notifications/unread-count', async (route) => {
      await held;
      await route.continue();
    });
    try {
      const user = await registerUser(world.stack.client);
      await signIn(page, world.url, user);
      const bell = page.locator('a.ap-bell');
      await bell.waitFor();
      expect(await bell.getAttribute('aria-label')).toBe('Notifications');
    } finally {
      release();
    }
    await page.getByRole('link', { name: 'Notifications, none unread' }).waitFor();
  });

  it('lists notifications as text (an <img onerror> title and body never run), marks one read, then all, and the bell follows', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    const title = xssPayload('note-title');
    const body = xssPayload('note-body');
    await notify(user.user.id, title, body, 'javascript:__mark("note-link")');
    await notify(user.user.id, 'Quota at 80%', 'Your plan’s monthly messages are 80% used.', '/analytics');
    await notify(user.user.id, 'Card expiring', undefined);
    await signIn(page, world.url, user);

    const bell = page.getByRole('link', { name: 'Notifications, 3 unread' });
    await bell.click();
    const list = page.getByRole('list', { name: 'Notifications' });
    await list.getByText('note-title').waitFor();
    expect(await list.locator('li').count()).toBe(3);
    expect(await list.locator('li').last().textContent()).toContain(title);
    expect(await list.locator('li').last().textContent()).toContain(body);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    // Only the platform's own paths become links; a `javascript:` address from the API stays unlinked.
    expect(await list.getByRole('link', { name: 'Open' }).count()).toBe(1);
    expect(await list.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/analytics');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'notifications');

    await list.getByRole('button', { name: 'Mark read: Quota at 80%' }).click();
    await page.getByRole('link', { name: 'Notifications, 2 unread' }).waitFor();
    expect(await list.getByRole('button', { name: 'Mark read: Quota at 80%' }).count()).toBe(0);

    await page.getByLabel('Show').selectOption('unread');
    await page.getByText('2 notifications').waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByText('2 notifications marked read.').waitFor();
    await page.getByRole('heading', { name: 'Nothing unread' }).waitFor();
    await page.getByRole('link', { name: 'Notifications, none unread' }).waitFor();
    const count = await world.stack.client.get('/api/notifications/unread-count', { token: user.access_token });
    expect(count.body).toEqual({ count: 0 });
  });

  it('polls the unread count every 30 s, and not while the tab is hidden', async () => {
    const { page } = tab;
    // Counted as the browser sends each request (the route holds it until counted), so a poll is counted before its
    // answer can show on the bell.
    let polls = 0;
    await page.route('**/api/notifications/unread-count', (route) => {
      polls += 1;
      return route.continue();
    });
    await page.clock.install();
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    // The first count has arrived: the bell names no count before. Were it still on its way, the 30 s poll below would
    // join it instead of asking again, and its answer could predate the notification.
    await page.getByRole('link', { name: 'Notifications, none unread' }).waitFor();
    const first = polls;

    await notify(user.user.id, 'Webhook disabled');
    await page.clock.runFor(31_000);
    await page.getByRole('link', { name: 'Notifications, 1 unread' }).waitFor();
    expect(polls).toBeGreaterThan(first);

    // Hidden: the interval skips its fetches. The event bubbles as the browser's own does: TanStack Query listens on
    // `window`, and a non-bubbling one never reached it (the "counted at once" below then waited for the next 30 s
    // poll in real time, against the locator's 30 s timeout: the flake).
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    const before = polls;
    await notify(user.user.id, 'New sign-in');
    await page.clock.runFor(95_000);
    expect(polls).toBe(before);
    expect(await page.getByRole('link', { name: 'Notifications, 1 unread' }).count()).toBe(1);

    // Visible again: counted at once, not at the next poll (up to 30 s away: a third of that is plenty for one request).
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
    });
    await page.getByRole('link', { name: 'Notifications, 2 unread' }).waitFor({ timeout: 10_000 });
    expect(polls).toBeGreaterThan(before);
  });

  it('shows the error state with a retry when the list cannot load', async () => {
    const { page } = tab;
    const user = await registerUser(world.stack.client);
    await signIn(page, world.url, user);
    await page.route('**/api/notifications?*', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, message: 'Notifications are resting', error: 'Service Unavailable' }) }));
    await tab.goto('/notifications');
    await page.getByRole('alert').getByText('Notifications are resting').waitFor({ timeout: 20_000 });
    await page.unroute('**/api/notifications?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No notifications' }).waitFor();
  });
});

import { describeInBrowser } from '../browser/support/browser';
import { startStripeFake, type StripeFake } from '../support/stripe-fake/stripe-fake';
import { userWithApplication } from '../support/test-stack';
import { axeViolations, closeCheckedTab, screenshot, signIn, startConsoleStack, type ConsolePage, type ConsoleStack } from './support/console-stack';

/**
 * Billing in Chromium against the Stripe fake of the billing tests: the plan with its included and used tokens
 * and overage, a subscription through the (fake) hosted Checkout page and its webhook, the invoices, the
 * customer portal, and Stripe's failure shown on the action.
 */
describeInBrowser('console: billing', () => {
  let world: ConsoleStack;
  let stripe: StripeFake;
  let tab: ConsolePage;

  beforeAll(async () => {
    stripe = await startStripeFake();
    world = await startConsoleStack({ env: stripe.env });
    stripe.forwardTo = `${world.url}/api/billing/webhook`;
  });
  afterAll(async () => {
    await world?.close();
    await stripe?.close();
  });
  beforeEach(async () => {
    tab = await world.open();
  });
  afterEach(() => closeCheckedTab(tab));

  it('shows the Free plan and its usage, subscribes through Checkout, lists the invoice and opens the portal', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client);
    await signIn(page, world.url, user);
    // Payments are configured here (the Stripe fake): Billing is in the navigation.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Billing' }).click();
    const current = page.getByRole('region', { name: 'Current plan' });
    await current.getByText('Included tokens', { exact: true }).waitFor();
    await current.getByText('Free', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Open the customer portal' }).isDisabled()).toBe(true);
    await page.getByText('The portal opens once you have subscribed to a paid plan.').waitFor();
    await page.getByRole('heading', { name: 'No invoices yet' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'billing');

    // The fake's hosted page completes the session (its webhook reaches the platform) and would send the
    // browser to the configured public address; the test sends it back to this stack's.
    await page.route(`${stripe.url}/checkout/*`, async (route) => {
      const hosted = await fetch(route.request().url(), { redirect: 'manual' });
      expect(hosted.status).toBe(303);
      await route.fulfill({ status: 303, headers: { Location: `${world.url}/billing?checkout=success` } });
    });
    await page.getByRole('button', { name: 'Subscribe to Pro' }).click();
    await page.waitForURL(/\/billing\?checkout=success$/);
    await page.getByText('Stripe confirmed the payment: your plan is updated.').waitFor();
    await current.getByText('Pro', { exact: true }).waitFor();
    await current.getByText('Active').waitFor();
    const invoices = page.getByRole('region', { name: 'Invoices' });
    await invoices.getByRole('row').nth(1).waitFor();
    expect(await invoices.getByRole('cell', { name: 'paid' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Subscribe to / }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'billing-subscribed');

    await page.getByRole('button', { name: 'Open the customer portal' }).click();
    await page.waitForURL(new RegExp(`^${stripe.url}/portal/bps_`));
  });

  it('shows Stripe’s refusal on the action and the invoices’ failure with a retry', async () => {
    const { page } = tab;
    const user = await userWithApplication(world.stack.client);
    await signIn(page, world.url, user);
    await page.route('**/api/billing/subscribe', (route) =>
      route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ statusCode: 502, error: 'Bad Gateway', message: 'Stripe could not be reached' }) }),
    );
    await page.route('**/api/billing/invoices?*', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'Payments are not configured' }) }),
    );
    await tab.goto('/billing');
    await page.getByRole('button', { name: 'Subscribe to Starter' }).click();
    await page.getByRole('alert').filter({ hasText: 'Stripe could not be reached' }).waitFor();
    const invoices = page.getByRole('region', { name: 'Invoices' });
    await invoices.getByRole('alert').getByText('Payments are not configured').waitFor({ timeout: 20_000 });
    await page.unroute('**/api/billing/invoices?*');
    await invoices.getByRole('button', { name: 'Try again' }).click();
    await invoices.getByRole('heading', { name: 'No invoices yet' }).waitFor();
    expect(page.url()).toBe(`${world.url}/billing`);
  });
});

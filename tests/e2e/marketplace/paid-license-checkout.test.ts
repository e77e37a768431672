import { aMarketUser, pluginSubmission, publishedPlugin, startMarketplace, type MarketplaceStack } from '../../support/marketplace-stack';
import { startBillingStack, type BillingStack } from '../../support/stripe-fake/billing-stack';
import { registerUser } from '../../support/test-stack';

/**
 * A paid marketplace plugin bought through Stripe Checkout: the core API reads its price from the real
 * marketplace service, and the license is issued at the marketplace only when the checkout completes.
 */
describe('buying a paid marketplace plugin', () => {
  let market: MarketplaceStack;
  let stack: BillingStack;

  beforeAll(async () => {
    market = await startMarketplace();
    stack = await startBillingStack({ env: { MARKETPLACE_URL: market.url, MARKETPLACE_TOKEN: market.token } });
  });

  afterAll(async () => {
    await stack?.close();
    await market?.close();
  });

  it('prices the item from the marketplace and issues its license on checkout.session.completed, once', async () => {
    const author = aMarketUser();
    const id = await publishedPlugin(market.client, author, aMarketUser('admin'), await pluginSubmission('paid-helper', '1.0.0', { isPaid: true, price: 12.5 }));
    const buyer = await registerUser(stack.client, { email: `buyer-${Date.now()}@example.com` });
    const validity = async () => (await market.client.get(`/marketplace/licenses/validate?pluginId=${id}&userId=${buyer.user.id}`)).body;

    const checkout = await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: id }, { token: buyer.access_token });
    expect(checkout.status).toBe(200);
    const session = stack.stripe.sessions.get(checkout.body.sessionId)!;
    expect(session.line_items).toEqual([expect.objectContaining({ amount: 1250, currency: 'usd' })]);
    expect(session.metadata).toMatchObject({ purpose: 'license', itemId: id, userId: buyer.user.id });
    expect(await validity()).toMatchObject({ valid: false, reason: 'no_license' });

    const completed = stack.stripe.completeCheckout(checkout.body.sessionId);
    expect((await stack.deliver(completed)).body.result).toBe('applied');
    expect(await validity()).toMatchObject({ valid: true });
    expect((await stack.deliver(completed)).body.result).toBe('duplicate');
    const licenses = await market.client.get(`/marketplace/plugins/${id}/licenses`, author);
    expect(licenses.status).toBe(200);
    expect(licenses.body.filter((l: { userId: string }) => l.userId === buyer.user.id)).toHaveLength(1);
  });

  it('refuses a free item and an unknown one', async () => {
    const free = await publishedPlugin(market.client, aMarketUser(), aMarketUser('admin'), await pluginSubmission('free-helper'));
    const buyer = await registerUser(stack.client, { email: `free-${Date.now()}@example.com` });
    expect((await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: free }, { token: buyer.access_token })).status).toBe(404);
    expect((await stack.client.post('/api/billing/licenses/checkout', { marketplacePluginId: 'c0ffee00-0000-4000-8000-000000000000' }, { token: buyer.access_token })).status).toBe(404);
  });
});

/**
 * `npm run stripe-fake`: the local Stripe fake as a standalone process, for demos without a Stripe account.
 * STRIPE_FAKE_PORT (default 12111) chooses the port; the webhook events go to STRIPE_FAKE_FORWARD_TO
 * (default http://localhost:3000/api/billing/webhook). Opening a Checkout URL the platform answers completes it.
 */
import { runStandalone } from '../standalone';
import { startStripeFake } from './stripe-fake';

runStandalone('STRIPE_FAKE_PORT', 12111, async (port) => {
  const forwardTo = process.env.STRIPE_FAKE_FORWARD_TO || 'http://localhost:3000/api/billing/webhook';
  const fake = await startStripeFake({ port, forwardTo, secretKey: 'sk_test_stripe_fake', webhookSecret: 'whsec_stripe_fake_demo' });
  const lines = [
    `Stripe fake listening on ${fake.url}; webhook events go to ${forwardTo}`,
    'Start the platform with:',
    ...Object.entries(fake.env).map(([name, value]) => `  ${name}=${value}`),
    'Open the Checkout URL of POST /api/billing/subscribe to complete it.',
    `Control: GET ${fake.url}/__fake/subscriptions, POST ${fake.url}/__fake/subscriptions/<sub_…>/{renew,fail-payment,delete}`,
  ];
  return { lines, close: () => fake.close() };
});

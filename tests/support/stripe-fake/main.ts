/**
 * `npm run stripe-fake`: the local Stripe fake as a standalone process, for demos without a Stripe account.
 * STRIPE_FAKE_PORT (default 12111) chooses the port; the webhook events go to STRIPE_FAKE_FORWARD_TO
 * (default http://localhost:3000/api/billing/webhook). Opening a Checkout URL the platform answers completes it.
 */
import { startStripeFake } from './stripe-fake';

async function main(): Promise<void> {
  const port = Number(process.env.STRIPE_FAKE_PORT ?? 12111);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('STRIPE_FAKE_PORT must be a port number');
  const forwardTo = process.env.STRIPE_FAKE_FORWARD_TO || 'http://localhost:3000/api/billing/webhook';
  const fake = await startStripeFake({ port, forwardTo, secretKey: 'sk_test_stripe_fake', webhookSecret: 'whsec_stripe_fake_demo' });
  const lines = [
    `Stripe fake listening on ${fake.url}; webhook events go to ${forwardTo}`,
    'Start the platform with:',
    ...Object.entries(fake.env).map(([name, value]) => `  ${name}=${value}`),
    'Open the Checkout URL of POST /api/billing/subscribe to complete it.',
    `Control: GET ${fake.url}/__fake/subscriptions, POST ${fake.url}/__fake/subscriptions/<sub_…>/{renew,fail-payment,delete}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const stop = () => {
    fake.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { rmSync } from 'node:fs';
import { createLogger } from '../../../adapters/logging/logger';
import { BILLING_TOKENS } from '../../../apps/core-api/modules/billing.tokens';
import { coreApiModules } from '../../../apps/core-api/core-api.container';
import type { AppModule } from '../../../apps/shared/app-module';
import { composeApp } from '../../../apps/shared/compose';
import { createInfrastructure } from '../../../apps/shared/infrastructure';
import { listen } from '../../../apps/shared/serve';
import type { MarketplaceLicenses } from '../../../core/billing/ports/marketplace-licenses.port';
import { startEmulator } from '../emulator/emulator';
import { TestClient, type TestResponse } from '../http-client';
import { openTestDatabase, type DatabaseKind } from '../test-database';
import { ADMIN_EMAIL, FAST_HASHING, PLATFORM_KEYS, registerUser, stopListening, testConfig, type TestStack } from '../test-stack';
import { startStripeFake, type FakeEvent, type StripeFake } from './stripe-fake';

export interface BillingStack extends Pick<TestStack, 'config' | 'infra' | 'client' | 'listening' | 'emulator'> {
  stripe: StripeFake;
  /** Resolves a binding of the composed core API (use cases, the overage job). */
  resolve: TestStack['core']['container'];
  /** Delivers a signed event to the webhook endpoint of `client` (the stack's by default). */
  deliver(event: FakeEvent, options?: { client?: TestClient; timestamp?: number; secret?: string }): Promise<TestResponse>;
  setPlan: TestStack['setPlan'];
  close(): Promise<void>;
}

/**
 * The core API wired to the local Stripe fake (STRIPE_* from the fake) and the provider emulator (platform
 * keys), with the chat engine in process. `licenses` takes the MarketplaceLicenses port, as the marketplace
 * client will in the real composition.
 */
export async function startBillingStack(options: { database?: DatabaseKind; licenses?: MarketplaceLicenses; env?: Record<string, string | undefined> } = {}): Promise<BillingStack> {
  const stripe = await startStripeFake();
  const emulator = await startEmulator();
  const providerEnv: Record<string, string> = {};
  for (const [provider, url] of Object.entries(emulator.baseUrls) as [string, string][]) providerEnv[`${provider.toUpperCase()}_BASE_URL`] = url;
  for (const [provider, key] of Object.entries(PLATFORM_KEYS)) providerEnv[`${provider.toUpperCase()}_API_KEY`] = key;
  const config = testConfig({ PROVIDER_TIMEOUT_MS: '5000', ADMIN_EMAILS: ADMIN_EMAIL, ...providerEnv, ...stripe.env, ...options.env });
  const database = await openTestDatabase(options.database);
  const infra = await createInfrastructure(config, { database, logger: createLogger('silent') });
  const modules: AppModule[] = coreApiModules(infra, { passwordHashing: FAST_HASHING, chatEngine: 'in-process' });
  if (options.licenses) {
    // Last, so that it also replaces the marketplace module's binding of the port to the catalog.
    const licenses = options.licenses;
    modules.push({ name: 'test-marketplace-licenses', bind: (c) => void c.rebind(BILLING_TOKENS.MarketplaceLicenses).toConstantValue(licenses) });
  }
  const core = await composeApp('core-api', infra, modules);
  const listening = await listen(core, '127.0.0.1', 0);
  const client = new TestClient(listening.url);
  stripe.forwardTo = `${listening.url}/api/billing/webhook`;
  let adminToken: Promise<string> | undefined;
  return {
    config,
    infra,
    client,
    listening,
    emulator,
    stripe,
    resolve: core.container,
    deliver(event, o = {}) {
      const { body, headers } = stripe.signed(event, { timestamp: o.timestamp, secret: o.secret });
      return (o.client ?? client).request('POST', '/api/billing/webhook', { rawBody: body, headers });
    },
    async setPlan(userId, plan, status) {
      adminToken ??= registerUser(client, { email: ADMIN_EMAIL }).then((s) => s.access_token);
      const res = await client.put(`/api/admin/users/${userId}/plan`, { plan, status }, { token: await adminToken });
      if (res.status !== 200) throw new Error(`set plan failed: ${res.status} ${res.text}`);
    },
    async close() {
      await stopListening(listening);
      await core.stop();
      await infra.close();
      await emulator.close();
      await stripe.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

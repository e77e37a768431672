import { API_KEY_TOKENS } from '../../../../apps/core-api/modules/api-keys.tokens';
import { EVENT_TOKENS } from '../../../../apps/shared/modules/event.tokens';
import { TOKENS, resolve } from '../../../../apps/shared/tokens';
import { ApiKeyLookup } from '../../../../core/api-keys/use-cases/api-key-lookup';
import { RevokeApiKeyUseCase } from '../../../../core/api-keys/use-cases/revoke-api-key.use-case';
import type { EventPublisher } from '../../../../core/events/ports/event-publisher.port';
import { startEventsInstance, uniquePrefix } from '../../../support/events-stack';
import { DATABASE_KINDS } from '../../../support/test-database';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { waitFor } from '../../../support/wait-for';
import { WebhookReceiver } from '../../../support/webhook-receiver';

describe.each(DATABASE_KINDS)('the event outbox (%s)', (database) => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  const jobPrefix = uniquePrefix('outbox');

  beforeAll(async () => {
    stack = await startCoreApi({ database, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.1/32' } });
    await stack.core.stop();
    if (process.env.TEST_REDIS_URL) stack.config.redisUrl = process.env.TEST_REDIS_URL;
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await stack?.close();
  });

  const types = () => receiver.received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> });

  it('never delivers an event whose change rolled back', async () => {
    const core = await startEventsInstance(stack, { jobPrefix });
    try {
      const owner = await userWithApplication(core.client);
      const hook = await core.client.post('/api/webhooks', { url: receiver.url, events: ['api_key.revoked', 'application.created'] }, { token: owner.token });
      expect(hook.status).toBe(201);
      const key = await core.client.post('/api/api-keys', { name: 'doomed' }, { token: owner.token });
      const c = core.app.container;
      const publisher = resolve(c, EVENT_TOKENS.Publisher);
      // The event is written, then the work fails: the key stays active and the event is gone with it.
      const failingAfterWrite: EventPublisher = {
        publish: async (...events) => {
          await publisher.publish(...events);
          throw new Error('failed after the outbox write');
        },
      };
      const revoke = new RevokeApiKeyUseCase({
        keys: resolve(c, API_KEY_TOKENS.ApiKeyRepository),
        lookup: resolve(c, ApiKeyLookup),
        clock: resolve(c, TOKENS.Clock),
        events: failingAfterWrite,
        unitOfWork: resolve(c, EVENT_TOKENS.UnitOfWork),
      });
      await expect(revoke.execute(key.body.id, { userId: owner.user.id, role: 'user' })).rejects.toThrow('failed after the outbox write');
      const listed = await core.client.get('/api/api-keys', { token: owner.token });
      expect(listed.body.find((k: { id: string }) => k.id === key.body.id)).toMatchObject({ isActive: true });
      // A change that commits afterwards is delivered; the rolled-back one never is.
      const app = await core.client.post('/api/applications', { name: 'After the rollback' }, { token: owner.token });
      await waitFor(() => types().some((e) => e.type === 'application.created' && e.data.applicationId === app.body.id), 10_000);
      await new Promise((r) => setTimeout(r, 600));
      expect(types().filter((e) => e.type === 'api_key.revoked')).toEqual([]);
      const rows = await stack.infra.dataSource.query(`SELECT count(*)::int AS n FROM event_outbox WHERE type = 'api_key.revoked'`);
      expect(rows[0].n).toBe(0);
    } finally {
      await core.close();
    }
  });

  it('still delivers, after a restart, an event committed by an instance that went down before handing it over', async () => {
    const first = await startEventsInstance(stack, { jobPrefix });
    const owner = await registerUser(first.client);
    const hook = await first.client.post('/api/webhooks', { url: receiver.url, events: ['application.created'] }, { token: owner.access_token });
    expect(hook.status).toBe(201);
    // Its dispatcher and delivery workers stop: what it commits now waits in the outbox.
    await first.app.stop();
    const app = await first.client.post('/api/applications', { name: 'Survives the crash' }, { token: owner.access_token });
    expect(app.status).toBe(201);
    await new Promise((r) => setTimeout(r, 700));
    expect(types().filter((e) => e.data.applicationId === app.body.id)).toEqual([]);
    await first.close();

    const second = await startEventsInstance(stack, { jobPrefix });
    try {
      await waitFor(() => types().some((e) => e.data.applicationId === app.body.id), 10_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(types().filter((e) => e.data.applicationId === app.body.id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});

import { rmSync } from 'node:fs';
import { startAll } from '../../../apps/all/all';
import { createInfrastructure, type Infrastructure } from '../../../apps/shared/infrastructure';
import { CHAT_TOKENS } from '../../../apps/shared/modules/chat-engine.tokens';
import { shutdown, type Listening } from '../../../apps/shared/serve';
import { resolve } from '../../../apps/shared/tokens';
import { createLogger } from '../../../adapters/logging/logger';
import { HttpChatEngine } from '../../../adapters/clients/http-chat-engine';
import { InProcessChatEngine } from '../../../core/ai/use-cases/in-process-chat-engine';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { TestClient } from '../../support/http-client';
import { openTestDatabase } from '../../support/test-database';
import { ADMIN_EMAIL, FAST_HASHING, PLATFORM_KEYS, registerUser, testConfig } from '../../support/test-stack';
import type { AppConfig } from '../../../apps/shared/config';

/**
 * `npm start` (apps/all): the core API runs the chat engine in its own process instead of calling the
 * AI service beside it over HTTP, and ignores AI_SERVICE_URL; the AI service still serves its port.
 */
describe('npm start composes the chat engine in-process', () => {
  let emulator: Emulator;
  let config: AppConfig;
  let infra: Infrastructure;
  let listening: Listening[];
  let core: TestClient;
  let ai: TestClient;

  beforeAll(async () => {
    emulator = await startEmulator();
    config = testConfig({
      PORT: '0',
      AI_SERVICE_PORT: '0',
      MARKETPLACE_PORT: '0',
      // Nothing listens here: a chat that went over HTTP would fail.
      AI_SERVICE_URL: 'http://127.0.0.1:9',
      ADMIN_EMAILS: ADMIN_EMAIL,
      PROVIDER_A_BASE_URL: emulator.baseUrls.provider_a,
      PROVIDER_A_API_KEY: PLATFORM_KEYS.provider_a,
    });
    infra = await createInfrastructure(config, { database: await openTestDatabase(), logger: createLogger('silent') });
    listening = await startAll(config, infra, { passwordHashing: FAST_HASHING });
    core = new TestClient(listening[0]!.url);
    ai = new TestClient(listening[1]!.url);
  });
  afterAll(async () => {
    await shutdown(listening, infra, 1000);
    await emulator.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('binds the in-process engine in the core API, whatever AI_SERVICE_URL says', () => {
    const [coreApp, aiApp] = listening.map((l) => l.app);
    expect(coreApp!.name).toBe('core-api');
    const engine = resolve(coreApp!.container, CHAT_TOKENS.ChatEngine);
    expect(engine).toBeInstanceOf(InProcessChatEngine);
    expect(engine).not.toBeInstanceOf(HttpChatEngine);
    expect(resolve(aiApp!.container, CHAT_TOKENS.ChatEngine)).toBeInstanceOf(InProcessChatEngine);
  });

  it('answers a chat through the provider, and the core API health has no AI service hop to check', async () => {
    const owner = await registerUser(core);
    const admin = await registerUser(core, { email: ADMIN_EMAIL });
    expect((await core.put(`/api/admin/users/${owner.user.id}/plan`, { plan: 'pro' }, { token: admin.access_token })).status).toBe(200);
    const app = await core.post('/api/applications', { name: 'One process' }, { token: owner.access_token });
    const conversation = await core.post('/api/conversations', { applicationId: app.body.id }, { token: owner.access_token });
    const res = await core.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'What is two plus two?', provider: 'provider_a' }, { token: owner.access_token });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ role: 'assistant', content: expect.stringContaining('two plus two') });
    expect(emulator.requests.at(-1)).toMatchObject({ provider: 'provider_a', apiKey: PLATFORM_KEYS.provider_a });

    const health = await core.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.checks).not.toHaveProperty('ai-service');
  });

  it('still serves the AI service on its own port for direct integrations, behind its token', async () => {
    expect((await ai.get('/api/health')).status).toBe(200);
    expect((await ai.get('/api/ai/conversations/by-app/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    const listed = await ai.get('/api/ai/conversations/by-app/00000000-0000-4000-8000-000000000000', { token: config.aiServiceToken });
    expect(listed.status).toBe(200);
  });
});

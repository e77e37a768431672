import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';
import { TestClient } from '../../support/http-client';
import { freePort, spawnService, waitUntilUp } from '../../support/spawn-service';

describe('graceful shutdown', () => {
  let emulator: Emulator;
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-shutdown-'));
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes the chat request in flight when SIGTERM arrives, then exits 0', async () => {
    const port = await freePort();
    const service = spawnService('apps/core-api/main.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_EMAILS: 'admin@example.com',
      PROVIDER_A_BASE_URL: emulator.baseUrls.provider_a,
      PROVIDER_A_API_KEY: 'sk-platform-key',
      LOG_LEVEL: 'warn',
    });
    try {
      const client = new TestClient(`http://127.0.0.1:${port}`);
      await waitUntilUp(`${client.baseUrl}/api/health`, service);
      const admin = (await client.post('/api/auth/register', { email: 'admin@example.com', password: 'admin password', displayName: 'A' })).body;
      const user = (await client.post('/api/auth/register', { email: 'user@example.com', password: 'user password', displayName: 'U' })).body;
      await client.put(`/api/admin/users/${user.user.id}/plan`, { plan: 'pro' }, { token: admin.access_token });
      const app = (await client.post('/api/applications', { name: 'Shutdown' }, { token: user.access_token })).body;
      const conversation = (await client.post('/api/conversations', { applicationId: app.id }, { token: user.access_token })).body;

      emulator.behaviour.delayMs = 1500;
      const inFlight = client.post(`/api/conversations/${conversation.id}/messages`, { content: 'still there?', provider: 'provider_a' }, { token: user.access_token });
      await emulator.waitFor((requests) => requests.some((r) => r.path.endsWith('/chat/completions')));
      const exited = service.stop('SIGTERM');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body.message.content).toContain('still there?');
      expect(await exited).toBe(0);
    } finally {
      emulator.behaviour.delayMs = 0;
      await service.stop('SIGKILL');
    }
  }, 90_000);
});

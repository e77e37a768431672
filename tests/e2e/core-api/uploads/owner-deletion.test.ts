import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Writable } from 'node:stream';
import { createCoreApi } from '../../../../apps/core-api/core-api.container';
import { createInfrastructure } from '../../../../apps/shared/infrastructure';
import { listen } from '../../../../apps/shared/serve';
import { createLogger } from '../../../../adapters/logging/logger';
import { TestClient } from '../../../support/http-client';
import { DATABASE_KINDS, openTestDatabase } from '../../../support/test-database';
import { FAST_HASHING, registerUser, startCoreApi, stopListening, testConfig, userWithApplication, type TestStack } from '../../../support/test-stack';
import { settled, uploadDocument } from '../knowledge/knowledge-documents';
import { SAMPLE_FILES, sendForm } from './send-form';

/** Every stored file under DATA_DIR/uploads, by its key (`files/<owner>/<name>`, `knowledge/<owner>/<app>/<name>`). */
function storedFiles(dataDir: string): string[] {
  const root = join(dataDir, 'uploads');
  return ['files', 'knowledge']
    .flatMap((dir) => (existsSync(join(root, dir)) ? readdirSync(join(root, dir), { recursive: true, withFileTypes: true }) : []))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe.each(DATABASE_KINDS)('core API: deleting an application or an account removes its stored files (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ database });
  });
  afterAll(() => stack.close());

  const upload = (token: string, name: string, bytes: Uint8Array | string) => sendForm(stack.client.baseUrl, '/api/uploads', { token, file: { name, bytes } });
  const files = () => storedFiles(stack.config.dataDir);

  /** Adds a knowledge document to the application and waits for it to be ready; answers the files it added. */
  async function addDocument(token: string, applicationId: string, name: string): Promise<string[]> {
    const before = files();
    const res = await uploadDocument(stack.client, token, { applicationId }, { name, text: `Notes about ${name}: the kettle boils water in two minutes.` });
    expect(res.status).toBe(202);
    expect(await settled(stack.client, token, res.body.id)).toMatchObject({ status: 'ready' });
    return files().filter((f) => !before.includes(f));
  }
  async function addUpload(token: string, name: string, bytes: Uint8Array | string): Promise<string[]> {
    const before = files();
    expect((await upload(token, name, bytes)).status).toBe(201);
    return files().filter((f) => !before.includes(f));
  }

  it("DELETE /api/applications/:id removes its knowledge documents' files, and keeps the owner's other files", async () => {
    const owner = await userWithApplication(stack.client, { name: 'Shop' });
    const other = await stack.client.post('/api/applications', { name: 'Blog' }, { token: owner.token });
    expect(other.status).toBe(201);
    const shopFiles = [...(await addDocument(owner.token, owner.app.id, 'refunds.md')), ...(await addDocument(owner.token, owner.app.id, 'kettles.txt'))];
    const kept = [...(await addDocument(owner.token, other.body.id, 'posts.txt')), ...(await addUpload(owner.token, 'logo.png', SAMPLE_FILES.png))];
    expect(shopFiles).toHaveLength(2);
    expect(shopFiles.every((f) => f.startsWith('knowledge/'))).toBe(true);

    expect((await stack.client.delete(`/api/applications/${owner.app.id}`, { token: owner.token })).status).toBe(204);

    expect((await stack.client.get(`/api/applications/${owner.app.id}`, { token: owner.token })).status).toBe(404);
    const left = files();
    for (const f of shopFiles) expect(left).not.toContain(f);
    for (const f of kept) expect(left).toContain(f);
  });

  it("DELETE /api/users/me removes the user's uploads and documents, and no one else's", async () => {
    const owner = await userWithApplication(stack.client, { name: 'Gadgets' });
    const bystander = await userWithApplication(stack.client, { name: 'Other' });
    const theirs = [...(await addUpload(bystander.token, 'theirs.txt', 'other notes')), ...(await addDocument(bystander.token, bystander.app.id, 'theirs.md'))];
    const mine = [
      ...(await addUpload(owner.token, 'notes.txt', 'plain notes')),
      ...(await addUpload(owner.token, 'data.json', '{"ok": true}')),
      ...(await addUpload(owner.token, 'logo.png', SAMPLE_FILES.png)),
      ...(await addDocument(owner.token, owner.app.id, 'manual.txt')),
    ];
    expect(mine).toHaveLength(4);

    const res = await stack.client.delete('/api/users/me', { token: owner.token, body: { password: owner.password } });
    expect(res.status).toBe(204);

    expect((await stack.client.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(401);
    const left = files();
    for (const f of mine) expect(left).not.toContain(f);
    for (const f of theirs) expect(left).toContain(f);
  });

  it('keeps the files when the password is wrong (400, nothing deleted)', async () => {
    const user = await registerUser(stack.client);
    const mine = await addUpload(user.access_token, 'keep.txt', 'keep me');
    const res = await stack.client.delete('/api/users/me', { token: user.access_token, body: { password: 'not my password' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(files()).toEqual(expect.arrayContaining(mine));
  });
});

describe('core API: a stored file that cannot be removed', () => {
  it('still deletes the application and the account (204), and logs the failure without paths or secrets', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const config = testConfig();
    const infra = await createInfrastructure(config, { database: await openTestDatabase(), logger: createLogger('info', undefined, destination) });
    const core = await createCoreApi(infra, { passwordHashing: FAST_HASHING });
    const listening = await listen(core, '127.0.0.1', 0);
    const client = new TestClient(listening.url);
    try {
      const owner = await userWithApplication(client, { name: 'Shop' });
      const doc = await uploadDocument(client, owner.token, { applicationId: owner.app.id }, { name: 'refunds.md', text: 'Refunds within 30 days.' });
      expect(doc.status).toBe(202);
      expect(await settled(client, owner.token, doc.body.id)).toMatchObject({ status: 'ready' });
      expect((await sendForm(listening.url, '/api/uploads', { token: owner.token, file: { name: 'notes.txt', bytes: 'notes' } })).status).toBe(201);
      const stored = storedFiles(config.dataDir);
      expect(stored).toHaveLength(2);
      // Each stored file becomes a non-empty directory: removing it fails on disk.
      for (const f of stored) {
        const path = join(config.dataDir, 'uploads', f);
        rmSync(path);
        mkdirSync(path);
        writeFileSync(join(path, 'pinned'), 'x');
      }

      expect((await client.delete(`/api/applications/${owner.app.id}`, { token: owner.token })).status).toBe(204);
      expect((await client.get(`/api/applications/${owner.app.id}`, { token: owner.token })).status).toBe(404);
      expect((await client.delete('/api/users/me', { token: owner.token, body: { password: owner.password } })).status).toBe(204);
      expect((await client.post('/api/auth/login', { email: owner.email, password: owner.password })).status).toBe(401);

      const failures = lines.filter((l) => l.includes('could not be removed'));
      expect(failures).toHaveLength(2);
      for (const line of failures) {
        expect(JSON.parse(line)).toMatchObject({ level: 50, msg: '1 of 1 stored files could not be removed; they are left behind' });
      }
      const log = lines.join('\n');
      expect(log).not.toContain(config.dataDir);
      expect(log).not.toContain(owner.password);
      expect(log).not.toContain(owner.token);
      for (const f of stored) expect(log).not.toContain(f.split('/').at(-1)!.split('.')[0]!);
    } finally {
      await stopListening(listening);
      await core.stop();
      await infra.close();
      rmSync(config.dataDir, { recursive: true, force: true });
    }
  });
});

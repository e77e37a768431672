import { NOTIFICATION_TOKENS } from '../../../../apps/core-api/modules/notifications.tokens';
import { resolve } from '../../../../apps/shared/tokens';
import { startEventsInstance, uniquePrefix, type EventsInstance } from '../../../support/events-stack';
import { DATABASE_KINDS } from '../../../support/test-database';
import { ADMIN_EMAIL, registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';
import { waitFor } from '../../../support/wait-for';

describe.each(DATABASE_KINDS)('notifications and the audit log (%s)', (database) => {
  let stack: TestStack;
  let core: EventsInstance;

  beforeAll(async () => {
    // Client addresses come from X-Forwarded-For, so a test can sign in "from" several addresses.
    stack = await startCoreApi({ database, env: { TRUST_PROXY: 'on' } });
    await stack.core.stop();
    core = await startEventsInstance(stack, { jobPrefix: uniquePrefix('notes') });
  });
  afterAll(async () => {
    await core?.close();
    await stack?.close();
  });

  describe('notifications', () => {
    it('lists, filters and pages the caller’s notifications, counts the unread, marks them read; another user’s stay invisible', async () => {
      const me = await registerUser(core.client);
      const other = await registerUser(core.client);
      const notify = resolve(core.app.container, NOTIFICATION_TOKENS.Notify);
      for (let i = 0; i < 5; i++) await notify.send({ userId: me.user.id, type: 'warning', category: 'billing', title: `Quota ${i}` });
      await notify.send({ userId: me.user.id, type: 'info', category: 'security', title: 'Signed in', actionUrl: '/settings/security' });
      await notify.send({ userId: other.user.id, type: 'error', category: 'billing', title: 'Not yours' });
      const token = me.access_token;

      const all = await core.client.get('/api/notifications', { token });
      expect(all.status).toBe(200);
      expect(all.headers.get('x-total-count')).toBe('6');
      expect(all.body[0]).toMatchObject({ title: 'Signed in', category: 'security', type: 'info', actionUrl: '/settings/security', read: false });
      expect(all.body.map((n: { title: string }) => n.title)).not.toContain('Not yours');

      const billingPage2 = await core.client.get('/api/notifications?category=billing&limit=2&page=2', { token });
      expect(billingPage2.headers.get('x-total-count')).toBe('5');
      expect(billingPage2.body.map((n: { title: string }) => n.title)).toEqual(['Quota 2', 'Quota 1']);

      expect((await core.client.get('/api/notifications/unread-count', { token })).body).toEqual({ count: 6 });
      const read = await core.client.put(`/api/notifications/${all.body[0].id}/read`, {}, { token });
      expect(read.body).toMatchObject({ id: all.body[0].id, read: true });
      expect((await core.client.get('/api/notifications/unread-count', { token })).body).toEqual({ count: 5 });
      expect((await core.client.get('/api/notifications?unread=true', { token })).body).toHaveLength(5);
      expect((await core.client.get('/api/notifications?unread=false', { token })).body).toHaveLength(1);

      // Another user's notification is a 404, and stays unread.
      const theirs = (await core.client.get('/api/notifications', { token: other.access_token })).body[0];
      expect((await core.client.put(`/api/notifications/${theirs.id}/read`, {}, { token })).status).toBe(404);
      expect((await core.client.get('/api/notifications/unread-count', { token: other.access_token })).body).toEqual({ count: 1 });

      expect((await core.client.put('/api/notifications/read-all', {}, { token })).body).toEqual({ updated: 5 });
      expect((await core.client.get('/api/notifications/unread-count', { token })).body).toEqual({ count: 0 });
      expect((await core.client.get('/api/notifications/unread-count', { token: other.access_token })).body).toEqual({ count: 1 });

      for (const bad of ['category=spam', 'unread=yes', 'limit=1000', 'page=0']) {
        const res = await core.client.get(`/api/notifications?${bad}`, { token });
        expect([bad, res.status]).toEqual([bad, 400]);
      }
      expect((await core.client.get('/api/notifications')).status).toBe(401);
    });

    it('prunes notifications read more than 90 days ago', async () => {
      const me = await registerUser(core.client);
      const notify = resolve(core.app.container, NOTIFICATION_TOKENS.Notify);
      await notify.send({ userId: me.user.id, type: 'info', category: 'team', title: 'Old news' });
      await notify.send({ userId: me.user.id, type: 'info', category: 'team', title: 'Unread old news' });
      await stack.infra.dataSource.query(`UPDATE notifications SET read_at = now() - interval '91 days' WHERE user_id = $1 AND title = 'Old news'`, [me.user.id]);
      const repo = resolve(core.app.container, NOTIFICATION_TOKENS.Repository);
      await repo.pruneRead(new Date(Date.now() - 90 * 24 * 3_600_000));
      const left = await core.client.get('/api/notifications', { token: me.access_token });
      expect(left.body.map((n: { title: string }) => n.title)).toEqual(['Unread old news']);
    });
  });

  describe('audit', () => {
    it('records logins (and failures), key changes and webhook changes; a user sees their own, an admin everyone’s, with filters and paging', async () => {
      const me = await registerUser(core.client);
      const other = await registerUser(core.client);
      const admin = await registerUser(core.client, { email: ADMIN_EMAIL });
      const from = { 'X-Forwarded-For': '203.0.113.7', 'User-Agent': 'audit-test/1' };
      expect((await core.client.post('/api/auth/login', { email: me.email, password: 'wrong password!' }, { headers: from })).status).toBe(401);
      const login = await core.client.post('/api/auth/login', { email: me.email, password: me.password }, { headers: from });
      expect(login.status).toBe(200);
      const token = login.body.access_token;
      const key = await core.client.post('/api/api-keys', { name: 'ci' }, { token });
      await core.client.delete(`/api/api-keys/${key.body.id}`, { token });
      await core.client.post('/api/api-keys', { name: 'theirs' }, { token: other.access_token });

      const mine = await core.client.get('/api/audit', { token });
      expect(mine.status).toBe(200);
      const actions = mine.body.map((r: { action: string }) => r.action);
      expect(actions).toEqual(['api_key.delete', 'api_key.create', 'auth.login', 'auth.register']);
      expect(mine.body[2]).toMatchObject({ actorId: me.user.id, outcome: 'success', ip: '203.0.113.7', userAgent: 'audit-test/1', resourceType: 'user' });
      expect(mine.body[0]).toMatchObject({ resourceType: 'api_key', resourceId: key.body.id, actorRole: 'developer' });
      // The failed login has no actor: the admin sees it, by action and outcome.
      const failures = await core.client.get('/api/audit?action=auth.login', { token: admin.access_token });
      expect(failures.body).toEqual(expect.arrayContaining([expect.objectContaining({ outcome: 'failure', actorId: null, details: expect.objectContaining({ email: me.email, status: 401 }) })]));
      expect(JSON.stringify(failures.body)).not.toContain('wrong password');
      expect(JSON.stringify((await core.client.get('/api/audit?limit=100', { token: admin.access_token })).body)).not.toContain(key.body.key);

      // Filters: an action family, a resource, a user (admin only widens), a time window, paging.
      expect((await core.client.get('/api/audit?action=api_key', { token })).body).toHaveLength(2);
      expect((await core.client.get('/api/audit?resource=api_key&limit=1&page=2', { token })).body.map((r: { action: string }) => r.action)).toEqual(['api_key.create']);
      expect((await core.client.get(`/api/audit?user=${other.user.id}`, { token })).body).toEqual([]);
      expect((await core.client.get(`/api/audit?user=${other.user.id}`, { token: admin.access_token })).body.map((r: { action: string }) => r.action)).toEqual(['api_key.create', 'auth.register']);
      const future = new Date(Date.now() + 3_600_000).toISOString();
      expect((await core.client.get(`/api/audit?from=${encodeURIComponent(future)}`, { token })).body).toEqual([]);
      expect((await core.client.get(`/api/audit?to=${encodeURIComponent(future)}`, { token })).body).toHaveLength(4);
      for (const bad of ['from=yesterday', 'user=someone', 'limit=0']) expect((await core.client.get(`/api/audit?${bad}`, { token })).status).toBe(400);

      // Nothing changes a record: no such routes, and the table refuses it.
      expect((await core.client.delete(`/api/audit/${mine.body[0].id}`, { token: admin.access_token })).status).toBe(404);
      await expect(stack.infra.dataSource.query(`DELETE FROM audit_records WHERE id = $1`, [mine.body[0].id])).rejects.toThrow(/append-only/);
      await expect(stack.infra.dataSource.query(`UPDATE audit_records SET outcome = 'failure' WHERE id = $1`, [mine.body[0].id])).rejects.toThrow(/append-only/);
    });

    it('tells a user of a sign-in from an address they never signed in from', async () => {
      const me = await registerUser(core.client);
      const login = (ip: string) => core.client.post('/api/auth/login', { email: me.email, password: me.password }, { headers: { 'X-Forwarded-For': ip } });
      await login('198.51.100.1');
      await login('198.51.100.1');
      const token = (await login('198.51.100.1')).body.access_token;
      expect((await core.client.get('/api/notifications?category=security', { token })).body).toEqual([]);
      await login('192.0.2.99');
      await waitFor(async () => (await core.client.get('/api/notifications?category=security', { token })).body.length === 1);
      const [note] = (await core.client.get('/api/notifications?category=security', { token })).body;
      expect(note).toMatchObject({ type: 'warning', title: 'New sign-in from a new address' });
      expect(note.body).toContain('192.0.2.99');
    });
  });
});

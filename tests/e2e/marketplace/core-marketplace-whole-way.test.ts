import { MARKETPLACE_TOKENS as CORE_MARKETPLACE_TOKENS } from '../../../apps/core-api/modules/marketplace.tokens';
import { resolve } from '../../../apps/shared/tokens';
import { LICENSE_CACHE_MS, LICENSE_GRACE_MS } from '../../../core/marketplace/use-cases/paid-licenses';
import { RevalidateLicensesUseCase } from '../../../core/marketplace/use-cases/license-checks';
import { CheckMarketplaceUpdatesUseCase } from '../../../core/marketplace/use-cases/updates';
import { DATABASE_KINDS } from '../../support/test-database';
import { MovableClock, startCore, startMarketplaceStack, type MarketplaceStack } from '../../support/core-marketplace-stack';
import { zipOf } from '../../support/plugins/plugin-examples';
import { registerUser, userWithApplication } from '../../support/test-stack';
import { waitFor } from '../../support/wait-for';

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/** A plugin whose endpoint counts its calls in KV and says which version answered. */
const counterSource = (version: string) => `definePlugin({
  endpoints: [{ method: 'POST', path: '/count', handler: async () => {
    const n = ((await platform.kv.get('calls')) || 0) + 1;
    await platform.kv.set('calls', n);
    return { status: 200, body: { calls: n, version: '${version}', label: platform.settings.label } };
  } }],
});`;

async function packageOf(name: string, version: string): Promise<string> {
  const manifest = { name, displayName: 'Call counter', version, main: 'index.js', settings: { label: { type: 'string', default: 'calls' } } };
  return (await zipOf({ 'manifest.json': JSON.stringify(manifest), 'index.js': counterSource(version) })).toString('base64');
}

describe.each(DATABASE_KINDS)('the marketplace the whole way, through the core API and the real service (%s)', (database) => {
  const clock = new MovableClock();
  let stack: MarketplaceStack;
  let admin: string;
  let author: Awaited<ReturnType<typeof registerUser>>;

  beforeAll(async () => {
    stack = await startMarketplaceStack({ database, service: true, clock });
    admin = await stack.adminToken();
    author = await registerUser(stack.client);
  });
  afterAll(() => stack.close());

  const as = (token: string) => ({ token });

  async function submitAndApprove(name: string, extra: Record<string, unknown> = {}): Promise<string> {
    const submitted = await stack.client.post('/api/marketplace/submit/plugin', { name, slug: name, version: '1.0.0', description: 'Counts calls', category: 'analytics', package: await packageOf(name, '1.0.0'), ...extra }, as(author.access_token));
    expect(submitted.status).toBe(201);
    const id = submitted.body.id as string;
    expect((await stack.client.get(`/api/marketplace/plugins/${id}`)).status).toBe(404);
    const pending = await stack.client.get('/api/admin/marketplace', as(admin));
    expect(pending.body.configured).toBe(true);
    expect(pending.body.pending.plugins.map((p: { id: string }) => p.id)).toContain(id);
    expect(pending.body.counts.pendingPlugins).toBeGreaterThanOrEqual(1);
    expect((await stack.client.post(`/api/marketplace/admin/plugins/${id}/approve`, {}, as(author.access_token))).status).toBe(403);
    expect((await stack.client.post(`/marketplace/admin/plugins/${id}/approve`, {}, as(admin))).status).toBe(200);
    return id;
  }

  it('submit → approve → browse → install → publish 1.1.0 → the daily job finds it → upgrade keeping settings and KV → mark-updated', async () => {
    const id = await submitAndApprove('call-counter');
    const browse = await stack.client.get('/api/marketplace/browse?search=call-counter');
    expect(browse.status).toBe(200);
    expect(browse.body).toMatchObject({ total: 1, page: 1, limit: 20, data: [expect.objectContaining({ id, name: 'call-counter', version: '1.0.0' })] });

    const owner = await userWithApplication(stack.client);
    const installed = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: id, settings: { label: 'mine' } }, as(owner.token));
    expect([installed.status, installed.body.message]).toEqual([201, undefined]);
    expect(installed.body).toMatchObject({ version: '1.0.0', state: 'installed', marketplace: { pluginId: id, version: '1.0.0', isPaid: false } });
    const installation = installed.body.id as string;
    expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installation}/activate`, {}, as(owner.token))).status).toBe(200);
    const count = () => stack.client.post(`/api/plugins/${installed.body.pluginId}/endpoints/count`, {}, { headers: { 'X-Application-Id': owner.app.id } });
    expect((await count()).body).toEqual({ calls: 1, version: '1.0.0', label: 'mine' });

    const published = await stack.client.post(`/api/marketplace/plugins/${id}/versions`, { version: '1.1.0', changelog: 'Counts faster', package: await packageOf('call-counter', '1.1.0') }, as(author.access_token));
    expect(published.status).toBe(201);
    expect((await stack.client.post(`/api/marketplace/plugins/${id}/versions`, { version: '1.1.0', package: await packageOf('call-counter', '1.1.0') }, as(author.access_token))).status).toBe(409);
    expect((await stack.client.get('/api/marketplace/updates/count', as(owner.token))).body).toEqual({ count: 0 });

    const job = resolve(stack.core.app.container, CheckMarketplaceUpdatesUseCase);
    expect(await job.execute()).toMatchObject({ ran: true, found: expect.any(Number) });
    // Once a day across instances: another instance on the same database, the same day, does nothing.
    const second = await startCore(stack.infra);
    try {
      expect(await resolve(second.app.container, CheckMarketplaceUpdatesUseCase).execute()).toEqual({ ran: false, checked: 0, found: 0 });
    } finally {
      await second.close();
    }
    expect(await job.execute()).toEqual({ ran: false, checked: 0, found: 0 });
    const updates = await stack.client.get('/marketplace/updates', as(owner.token));
    expect(updates.body).toEqual([{ installedPluginId: installation, pluginId: installed.body.pluginId, marketplacePluginId: id, latestVersion: '1.1.0', currentVersion: '1.0.0', changelog: 'Counts faster' }]);
    expect((await stack.client.get('/api/marketplace/updates/count', as(owner.token))).body).toEqual({ count: 1 });
    // Nobody else sees or moves it.
    const stranger = await registerUser(stack.client);
    expect((await stack.client.get('/api/marketplace/updates', as(stranger.access_token))).body).toEqual([]);
    expect((await stack.client.post(`/api/marketplace/updates/${installation}/upgrade`, {}, as(stranger.access_token))).status).toBe(404);

    const upgraded = await stack.client.post(`/api/marketplace/updates/${installation}/upgrade`, {}, as(owner.token));
    expect(upgraded.status).toBe(200);
    expect(upgraded.body).toMatchObject({ id: installation, version: '1.1.0', previousVersion: '1.0.0', state: 'activated', settings: { label: 'mine' } });
    expect(upgraded.body.reactivationError).toBeUndefined();
    // The new code runs, on the same KV data.
    expect((await count()).body).toEqual({ calls: 2, version: '1.1.0', label: 'mine' });
    expect((await stack.client.post(`/api/marketplace/updates/${installation}/upgrade`, {}, as(owner.token))).status).toBe(409);

    expect((await stack.client.patch(`/api/marketplace/updates/${installation}/mark-updated`, { newVersion: '1.0' }, as(owner.token))).status).toBe(400);
    expect((await stack.client.patch(`/api/marketplace/updates/${installation}/mark-updated`, { newVersion: '1.1.0' }, as(stranger.access_token))).status).toBe(404);
    const marked = await stack.client.patch(`/marketplace/updates/${installation}/mark-updated`, { newVersion: '1.1.0' }, as(owner.token));
    expect(marked.status).toBe(200);
    expect(marked.body).toEqual({ success: true });
    expect((await stack.client.get('/api/marketplace/updates/count', as(owner.token))).body).toEqual({ count: 0 });
  });

  it('a paid plugin: 402 without a license, active with one, answers kept 5 minutes, 72 hours of grace when the marketplace is down, then deactivated with the reason', async () => {
    const id = await submitAndApprove('paid-counter', { isPaid: true, price: 5 });
    const owner = await userWithApplication(stack.client);
    const installed = await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { marketplacePluginId: id }, as(owner.token));
    expect(installed.status).toBe(201);
    expect(installed.body.marketplace.isPaid).toBe(true);
    const installation = installed.body.id as string;
    const activate = () => stack.client.put(`/api/applications/${owner.app.id}/plugins/${installation}/activate`, {}, as(owner.token));
    const state = async () => (await stack.client.get(`/api/applications/${owner.app.id}/plugins/${installation}`, as(owner.token))).body as { state: string; deactivationReason: string | null };
    const refused = await activate();
    expect(refused.status).toBe(402);
    expect(refused.body.message).toMatch(/license/);

    // Only the author (or an admin) issues licenses.
    expect((await stack.client.post(`/api/marketplace/plugins/${id}/licenses`, { userId: owner.user.id }, as(owner.token))).status).toBe(403);
    const license = await stack.client.post(`/api/marketplace/plugins/${id}/licenses`, { userId: owner.user.id }, as(author.access_token));
    expect(license.status).toBe(201);
    // The refusal was kept 5 minutes: still 402 until then.
    expect((await activate()).status).toBe(402);
    clock.advance(LICENSE_CACHE_MS + MINUTE);
    expect((await activate()).status).toBe(200);

    const revalidate = resolve(stack.core.app.container, RevalidateLicensesUseCase);
    // The marketplace goes down: the answer kept covers 5 minutes, then the grace period runs from the first failure.
    await stack.stopService();
    expect((await stack.client.get('/api/marketplace/browse')).status).toBe(503);
    expect(await revalidate.execute()).toEqual({ checked: 1, deactivated: 0 });
    clock.advance(LICENSE_CACHE_MS);
    expect(await revalidate.execute()).toEqual({ checked: 1, deactivated: 0 });
    clock.advance(LICENSE_GRACE_MS - HOUR);
    expect(await revalidate.execute()).toEqual({ checked: 1, deactivated: 0 });
    expect((await state()).state).toBe('activated');
    clock.advance(2 * HOUR);
    expect(await revalidate.execute()).toEqual({ checked: 1, deactivated: 1 });
    const after = await state();
    expect(after.state).toBe('deactivated');
    expect(after.deactivationReason).toMatch(/unreachable since .*72-hour grace period is over/);
    // The owner is told, with the reason.
    await waitFor(async () => {
      const notes = (await stack.client.get('/api/notifications', as(owner.token))).body as { title: string; body: string }[];
      return notes.some((n) => n.title === 'A plugin was deactivated' && /72-hour grace period/.test(n.body));
    }, 10_000);

    // Back up: activation validates again and the grace clock is cleared.
    await stack.restartService();
    expect((await activate()).status).toBe(200);
    // The license is revoked: the valid answer is kept 5 minutes, then the job deactivates with the reason.
    expect((await stack.client.delete(`/api/marketplace/plugins/${id}/licenses/${owner.user.id}`, as(author.access_token))).status).toBe(200);
    clock.advance(MINUTE);
    expect(await revalidate.execute()).toEqual({ checked: 1, deactivated: 0 });
    clock.advance(LICENSE_CACHE_MS);
    expect(await revalidate.execute()).toEqual({ checked: 1, deactivated: 1 });
    const revoked = await state();
    expect(revoked).toMatchObject({ state: 'deactivated', deactivationReason: expect.stringMatching(/license.*revoked/) });
  });

  it('a marketplace theme becomes one of your themes, selectable for an application', async () => {
    const submitted = await stack.client.post(
      '/api/marketplace/submit/theme',
      { name: 'midnight', slug: 'midnight', version: '1.0.0', category: 'minimal', manifest: { extend: 'dark' }, defaultStyles: { colors: { primary: '#3355ff' } } },
      as(author.access_token),
    );
    expect(submitted.status).toBe(201);
    expect((await stack.client.post(`/api/marketplace/admin/themes/${submitted.body.id}/approve`, {}, as(admin))).status).toBe(200);
    const owner = await userWithApplication(stack.client);
    const theme = await stack.client.post(`/api/marketplace/themes/${submitted.body.id}/install`, {}, as(owner.token));
    expect(theme.status).toBe(201);
    expect(theme.body.definition.colors.primary).toBe('#3355ff');
    const chosen = await stack.client.post(`/api/applications/${owner.app.id}/theme`, { themeId: theme.body.id }, as(owner.token));
    expect(chosen.status).toBe(200);
    const css = await stack.client.get(`/api/applications/${owner.app.id}/theme.css`);
    expect(css.text).toContain('#3355ff');
  });

  it('passes on the marketplace’s 400 naming a compatibility bound that is not SemVer, not a 502', async () => {
    const id = await submitAndApprove('bounded-counter');
    for (const [compatibility, path] of [
      [{ minPlatformVersion: 'x', maxPlatformVersion: '2.0.0' }, 'compatibility.minPlatformVersion'],
      [{ minPlatformVersion: '0.1.0', maxPlatformVersion: 'x' }, 'compatibility.maxPlatformVersion'],
    ] as const) {
      const res = await stack.client.post(`/api/marketplace/plugins/${id}/versions`, { version: '1.0.1', package: await packageOf('bounded-counter', '1.0.1'), compatibility }, as(author.access_token));
      expect([res.status, res.body.error, res.body.details?.map((d: { path: string }) => d.path)]).toEqual([400, 'Bad Request', [path]]);
      const submitted = await stack.client.post('/api/marketplace/submit/plugin', { name: 'bounded-two', slug: 'bounded-two', version: '1.0.0', package: await packageOf('bounded-two', '1.0.0'), compatibility }, as(author.access_token));
      expect([submitted.status, submitted.body.details?.map((d: { path: string }) => d.path)]).toEqual([400, [path]]);
    }
    expect((await stack.client.get(`/api/marketplace/plugins/${id}/versions`)).body.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);
  });

  it('binds the platform version the compatibility checks use', () => {
    expect(resolve(stack.core.app.container, CORE_MARKETPLACE_TOKENS.PlatformVersion)).toMatch(/^\d+\.\d+\.\d+/);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ConfigError, consoleBaseUrl, loadConfig } from '../../../apps/shared/config';
import { InMemorySubscriptionRepository } from '../../../adapters/persistence/billing/in-memory-subscription.repository';
import { InMemoryUserRepository } from '../../../adapters/persistence/in-memory/in-memory-user.repository';
import { PlanCatalog } from '../../../core/billing/domain/plans';
import { currentPlan } from '../../../core/billing/use-cases/current-plan';
import { SubscriptionPlanFeatures } from '../../../core/billing/use-cases/plan-features';
import { PlanLimitGuards } from '../../../core/billing/use-cases/plan-limit-guards';
import { platformAdmins } from '../../../core/billing/use-cases/platform-admins';

/** One user on a subscription repository that starts accounts on `initial`; `admin` makes them the platform's admin. */
async function aWorld(options: { initial?: 'free' | 'starter' | 'pro' | 'enterprise'; role?: 'admin' | 'developer'; adminEmails?: string[]; payments?: boolean } = {}) {
  const users = new InMemoryUserRepository();
  const user = await users.create({ email: 'ann@example.com', displayName: 'Ann', role: options.role ?? 'developer', passwordHash: 'x' });
  const other = await users.create({ email: 'bob@example.com', displayName: 'Bob', role: 'developer', passwordHash: 'x' });
  const subscriptions = new InMemorySubscriptionRepository(new Map([[user.id, new Date('2026-01-10T00:00:00Z')], [other.id, new Date('2026-01-10T00:00:00Z')]]), options.initial);
  const deps = {
    subscriptions,
    clock: { now: () => new Date('2026-03-01T12:00:00Z') },
    plans: new PlanCatalog(),
    admins: platformAdmins(users, options.adminEmails ?? []),
    payments: options.payments,
  };
  return { users, user, other, deps, guards: new PlanLimitGuards(deps) };
}

const messageOf = async (limit: Promise<{ exceeded(): Error } | null>) => (await limit)!.exceeded().message;

describe('the plan policy (currentPlan: the one place plan limits are decided)', () => {
  it("holds the platform's admin to no limit: applications, API keys, messages, tokens, plan features", async () => {
    const w = await aWorld({ role: 'admin' });
    expect(await w.guards.applications(w.user.id)).toBeNull();
    expect(await w.guards.apiKeys(w.user.id)).toBeNull();
    const current = await currentPlan(w.deps, w.user.id);
    expect(current.exempt).toBe(true);
    expect(current.entitlements.limits).toEqual({ includedTokens: null, applications: null, messagesPerMonth: null, apiKeys: null });
    expect(await new SubscriptionPlanFeatures(w.deps).mayHideAttribution(w.user.id)).toBe(true);
    // Everyone else keeps their plan's limits.
    expect((await w.guards.applications(w.other.id))?.max).toBe(3);
    expect((await currentPlan(w.deps, w.other.id)).exempt).toBe(false);
  });

  it('counts ADMIN_EMAILS as admins too, and a disabled admin as no one', async () => {
    const w = await aWorld({ adminEmails: ['bob@example.com'] });
    expect(await w.guards.apiKeys(w.other.id)).toBeNull();
    await w.users.update(w.other.id, { disabled: true });
    expect((await w.guards.apiKeys(w.other.id))?.max).toBe(2);
  });

  it('starts new accounts on the default plan (DEFAULT_PLAN)', async () => {
    const w = await aWorld({ initial: 'starter' });
    expect((await currentPlan(w.deps, w.other.id)).subscription).toMatchObject({ plan: 'starter', status: 'active' });
    expect((await w.guards.applications(w.other.id))?.max).toBe(10);
  });

  it('says what was hit and the one thing that lifts it: the administrator without payments, an upgrade with them', async () => {
    const off = await aWorld();
    expect(await messageOf(off.guards.applications(off.other.id))).toBe(
      "The Free plan allows 3 applications, and all are in use. To create another application, ask the platform's administrator to raise your plan.",
    );
    expect(await messageOf(off.guards.apiKeys(off.other.id, off.user.id))).toBe(
      "The team owner's plan allows 2 API keys, and all are in use. To create another API key, ask the platform's administrator to raise the team owner's plan.",
    );
    const on = await aWorld({ payments: true });
    expect(await messageOf(on.guards.apiKeys(on.other.id))).toBe('The Free plan allows 2 API keys, and all are in use. To create another API key, upgrade your plan.');
    expect(await messageOf(on.guards.applications(on.other.id, on.user.id))).toBe(
      "The team owner's plan allows 3 applications, and all are in use. To create another application, the team owner can upgrade their plan.",
    );
    expect(await new SubscriptionPlanFeatures(off.deps).attributionRefusal(off.other.id)).toBe(
      "Hiding the attribution line needs a paid plan (Starter or above). To hide it, ask the platform's administrator to raise your plan.",
    );
    expect(await new SubscriptionPlanFeatures(on.deps).attributionRefusal(on.other.id)).toMatch(/To hide it, upgrade your plan\.$/);
    for (const text of [await messageOf(off.guards.apiKeys(off.other.id)), await messageOf(on.guards.applications(on.other.id))]) {
      expect(text).not.toMatch(/\/api\/|[A-Z]+_[A-Z]+|;/);
    }
  });

  it('is not fooled by an unknown user', async () => {
    const w = await aWorld();
    await expect(w.guards.applications(randomUUID())).rejects.toThrow(/User not found/);
  });
});

describe('DEFAULT_PLAN and the console address', () => {
  const dir = mkdtempSync(join(tmpdir(), 'default-plan-'));
  const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });

  it('is free unless set, takes a plan id, and stops the start with one line on anything else', () => {
    expect(config({}).defaultPlan).toBe('free');
    expect(config({ DEFAULT_PLAN: 'pro' }).defaultPlan).toBe('pro');
    expect(config({ DEFAULT_PLAN: ' Starter ' }).defaultPlan).toBe('starter');
    expect(() => config({ DEFAULT_PLAN: 'gold' })).toThrow(ConfigError);
    expect(() => config({ DEFAULT_PLAN: 'gold' })).toThrow('DEFAULT_PLAN must be one of free, starter, pro, enterprise, not "gold"');
  });

  it('links mails to PUBLIC_BASE_URL, else to where the platform listens', () => {
    expect(consoleBaseUrl(config({ PUBLIC_BASE_URL: 'https://ai.example.com/' }))).toBe('https://ai.example.com');
    expect(consoleBaseUrl(config({ PORT: '8080' }))).toBe('http://127.0.0.1:8080');
    expect(consoleBaseUrl(config({ HOST: '0.0.0.0' }))).toBe('http://localhost:3000');
    expect(consoleBaseUrl(config({ HOST: '::1' }))).toBe('http://[::1]:3000');
  });
});

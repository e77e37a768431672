import { DEFAULT_PLANS as PLANS, overageCostUsd, PlanCatalog } from '../../../core/billing/domain/plans';

const catalog = new PlanCatalog();
const entitlementsOf: PlanCatalog['entitlementsOf'] = (tier, status) => catalog.entitlementsOf(tier, status);

describe('plans (SPEC 8)', () => {
  it('gives the prices, included tokens and overage rates of the spec', () => {
    expect(Object.values(PLANS).map((p) => [p.tier, p.priceUsdPerMonth, p.limits.includedTokens, p.overageUsdPer1k, p.platformKeys])).toEqual([
      ['free', 0, 0, null, false],
      ['starter', 29, 100_000, 0.001, true],
      ['pro', 99, 500_000, 0.0008, true],
      ['enterprise', 499, null, null, true],
    ]);
  });

  it('limits Free to 1,000 messages a month, 3 applications and 2 API keys by default', () => {
    expect(catalog.get('free').limits).toEqual({ includedTokens: 0, applications: 3, messagesPerMonth: 1_000, apiKeys: 2 });
    expect(catalog.all().map((p) => p.tier)).toEqual(['free', 'starter', 'pro', 'enterprise']);
  });

  it("takes an install's own plans, canceled subscriptions falling back to its Free", () => {
    const own = new PlanCatalog({ ...PLANS, free: { ...PLANS.free, limits: { ...PLANS.free.limits, messagesPerMonth: null } } });
    expect(own.entitlementsOf('free', 'active').limits.messagesPerMonth).toBeNull();
    expect(own.entitlementsOf('pro', 'canceled').limits.messagesPerMonth).toBeNull();
    expect(catalog.entitlementsOf('pro', 'canceled').limits.messagesPerMonth).toBe(1_000);
  });

  it('bills overage at the plan rate per 1,000 tokens', () => {
    expect(overageCostUsd(PLANS.starter, 1_500)).toBe(0.0015);
    expect(overageCostUsd(PLANS.pro, 250_000)).toBe(0.2);
    expect(overageCostUsd(PLANS.free, 1_000)).toBe(0);
    expect(overageCostUsd(PLANS.enterprise, 1_000)).toBe(0);
  });

  it('extends overage only to active paid subscriptions', () => {
    expect(entitlementsOf('starter', 'active').overageAllowed).toBe(true);
    expect(entitlementsOf('pro', 'active').overageAllowed).toBe(true);
    expect(entitlementsOf('starter', 'trialing').overageAllowed).toBe(false);
    expect(entitlementsOf('pro', 'past_due').overageAllowed).toBe(false);
    expect(entitlementsOf('enterprise', 'active').overageAllowed).toBe(false);
    expect(entitlementsOf('free', 'active').overageAllowed).toBe(false);
  });

  it('treats canceled and incomplete subscriptions as Free', () => {
    for (const status of ['canceled', 'incomplete'] as const) {
      const e = entitlementsOf('pro', status);
      expect(e.plan.tier).toBe('free');
      expect(e.platformKeys).toBe(false);
    }
    expect(entitlementsOf('pro', 'past_due').platformKeys).toBe(true);
  });
});

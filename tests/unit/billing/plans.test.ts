import { entitlementsOf, overageCostUsd, PLANS } from '../../../core/billing/domain/plans';

describe('plans (SPEC 8)', () => {
  it('gives the prices, included tokens and overage rates of the spec', () => {
    expect(Object.values(PLANS).map((p) => [p.tier, p.priceUsdPerMonth, p.limits.includedTokens, p.overageUsdPer1k, p.platformKeys])).toEqual([
      ['free', 0, 0, null, false],
      ['starter', 29, 100_000, 0.001, true],
      ['pro', 99, 500_000, 0.0008, true],
      ['enterprise', 499, null, null, true],
    ]);
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

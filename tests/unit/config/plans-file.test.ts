import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../apps/shared/config';
import { applyPlanSettings, PlanSettingsError } from '../../../core/billing/domain/plan-settings';
import { DEFAULT_PLANS } from '../../../core/billing/domain/plans';

const dir = mkdtempSync(join(tmpdir(), 'plans-file-'));
let files = 0;
/** Writes `content` (JSON unless a string) to a fresh file and loads the configuration with PLANS_FILE on it. */
const withPlans = (content: unknown) => {
  const path = join(dir, `plans-${++files}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return loadConfig({ DATA_DIR: dir, PLANS_FILE: path });
};
const unlimitedFree = {
  name: 'Community',
  priceUsdPerMonth: 0,
  platformKeys: false,
  overageUsdPer1k: null,
  limits: { includedTokens: 0, applications: null, messagesPerMonth: null, apiKeys: 25 },
};
const refusal = (content: unknown): string => {
  try {
    withPlans(content);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the plans file to be refused');
};

describe('PLANS_FILE', () => {
  it('keeps the default plans when unset or empty', () => {
    expect(loadConfig({ DATA_DIR: dir }).plans).toEqual(DEFAULT_PLANS);
    expect(loadConfig({ DATA_DIR: dir, PLANS_FILE: '' }).plans.free.limits.messagesPerMonth).toBe(1_000);
  });

  it('replaces the plans it gives, whole, and keeps the others', () => {
    const plans = withPlans({ free: unlimitedFree, pro: { ...unlimitedFree, name: 'Pro', priceUsdPerMonth: 49.5, platformKeys: true, overageUsdPer1k: 0.002, limits: { includedTokens: 2_000_000, applications: 100, messagesPerMonth: 500_000, apiKeys: 100 } } }).plans;
    expect(plans.free).toEqual({ tier: 'free', ...unlimitedFree });
    expect(plans.pro).toMatchObject({ tier: 'pro', priceUsdPerMonth: 49.5, overageUsdPer1k: 0.002, limits: { includedTokens: 2_000_000 } });
    expect(plans.starter).toEqual(DEFAULT_PLANS.starter);
    expect(plans.enterprise).toEqual(DEFAULT_PLANS.enterprise);
  });

  it('stops with one line naming the variable and a missing field', () => {
    const { apiKeys: _dropped, ...limits } = unlimitedFree.limits;
    expect(refusal({ free: { ...unlimitedFree, limits } })).toBe('PLANS_FILE: free.limits.apiKeys is required (a whole number, or null for unlimited)');
    const { name: _name, ...nameless } = unlimitedFree;
    expect(refusal({ free: nameless })).toBe('PLANS_FILE: free.name is required');
  });

  it.each([
    [{ priceUsdPerMonth: '0' }, 'PLANS_FILE: free.priceUsdPerMonth must be a number'],
    [{ platformKeys: 'yes' }, 'PLANS_FILE: free.platformKeys must be true or false'],
    [{ limits: { ...unlimitedFree.limits, messagesPerMonth: '1000' } }, 'PLANS_FILE: free.limits.messagesPerMonth must be a whole number or null for unlimited'],
    [{ limits: { ...unlimitedFree.limits, messagesPerMonth: 10.5 } }, 'PLANS_FILE: free.limits.messagesPerMonth must be a whole number or null for unlimited'],
    [{ limits: { ...unlimitedFree.limits, applications: -1 } }, 'PLANS_FILE: free.limits.applications must be 0 or more'],
    [{ limits: 5 }, 'PLANS_FILE: free.limits must be an object'],
    [{ overageUsdPer1k: false }, 'PLANS_FILE: free.overageUsdPer1k must be a number or null'],
  ])('stops with one line naming the variable and a field of the wrong type: %j', (change, message) => {
    expect(refusal({ free: { ...unlimitedFree, ...change } })).toBe(message);
  });

  it('refuses an unknown plan, an unknown field and a document that is not an object of plans', () => {
    expect(refusal({ platinum: unlimitedFree })).toBe('PLANS_FILE: unknown plan platinum; the plans are free, starter, pro, enterprise');
    expect(refusal('{"__proto__": {"name": "x"}}')).toBe('PLANS_FILE: unknown plan __proto__; the plans are free, starter, pro, enterprise');
    expect(refusal({ free: { ...unlimitedFree, messagesPerDay: 10 } })).toBe('PLANS_FILE: free has an unknown field: messagesPerDay');
    expect(refusal({ free: { ...unlimitedFree, limits: { ...unlimitedFree.limits, seats: 1 } } })).toBe('PLANS_FILE: free.limits has an unknown field: seats');
    expect(refusal([unlimitedFree])).toBe('PLANS_FILE: the plans must be a JSON object keyed by plan (free, starter, pro, enterprise)');
    expect(refusal({ free: 'unlimited' })).toBe('PLANS_FILE: free must be an object');
  });

  it('refuses a file that is not JSON or cannot be read, naming the variable', () => {
    expect(refusal('{ "free": ')).toMatch(/^PLANS_FILE is not valid JSON: /);
    expect(() => loadConfig({ DATA_DIR: dir, PLANS_FILE: join(dir, 'nope.json') })).toThrow(new ConfigError(`PLANS_FILE cannot be read (no such file): ${join(dir, 'nope.json')}`));
  });

  it('names the field in the core error too', () => {
    expect(() => applyPlanSettings(DEFAULT_PLANS, { starter: { ...unlimitedFree, name: '' } })).toThrow(PlanSettingsError);
    try {
      applyPlanSettings(DEFAULT_PLANS, { starter: { ...unlimitedFree, name: 7 } });
    } catch (error) {
      expect(error).toMatchObject({ field: 'starter.name', message: 'starter.name must be a string' });
    }
  });
});

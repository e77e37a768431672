import type { ProviderId } from '../../ai/domain/provider-id';
import type { CurrentPlan } from './current-plan';

const count = (n: number): string => n.toLocaleString('en-US');

/** The 402 text for a used-up allowance: what ran out, when it comes back, and what to do now. */
export function quotaExceededMessage(exceeded: 'messages' | 'tokens', current: CurrentPlan, provider: ProviderId): string {
  const { entitlements, period } = current;
  const resets = `it resets on ${period.end.toISOString()}`;
  if (exceeded === 'messages') {
    return `The ${entitlements.plan.name} plan allows ${count(entitlements.limits.messagesPerMonth ?? 0)} messages per month and this month's are used up; ${resets}, or upgrade your plan`;
  }
  return (
    `This month's ${count(entitlements.limits.includedTokens ?? 0)} platform tokens of the ${entitlements.plan.name} plan are used up; ${resets}. ` +
    `Add your own ${provider} key with PUT /api/provider-keys/${provider} to keep chatting (own keys are never metered)`
  );
}

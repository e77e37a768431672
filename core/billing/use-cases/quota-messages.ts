import { PROVIDER_SERVICES, type ProviderId } from '../../ai/domain/provider-id';
import type { CurrentPlan } from './current-plan';
import { PaymentRequiredError } from '../../shared/errors';

const count = (n: number): string => n.toLocaleString('en-US');
const day = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * The texts of the plan limits (402s): each says what was hit and the one thing that lifts it, true for this
 * account on this install. Plain sentences for a person: no API path, field or environment variable.
 * An upgrade is offered only where payments are configured; otherwise the platform's administrator, who
 * sets plans, is the way.
 */
export function raisePlan(current: Pick<CurrentPlan, 'payments'>, whose: 'own' | 'team owner'): string {
  if (whose === 'team owner') return current.payments ? 'the team owner can upgrade their plan' : "ask the platform's administrator to raise the team owner's plan";
  return current.payments ? 'upgrade your plan' : "ask the platform's administrator to raise your plan";
}

/** Past the applications or API keys of a plan. */
export function resourceLimitMessage(current: CurrentPlan, kind: 'applications' | 'apiKeys', whose: 'own' | 'team owner'): string {
  const max = current.entitlements.limits[kind] ?? 0;
  const what = kind === 'applications' ? (max === 1 ? 'application' : 'applications') : max === 1 ? 'API key' : 'API keys';
  const another = kind === 'applications' ? 'another application' : 'another API key';
  const lift = raisePlan(current, whose);
  if (whose === 'team owner') return `The team owner's plan allows ${count(max)} ${what}, and all are in use. To create ${another}, ${lift}.`;
  return `The ${current.entitlements.plan.name} plan allows ${count(max)} ${what}, and all are in use. To create ${another}, ${lift}.`;
}

/** A chat (or embedding) that would need the platform's provider keys, on a plan without them. */
export function platformKeysMessage(current: CurrentPlan, provider: ProviderId): string {
  const service = PROVIDER_SERVICES[provider];
  return `The ${current.entitlements.plan.name} plan does not include the platform's AI keys. To use ${service}, save your own ${service} key under Provider keys (own keys are never metered).`;
}

/** The text for a used-up allowance: what ran out, when it comes back, and what lifts it now. */
export function quotaExceededMessage(exceeded: 'messages' | 'tokens', current: CurrentPlan, provider: ProviderId): string {
  const { entitlements, period } = current;
  const back = `It starts again on ${day(period.end)}`;
  if (exceeded === 'messages') {
    return `The ${entitlements.plan.name} plan allows ${count(entitlements.limits.messagesPerMonth ?? 0)} messages per month, and this month's are used up. ${back}; to chat before then, ${raisePlan(current, 'own')}.`;
  }
  // Tokens run out only on the platform's keys: an own key for this provider is never metered.
  const service = PROVIDER_SERVICES[provider];
  return (
    `This month's ${count(entitlements.limits.includedTokens ?? 0)} platform tokens of the ${entitlements.plan.name} plan are used up. ` +
    `${back}; to chat before then, save your own ${service} key under Provider keys (own keys are never metered).`
  );
}

/*
 * The refusals themselves: the text for a person, and the limit as data (`PaymentRequiredError.limit`) for a caller
 * that is code, which the library words for a program (apps/platform/facade.ts).
 */

export function resourceLimitRefusal(current: CurrentPlan, kind: 'applications' | 'apiKeys', whose: 'own' | 'team owner'): PaymentRequiredError {
  return new PaymentRequiredError(resourceLimitMessage(current, kind, whose), { limit: kind, plan: current.entitlements.plan.tier, max: current.entitlements.limits[kind] ?? 0, whose });
}

export function platformKeysRefusal(current: CurrentPlan, provider: ProviderId): PaymentRequiredError {
  return new PaymentRequiredError(platformKeysMessage(current, provider), { limit: 'platformKeys', plan: current.entitlements.plan.tier, max: null, whose: 'own', provider });
}

export function quotaExceededRefusal(exceeded: 'messages' | 'tokens', current: CurrentPlan, provider: ProviderId): PaymentRequiredError {
  const { limits } = current.entitlements;
  const max = (exceeded === 'messages' ? limits.messagesPerMonth : limits.includedTokens) ?? 0;
  return new PaymentRequiredError(quotaExceededMessage(exceeded, current, provider), {
    limit: exceeded,
    plan: current.entitlements.plan.tier,
    max,
    whose: 'own',
    provider,
    resetsOn: day(current.period.end),
  });
}

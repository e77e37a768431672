import type { DomainEvent } from '../../events/domain/domain-event';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { EventSubscriber } from '../../events/ports/event-subscriber.port';
import type { UsageLedger } from '../ports/usage-ledger.port';
import { currentPlan, type CurrentPlanDeps } from './current-plan';

/** The shares of a period's allowance that raise `usage.limit_reached` (EVENTS.md). */
export const USAGE_THRESHOLDS = [80, 100] as const;

/**
 * Watches completed answers, off the chat path, and publishes `usage.limit_reached` when the owner's
 * tokens or messages of the period cross 80 % or 100 % of the plan's allowance: once per metric,
 * threshold and period (the outbox keeps one event per key), whichever instance sees it first.
 */
export class UsageThresholdWatcher implements EventSubscriber {
  readonly name = 'usage-thresholds';

  constructor(private readonly deps: CurrentPlanDeps & { usage: UsageLedger; events: EventPublisher }) {}

  async handle(event: DomainEvent): Promise<void> {
    if (event.type !== 'message.completed') return;
    const plan = await currentPlan(this.deps, event.ownerId);
    const limits = plan.entitlements.limits;
    // Own-key tokens are never metered, and a plan that bills overage has no ceiling to reach.
    const tokenLimit = plan.entitlements.overageAllowed ? null : limits.includedTokens;
    const messageLimit = limits.messagesPerMonth;
    const bounded = (limit: number | null): limit is number => limit !== null && limit > 0;
    // Nothing to reach (an unlimited plan, an exempt admin): no read of the counters.
    if (!bounded(tokenLimit) && !bounded(messageLimit)) return;
    // The ledger's own last write when it is the only writer (no statement), else a read.
    const used = this.deps.usage.known?.(event.ownerId, plan.period) ?? (await this.deps.usage.current(event.ownerId, plan.period));
    const metrics: Array<{ metric: 'tokens' | 'messages'; used: number; limit: number | null }> = [
      { metric: 'tokens', used: used.tokensUsed, limit: tokenLimit },
      { metric: 'messages', used: used.messagesUsed, limit: messageLimit },
    ];
    const periodEnd = plan.period.end.toISOString();
    for (const m of metrics) {
      if (!bounded(m.limit)) continue;
      for (const threshold of USAGE_THRESHOLDS) {
        if (m.used * 100 < m.limit * threshold) continue;
        await this.deps.events.publish({
          type: 'usage.limit_reached',
          ownerId: event.ownerId,
          data: { metric: m.metric, threshold, used: m.used, limit: m.limit, periodEnd },
          dedupeKey: `usage:${event.ownerId}:${m.metric}:${threshold}:${plan.period.start.toISOString()}`,
        });
      }
    }
  }
}

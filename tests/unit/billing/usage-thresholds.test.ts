import { randomUUID } from 'node:crypto';
import { InMemorySubscriptionRepository } from '../../../adapters/persistence/billing/in-memory-subscription.repository';
import { InMemoryUsageLedger } from '../../../adapters/persistence/billing/in-memory-usage-ledger';
import type { BillingPeriod } from '../../../core/billing/domain/billing-period';
import { PlanCatalog } from '../../../core/billing/domain/plans';
import { NO_USAGE, type UsageCounters } from '../../../core/billing/domain/subscription';
import { currentPlan } from '../../../core/billing/use-cases/current-plan';
import { UsageThresholdWatcher } from '../../../core/billing/use-cases/usage-thresholds.subscriber';
import type { DomainEvent, NewDomainEvent } from '../../../core/events/domain/domain-event';

/** The in-memory ledger, counting the reads of the counters it is asked for. */
class CountingLedger extends InMemoryUsageLedger {
  reads = 0;
  override async current(userId: string, period: BillingPeriod): Promise<UsageCounters> {
    this.reads++;
    return super.current(userId, period);
  }
}

/** The same ledger as one that cannot know the counters without reading them (another process writes them too). */
class SharedLedger extends CountingLedger {
  override known(): UsageCounters | undefined {
    return undefined;
  }
}

async function aWorld(usage: CountingLedger) {
  const ownerId = randomUUID();
  const subscriptions = new InMemorySubscriptionRepository(new Map([[ownerId, new Date('2026-01-10T00:00:00Z')]]), 'starter');
  const clock = { now: () => new Date('2026-03-01T12:00:00Z') };
  const deps = { subscriptions, clock, plans: new PlanCatalog() };
  const published: NewDomainEvent[] = [];
  const watcher = new UsageThresholdWatcher({ ...deps, usage, events: { publish: async (...events) => void published.push(...events) } });
  const { period } = await currentPlan(deps, ownerId);
  const completed: DomainEvent = {
    id: `evt_${randomUUID()}`,
    type: 'message.completed',
    ownerId,
    applicationId: randomUUID(),
    timestamp: clock.now().toISOString(),
    data: {},
  } as DomainEvent;
  return { ownerId, period, watcher, published, completed };
}

describe('UsageThresholdWatcher', () => {
  it.each([
    ['the ledger knows the counters from its own writes: no read', new CountingLedger(), 0],
    ['the ledger cannot know them: one read', new SharedLedger(), 1],
  ])('announces 80 %% of the Starter plan’s messages once reached (%s)', async (_, usage, reads) => {
    const { ownerId, period, watcher, published, completed } = await aWorld(usage);
    // 7,999 of 10,000 messages: below 80 %.
    usage.counters.set(`${ownerId}@${period.start.toISOString()}`, { ...NO_USAGE, messagesUsed: 7_999 });
    expect(usage.known(ownerId, period) === undefined).toBe(usage instanceof SharedLedger);
    await watcher.handle(completed);
    expect(published).toEqual([]);
    usage.counters.set(`${ownerId}@${period.start.toISOString()}`, { ...NO_USAGE, messagesUsed: 8_000 });
    await watcher.handle(completed);
    expect(published).toEqual([
      expect.objectContaining({ type: 'usage.limit_reached', ownerId, data: expect.objectContaining({ metric: 'messages', threshold: 80, used: 8_000, limit: 10_000 }) }),
    ]);
    expect(usage.reads).toBe(2 * reads);
  });
});

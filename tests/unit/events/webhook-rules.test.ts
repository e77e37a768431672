import { withoutSecrets } from '../../../core/audit/domain/audit-record';
import { NotificationsFromEvents } from '../../../core/notifications/use-cases/notifications-from-events.subscriber';
import type { Notify } from '../../../core/notifications/use-cases/notify';
import type { NewNotification } from '../../../core/notifications/domain/notification';
import { MAX_ATTEMPTS, nextAttemptAt, RETRY_SCHEDULE_MS, shouldDisable } from '../../../core/webhooks/domain/webhook';
import type { DomainEvent } from '../../../core/events/domain/domain-event';

describe('webhook retry schedule (Standard Webhooks)', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between attempts, then stops', () => {
    const waits = Array.from({ length: MAX_ATTEMPTS }, (_, i) => nextAttemptAt(i + 1, at)?.getTime() ?? null).map((t) => (t === null ? null : t - at.getTime()));
    expect(waits).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, null]);
    expect(MAX_ATTEMPTS).toBe(RETRY_SCHEDULE_MS.length + 1);
  });

  it('disables after 100 failed attempts in a row or 5 days of failures', () => {
    expect(shouldDisable({ consecutiveFailures: 99, failingSince: at }, new Date(at.getTime() + 1000))).toBe(false);
    expect(shouldDisable({ consecutiveFailures: 100, failingSince: at }, new Date(at.getTime() + 1000))).toBe(true);
    expect(shouldDisable({ consecutiveFailures: 3, failingSince: at }, new Date(at.getTime() + 5 * 86_400_000 - 1))).toBe(false);
    expect(shouldDisable({ consecutiveFailures: 3, failingSince: at }, new Date(at.getTime() + 5 * 86_400_000))).toBe(true);
    expect(shouldDisable({ consecutiveFailures: 0, failingSince: null }, new Date(at.getTime() + 100 * 86_400_000))).toBe(false);
  });
});

describe('notifications from events', () => {
  const sent: NewNotification[] = [];
  const subscriber = new NotificationsFromEvents({ send: async (n: NewNotification) => void sent.push(n) } as unknown as Notify);
  const event = (type: DomainEvent['type'], data: Record<string, unknown>): DomainEvent => ({ id: `evt_${type}`, type, ownerId: 'u1', applicationId: null, timestamp: '', data });

  beforeEach(() => sent.splice(0));

  it('warns at 80 % and errs at 100 % of the quota, once per event', async () => {
    await subscriber.handle(event('usage.limit_reached', { metric: 'tokens', threshold: 80, used: 80_000, limit: 100_000, periodEnd: 'x' }));
    await subscriber.handle(event('usage.limit_reached', { metric: 'messages', threshold: 100, used: 1000, limit: 1000, periodEnd: 'x' }));
    expect(sent.map((n) => [n.type, n.category, n.userId, n.sourceKey])).toEqual([
      ['warning', 'billing', 'u1', 'event:evt_usage.limit_reached'],
      ['error', 'billing', 'u1', 'event:evt_usage.limit_reached'],
    ]);
  });

  it('tells of a failed payment and of an automatic plugin deactivation, not of ordinary changes', async () => {
    await subscriber.handle(event('subscription.updated', { plan: 'pro', status: 'past_due', previousStatus: 'active' }));
    await subscriber.handle(event('subscription.updated', { plan: 'pro', status: 'active', previousStatus: 'active' }));
    await subscriber.handle(event('plugin.deactivated', { pluginId: 'p', applicationId: 'a', reason: 'crashed' }));
    await subscriber.handle(event('plugin.deactivated', { pluginId: 'p', applicationId: 'a' }));
    await subscriber.handle(event('message.completed', {}));
    expect(sent.map((n) => [n.category, n.title])).toEqual([
      ['billing', 'A payment failed'],
      ['plugin', 'A plugin was deactivated'],
    ]);
  });
});

describe('audit details', () => {
  it('never keeps secret-looking fields', () => {
    expect(withoutSecrets({ email: 'a@b.c', password: 'x', newPassword: 'y', token: 't', apiKey: 'k', secret: 's', status: 401, nested: { a: 1 } })).toEqual({ email: 'a@b.c', status: 401 });
  });
});

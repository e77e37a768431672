import type { Clock } from '../../shared/clock.port';
import type { WebhookNotifier } from '../../webhooks/ports/webhook-notifier.port';
import type { NewNotification } from '../domain/notification';
import type { NotificationRepository } from '../ports/notification-repository.port';

/** Creates notifications for the other areas (webhooks disabled, a login from a new address). */
export class Notify implements WebhookNotifier {
  constructor(private readonly deps: { notifications: NotificationRepository; clock: Clock }) {}

  async send(notification: NewNotification): Promise<void> {
    await this.deps.notifications.add(notification, this.deps.clock.now());
  }

  async webhookDisabled(webhook: { id: string; ownerId: string; url: string }, reason: string): Promise<void> {
    await this.send({
      userId: webhook.ownerId,
      type: 'error',
      category: 'webhook',
      title: 'A webhook was disabled',
      body: `Deliveries to ${webhook.url} kept failing. ${reason}`,
      actionUrl: `/webhooks/${webhook.id}`,
      sourceKey: `webhook-disabled:${webhook.id}:${this.deps.clock.now().toISOString()}`,
    });
  }
}

import { MAX_ATTEMPTS, nextAttemptAt, secretAssociatedData, shouldDisable } from '../domain/webhook';
import type { WebhookDeps } from './webhook-deps';

/** How long a sender holds a delivery before another may take it (the 10 s timeout plus margin), unless configured. */
export const DEFAULT_DELIVERY_LEASE_MS = 60_000;

/**
 * Sends one delivery (the job of `DELIVER_WEBHOOK_JOB`): takes it if it is due and not taken, signs and
 * POSTs it, logs the attempt, schedules the next one on the retry schedule or marks it failed, and
 * disables the webhook after five days or a hundred attempts of failures in a row.
 */
export class DeliverWebhookUseCase {
  constructor(
    private readonly deps: Pick<WebhookDeps, 'webhooks' | 'sender' | 'secretBox' | 'clock' | 'notifier'>,
    /** WEBHOOK_DELIVERY_LEASE_MS: a delivery whose sender died is taken again once this has passed. */
    private readonly leaseMs: number = DEFAULT_DELIVERY_LEASE_MS,
  ) {}

  async execute(deliveryId: string): Promise<void> {
    const { webhooks, clock } = this.deps;
    const start = clock.now();
    const claimed = await webhooks.claimDelivery(deliveryId, start, new Date(start.getTime() + this.leaseMs));
    if (!claimed) return; // not due, taken by another instance, finished, or its webhook is off
    const { delivery, webhook } = claimed;
    const attempt = delivery.attempts + 1;
    const result = await this.deps.sender.send({
      url: webhook.url,
      secret: this.deps.secretBox.open(webhook.secretSealed, secretAssociatedData(webhook.id)),
      messageId: delivery.eventId,
      timestamp: start,
      body: delivery.payload,
    });
    const at = clock.now();
    const ok = result.outcome === 'succeeded';
    const next = ok || attempt >= MAX_ATTEMPTS ? null : nextAttemptAt(attempt, at);
    const after = await webhooks.recordAttempt({
      deliveryId: delivery.id,
      webhookId: webhook.id,
      attempt,
      outcome: result.outcome,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      nextRetryAt: next,
      at,
    });
    if (!ok && after?.enabled && shouldDisable(after, at)) {
      const reason = `Disabled after ${after.consecutiveFailures} failed deliveries in a row since ${after.failingSince?.toISOString()}; last error: ${after.lastError ?? 'unknown'}`;
      if (await webhooks.disable(webhook.id, reason, at)) await this.deps.notifier?.webhookDisabled(webhook, reason);
    }
  }
}

import type { EventType } from '../../events/domain/domain-event';

export interface Webhook {
  id: string;
  ownerId: string;
  applicationId: string | null;
  url: string;
  events: EventType[];
  description: string;
  secretSealed: string;
  enabled: boolean;
  disabledReason: string | null;
  totalDeliveries: number;
  failedDeliveries: number;
  consecutiveFailures: number;
  failingSince: Date | null;
  lastError: string | null;
  lastDeliveryAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What the API shows: never the secret (it is shown once, at creation and rotation). */
export interface WebhookView {
  id: string;
  url: string;
  events: EventType[];
  applicationId: string | null;
  description: string;
  enabled: boolean;
  disabledReason: string | null;
  totalDeliveries: number;
  failedDeliveries: number;
  lastError: string | null;
  lastDeliveryAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toWebhookView = (w: Webhook): WebhookView => ({
  id: w.id,
  url: w.url,
  events: w.events,
  applicationId: w.applicationId,
  description: w.description,
  enabled: w.enabled,
  disabledReason: w.disabledReason,
  totalDeliveries: w.totalDeliveries,
  failedDeliveries: w.failedDeliveries,
  lastError: w.lastError,
  lastDeliveryAt: w.lastDeliveryAt?.toISOString() ?? null,
  createdAt: w.createdAt.toISOString(),
  updatedAt: w.updatedAt.toISOString(),
});

/** The row a sealed secret belongs to, so a sealed value copied to another webhook no longer opens. */
export const secretAssociatedData = (webhookId: string): string => `webhook:${webhookId}`;

/**
 * Waits after each failed attempt (Standard Webhooks): the first attempt is at once, the second 5 s
 * after the first failure, … the eighth 10 h after the seventh; a failed eighth attempt is final.
 */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/** When attempt `attempt + 1` is due after attempt `attempt` (1-based) failed at `at`; null: no more. */
export function nextAttemptAt(attempt: number, at: Date): Date | null {
  const wait = RETRY_SCHEDULE_MS[attempt - 1];
  return wait === undefined ? null : new Date(at.getTime() + wait);
}

/** An endpoint failing for this long, or this many attempts in a row, is disabled (EVENTS.md). */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
export const DISABLE_AFTER_CONSECUTIVE = 100;

export function shouldDisable(webhook: Pick<Webhook, 'consecutiveFailures' | 'failingSince'>, now: Date): boolean {
  if (webhook.consecutiveFailures >= DISABLE_AFTER_CONSECUTIVE) return true;
  return webhook.failingSince !== null && now.getTime() - webhook.failingSince.getTime() >= DISABLE_AFTER_MS;
}

export type AttemptOutcome = 'succeeded' | 'failed' | 'timeout' | 'refused';

/** One line of the delivery log. */
export interface DeliveryAttemptView {
  id: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  nextRetryAt: string | null;
  deliveryStatus: DeliveryStatus;
  createdAt: string;
}

export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed';

/** A delivery of one event to one webhook, as the sender needs it. */
export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
}

import type { EventType } from '../../events/domain/domain-event';
import type { AttemptOutcome, Delivery, DeliveryAttemptView, Webhook } from '../domain/webhook';

export interface NewWebhook {
  id: string;
  ownerId: string;
  applicationId: string | null;
  url: string;
  events: EventType[];
  description: string;
  secretSealed: string;
  createdAt: Date;
}

export interface AttemptRecord {
  deliveryId: string;
  webhookId: string;
  attempt: number;
  outcome: AttemptOutcome;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** When the next attempt is due; null when this one succeeded or was the last. */
  nextRetryAt: Date | null;
  at: Date;
}

/** Webhooks, their deliveries and the delivery log. */
export interface WebhookRepository {
  create(webhook: NewWebhook): Promise<Webhook>;
  findById(id: string): Promise<Webhook | null>;
  /** `ownerId`'s webhooks and those of the applications they see (theirs and their teams'; `teamId` narrows). */
  listByOwner(ownerId: string, offset: number, limit: number, teamId?: string | null): Promise<{ items: Webhook[]; total: number }>;
  update(id: string, change: Partial<Pick<Webhook, 'url' | 'events' | 'enabled' | 'description'>>, at: Date): Promise<Webhook | null>;
  replaceSecret(id: string, secretSealed: string, at: Date): Promise<void>;
  delete(id: string): Promise<void>;
  /**
   * Enabled webhooks of the owner that take `type` (all of the owner's applications, or this one) and
   * existed when the event happened at `at`.
   */
  subscribedTo(ownerId: string, type: EventType, applicationId: string | null, at: Date): Promise<Webhook[]>;
  /** One delivery per webhook and event: a second call for the same pair stores nothing and answers null. */
  addDelivery(d: { webhookId: string; eventId: string; eventType: string; payload: string; dueAt: Date }): Promise<string | null>;
  /**
   * Takes a due delivery to send it (status `pending` → `sending`, leased until `leaseUntil`), with
   * its webhook; null when it is not due, already taken, finished or its webhook is disabled.
   */
  claimDelivery(id: string, now: Date, leaseUntil: Date): Promise<{ delivery: Delivery; webhook: Webhook } | null>;
  /**
   * Records an attempt: the log line, the delivery's new state (pending again with `nextRetryAt`,
   * succeeded or failed) and the webhook's counters, in one transaction. Answers the webhook after it.
   */
  recordAttempt(record: AttemptRecord): Promise<Webhook | null>;
  disable(id: string, reason: string, at: Date): Promise<boolean>;
  /** Deliveries due at `now` (and those whose sender died, lease expired), for the sweeper. */
  due(now: Date, limit: number): Promise<Array<{ id: string; attempts: number }>>;
  findDelivery(webhookId: string, deliveryId: string): Promise<Delivery | null>;
  /** Makes a finished or waiting delivery due at `at` again (manual retry); false when it is being sent. */
  requeue(deliveryId: string, at: Date): Promise<boolean>;
  attempts(webhookId: string, offset: number, limit: number): Promise<{ items: DeliveryAttemptView[]; total: number }>;
}

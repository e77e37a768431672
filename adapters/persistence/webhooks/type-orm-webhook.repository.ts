import type { DataSource } from 'typeorm';
import type { EventType } from '../../../core/events/domain/domain-event';
import type { Delivery, DeliveryAttemptView, Webhook } from '../../../core/webhooks/domain/webhook';
import type { AttemptRecord, NewWebhook, WebhookRepository } from '../../../core/webhooks/ports/webhook-repository.port';
import { visibleScopedResources } from '../teams/visibility';
import { affected, one, rows } from '../sql';

interface WebhookRow {
  id: string;
  owner_id: string;
  application_id: string | null;
  url: string;
  events: string[];
  description: string;
  secret_sealed: string;
  enabled: boolean;
  disabled_reason: string | null;
  total_deliveries: number;
  failed_deliveries: number;
  consecutive_failures: number;
  failing_since: Date | string | null;
  last_error: string | null;
  last_delivery_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = `id, owner_id, application_id, url, events, description, secret_sealed, enabled, disabled_reason,
  total_deliveries, failed_deliveries, consecutive_failures, failing_since, last_error, last_delivery_at, created_at, updated_at`;

const date = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));
const dateOrNull = (v: Date | string | null): Date | null => (v === null ? null : date(v));

function toWebhook(r: WebhookRow): Webhook {
  return {
    id: r.id,
    ownerId: r.owner_id,
    applicationId: r.application_id,
    url: r.url,
    events: r.events as EventType[],
    description: r.description,
    secretSealed: r.secret_sealed,
    enabled: r.enabled,
    disabledReason: r.disabled_reason,
    totalDeliveries: Number(r.total_deliveries),
    failedDeliveries: Number(r.failed_deliveries),
    consecutiveFailures: Number(r.consecutive_failures),
    failingSince: dateOrNull(r.failing_since),
    lastError: r.last_error,
    lastDeliveryAt: dateOrNull(r.last_delivery_at),
    createdAt: date(r.created_at),
    updatedAt: date(r.updated_at),
  };
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: Delivery['status'];
  attempts: number;
}

const toDelivery = (r: DeliveryRow): Delivery => ({
  id: r.id,
  webhookId: r.webhook_id,
  eventId: r.event_id,
  eventType: r.event_type,
  payload: r.payload,
  status: r.status,
  attempts: Number(r.attempts),
});

/** Webhooks and their deliveries in PostgreSQL / PGlite, plain SQL. */
export class TypeOrmWebhookRepository implements WebhookRepository {
  constructor(private readonly db: DataSource) {}

  async create(w: NewWebhook): Promise<Webhook> {
    const row = await one<WebhookRow>(
      this.db,
      `INSERT INTO webhooks (id, owner_id, application_id, url, events, description, secret_sealed, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8, $8) RETURNING ${COLUMNS}`,
      [w.id, w.ownerId, w.applicationId, w.url, w.events, w.description, w.secretSealed, w.createdAt],
    );
    return toWebhook(row!);
  }

  async findById(id: string): Promise<Webhook | null> {
    const row = await one<WebhookRow>(this.db, `SELECT ${COLUMNS} FROM webhooks WHERE id = $1`, [id]);
    return row && toWebhook(row);
  }

  async listByOwner(ownerId: string, offset: number, limit: number, teamId?: string | null) {
    const team = teamId ? [teamId] : [];
    const [items, count] = await Promise.all([
      rows<WebhookRow>(this.db, `SELECT ${COLUMNS} FROM webhooks WHERE ${visibleScopedResources(teamId, '$1', '$4')} ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [ownerId, limit, offset, ...team]),
      one<{ n: string }>(this.db, `SELECT count(*) AS n FROM webhooks WHERE ${visibleScopedResources(teamId, '$1', '$2')}`, [ownerId, ...team]),
    ]);
    return { items: items.map(toWebhook), total: Number(count?.n ?? 0) };
  }

  async update(id: string, change: Partial<Pick<Webhook, 'url' | 'events' | 'enabled' | 'description'>>, at: Date): Promise<Webhook | null> {
    // Enabling clears the failure run and the reason it was disabled for.
    const row = await one<WebhookRow>(
      this.db,
      `UPDATE webhooks SET
         url = COALESCE($2, url), events = COALESCE($3::text[], events), description = COALESCE($4, description),
         enabled = COALESCE($5, enabled),
         disabled_reason = CASE WHEN $5 IS NULL THEN disabled_reason ELSE NULL END,
         consecutive_failures = CASE WHEN $5 = true AND NOT enabled THEN 0 ELSE consecutive_failures END,
         failing_since = CASE WHEN $5 = true AND NOT enabled THEN NULL ELSE failing_since END,
         updated_at = $6
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, change.url ?? null, change.events ?? null, change.description ?? null, change.enabled ?? null, at],
    );
    return row && toWebhook(row);
  }

  async replaceSecret(id: string, secretSealed: string, at: Date): Promise<void> {
    await affected(this.db, `UPDATE webhooks SET secret_sealed = $2, updated_at = $3 WHERE id = $1`, [id, secretSealed, at]);
  }

  async delete(id: string): Promise<void> {
    await affected(this.db, `DELETE FROM webhooks WHERE id = $1`, [id]);
  }

  async subscribedTo(ownerId: string, type: EventType, applicationId: string | null, at: Date): Promise<Webhook[]> {
    const found = await rows<WebhookRow>(
      this.db,
      `SELECT ${COLUMNS} FROM webhooks
       WHERE owner_id = $1 AND enabled AND $2 = ANY(events) AND (application_id IS NULL OR application_id = $3) AND created_at <= $4`,
      [ownerId, type, applicationId, at],
    );
    return found.map(toWebhook);
  }

  async addDelivery(d: { webhookId: string; eventId: string; eventType: string; payload: string; dueAt: Date }): Promise<string | null> {
    const row = await one<{ id: string }>(
      this.db,
      `INSERT INTO webhook_deliveries (webhook_id, event_id, event_type, payload, next_attempt_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (webhook_id, event_id) DO NOTHING RETURNING id`,
      [d.webhookId, d.eventId, d.eventType, d.payload, d.dueAt],
    );
    return row?.id ?? null;
  }

  async claimDelivery(id: string, now: Date, leaseUntil: Date) {
    const row = await one<DeliveryRow & { w: WebhookRow }>(
      this.db,
      `WITH taken AS (
         UPDATE webhook_deliveries d SET status = 'sending', lease_until = $3
         FROM webhooks w
         WHERE d.id = $1 AND w.id = d.webhook_id AND w.enabled AND d.next_attempt_at <= $2
           AND (d.status = 'pending' OR (d.status = 'sending' AND d.lease_until <= $2))
         RETURNING d.id, d.webhook_id, d.event_id, d.event_type, d.payload, d.status, d.attempts)
       SELECT taken.*, row_to_json(w) AS w FROM taken JOIN webhooks w ON w.id = taken.webhook_id`,
      [id, now, leaseUntil],
    );
    if (!row) return null;
    const w = typeof row.w === 'string' ? (JSON.parse(row.w) as WebhookRow) : row.w;
    return { delivery: toDelivery(row), webhook: toWebhook(w) };
  }

  async recordAttempt(r: AttemptRecord): Promise<Webhook | null> {
    const ok = r.outcome === 'succeeded';
    const status = ok ? 'succeeded' : r.nextRetryAt ? 'pending' : 'failed';
    // One statement: the log line, the delivery's state and the webhook's counters change together.
    const row = await one<WebhookRow>(
      this.db,
      `WITH logged AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, webhook_id, attempt, outcome, status_code, duration_ms, error, next_retry_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id),
       moved AS (
         UPDATE webhook_deliveries SET status = $10, attempts = $3, next_attempt_at = $8, lease_until = NULL
         WHERE id = $1 RETURNING id)
       UPDATE webhooks SET
         total_deliveries = total_deliveries + 1,
         failed_deliveries = failed_deliveries + CASE WHEN $11 THEN 0 ELSE 1 END,
         consecutive_failures = CASE WHEN $11 THEN 0 ELSE consecutive_failures + 1 END,
         failing_since = CASE WHEN $11 THEN NULL ELSE COALESCE(failing_since, $9) END,
         last_error = CASE WHEN $11 THEN last_error ELSE $7 END,
         last_delivery_at = $9
       WHERE id = $2 AND EXISTS (SELECT 1 FROM logged) AND EXISTS (SELECT 1 FROM moved)
       RETURNING ${COLUMNS}`,
      [r.deliveryId, r.webhookId, r.attempt, r.outcome, r.statusCode, r.durationMs, r.error, r.nextRetryAt, r.at, status, ok],
    );
    return row && toWebhook(row);
  }

  async disable(id: string, reason: string, at: Date): Promise<boolean> {
    return (await affected(this.db, `UPDATE webhooks SET enabled = false, disabled_reason = $2, updated_at = $3 WHERE id = $1 AND enabled`, [id, reason, at])) > 0;
  }

  async due(now: Date, limit: number) {
    const found = await rows<{ id: string; attempts: number }>(
      this.db,
      `SELECT d.id, d.attempts FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE w.enabled AND d.next_attempt_at <= $1
         AND (d.status = 'pending' OR (d.status = 'sending' AND d.lease_until <= $1))
       ORDER BY d.next_attempt_at LIMIT $2`,
      [now, limit],
    );
    return found.map((r) => ({ id: r.id, attempts: Number(r.attempts) }));
  }

  async findDelivery(webhookId: string, deliveryId: string): Promise<Delivery | null> {
    const row = await one<DeliveryRow>(
      this.db,
      `SELECT id, webhook_id, event_id, event_type, payload, status, attempts FROM webhook_deliveries WHERE id = $1 AND webhook_id = $2`,
      [deliveryId, webhookId],
    );
    return row && toDelivery(row);
  }

  async requeue(deliveryId: string, at: Date): Promise<boolean> {
    return (await affected(this.db, `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $2 WHERE id = $1 AND status <> 'sending'`, [deliveryId, at])) > 0;
  }

  async attempts(webhookId: string, offset: number, limit: number) {
    const [items, count] = await Promise.all([
      rows<{
        id: string; delivery_id: string; event_id: string; event_type: string; attempt: number; outcome: DeliveryAttemptView['outcome'];
        status_code: number | null; duration_ms: number; error: string | null; next_retry_at: Date | string | null; status: DeliveryAttemptView['deliveryStatus']; created_at: Date | string;
      }>(
        this.db,
        `SELECT a.id, a.delivery_id, d.event_id, d.event_type, a.attempt, a.outcome, a.status_code, a.duration_ms, a.error, a.next_retry_at, d.status, a.created_at
         FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
         WHERE a.webhook_id = $1 ORDER BY a.created_at DESC, a.attempt DESC LIMIT $2 OFFSET $3`,
        [webhookId, limit, offset],
      ),
      one<{ n: string }>(this.db, `SELECT count(*) AS n FROM webhook_delivery_attempts WHERE webhook_id = $1`, [webhookId]),
    ]);
    return {
      items: items.map((r) => ({
        id: r.id,
        deliveryId: r.delivery_id,
        eventId: r.event_id,
        eventType: r.event_type,
        attempt: Number(r.attempt),
        outcome: r.outcome,
        statusCode: r.status_code === null ? null : Number(r.status_code),
        durationMs: Number(r.duration_ms),
        error: r.error,
        nextRetryAt: r.next_retry_at === null ? null : date(r.next_retry_at).toISOString(),
        deliveryStatus: r.status,
        createdAt: date(r.created_at).toISOString(),
      })),
      total: Number(count?.n ?? 0),
    };
  }
}

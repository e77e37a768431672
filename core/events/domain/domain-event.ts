/** The webhook event types of EVENTS.md (SPEC 6.2), plus `webhook.test` for pings. */
export const EVENT_TYPES = [
  'message.received',
  'message.completed',
  'conversation.started',
  'conversation.archived',
  'application.created',
  'application.deleted',
  'plugin.activated',
  'plugin.deactivated',
  'api_key.revoked',
  'usage.limit_reached',
  'subscription.updated',
  'workflow.event',
  'experiment.decided',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The ping `POST /api/webhooks/:id/test` sends; never published to the outbox. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const isEventType = (value: unknown): value is EventType => typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);

/** What a use case publishes; the publisher gives it an id and a timestamp. */
export interface NewDomainEvent {
  type: EventType;
  /** The user whose resource changed: whose webhooks, plugins and notifications hear of it. */
  ownerId: string;
  applicationId?: string | null;
  /** Ids and facts, never secrets (EVENTS.md). */
  data: Record<string, unknown>;
  /** Events with the same key are stored once (a threshold crossed once per period). */
  dedupeKey?: string;
}

export interface DomainEvent extends NewDomainEvent {
  /** `evt_` + 32 hex digits; receivers de-duplicate on it. */
  id: string;
  applicationId: string | null;
  /** When it happened (ISO 8601). */
  timestamp: string;
}

/** The body a webhook receives (EVENTS.md): `{ id, type, timestamp, data }`. */
export interface EventEnvelope {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export const envelopeOf = (event: Pick<DomainEvent, 'id' | 'type' | 'timestamp' | 'data'>): EventEnvelope => ({
  id: event.id,
  type: event.type,
  timestamp: event.timestamp,
  data: event.data,
});

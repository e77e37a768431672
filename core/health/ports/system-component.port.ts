/** A component's state: `not_configured` (the platform runs without it) and `unknown` (nothing to judge by yet) count as neither. */
export type ComponentStatus = 'up' | 'degraded' | 'down' | 'not_configured' | 'unknown';

export interface ComponentProbe {
  status: ComponentStatus;
  details?: Record<string, unknown>;
  /** A short reason, never a connection string or a credential. */
  error?: string;
}

/** One part of the platform the system health reports on (database, Redis, AI service, queues, disk…). */
export interface SystemComponent {
  readonly name: string;
  /** Down makes the whole platform down (the database); other components down make it degraded. */
  readonly critical: boolean;
  probe(): Promise<ComponentProbe>;
}

/**
 * Circuit breakers, one per provider key or connection (docs/connections.md, "Circuit breaker"):
 * `failureThreshold` consecutive failures open a breaker; while open, turns skip it and go straight to
 * their fallbacks; after `openMs` it is half-open and lets one probe through at a time; a probe that
 * answers closes it, one that fails opens it again. State lives in this process (each instance learns
 * on its own), bounded to `maxEntries` breakers.
 */
export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerSnapshot {
  /** What the breaker guards, for people: a provider id or connection name and the key's last characters. */
  label: string;
  state: BreakerState;
  consecutiveFailures: number;
  /** When it opened last (ISO), if it is not closed. */
  openedAt: string | null;
}

export interface BreakerOptions {
  failureThreshold: number;
  openMs: number;
  maxEntries: number;
  now: () => number;
}

interface Entry {
  label: string;
  failures: number;
  openedAt: number | null;
  probing: boolean;
}

/** Whether a call may go through: `closed` normally, `probe` as the half-open breaker's one trial, `open` not at all. */
export type BreakerDecision = 'closed' | 'probe' | 'open';

export class CircuitBreakers {
  private readonly entries = new Map<string, Entry>();
  private readonly options: BreakerOptions;

  constructor(options: Partial<BreakerOptions> = {}) {
    this.options = { failureThreshold: 5, openMs: 30_000, maxEntries: 10_000, now: Date.now, ...options };
  }

  /** Asks to make a call through the breaker `key`; a `probe` must be followed by `succeeded` or `failed`. */
  admit(key: string, label: string): BreakerDecision {
    const entry = this.entries.get(key);
    if (!entry || entry.openedAt === null) return 'closed';
    if (this.options.now() - entry.openedAt < this.options.openMs || entry.probing) return 'open';
    entry.probing = true;
    entry.label = label;
    return 'probe';
  }

  succeeded(key: string): void {
    // A closed breaker with no failures is not kept: the map only holds breakers with something to say.
    this.entries.delete(key);
  }

  failed(key: string, label: string): void {
    let entry = this.entries.get(key);
    if (!entry) {
      if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      entry = { label, failures: 0, openedAt: null, probing: false };
      this.entries.set(key, entry);
    }
    entry.failures++;
    if (entry.probing || entry.failures >= this.options.failureThreshold) entry.openedAt = this.options.now();
    entry.probing = false;
  }

  /** A probe whose call ended without a verdict (the client went away): another may try. */
  released(key: string): void {
    const entry = this.entries.get(key);
    if (entry) entry.probing = false;
  }

  state(key: string): BreakerState {
    const entry = this.entries.get(key);
    if (!entry || entry.openedAt === null) return 'closed';
    return this.options.now() - entry.openedAt < this.options.openMs ? 'open' : 'half_open';
  }

  /** Every breaker that is not plainly closed (open, half-open, or closed with recent failures). */
  snapshot(): BreakerSnapshot[] {
    return [...this.entries.entries()].map(([key, e]) => ({
      label: e.label,
      state: this.state(key),
      consecutiveFailures: e.failures,
      openedAt: e.openedAt === null ? null : new Date(e.openedAt).toISOString(),
    }));
  }
}

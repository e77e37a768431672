import type { ComponentProbe, ComponentStatus } from '../ports/system-component.port';

/** Calls remembered per provider. */
const KEPT_CALLS = 20;
/** Calls older than this say nothing about the provider now. */
const RECENT_MS = 15 * 60_000;
/** This many failures in a row, the latest calls, make a provider down. */
const DOWN_AFTER = 3;

interface Call {
  at: number;
  failed: boolean;
  latencyMs?: number;
}

/**
 * Whether each provider answered the platform's last calls (this process's chat turns): no call in the
 * last 15 minutes is `unknown`; the last 3 calls all failed by the provider is `down`; half or more of
 * the recent calls failed is `degraded`; otherwise `up`. A refused key or a quota refusal is not the
 * provider failing and is not counted against it.
 */
export class ProviderReachability {
  private readonly calls = new Map<string, Call[]>();

  record(provider: string, failed: boolean, at: Date, latencyMs?: number): void {
    if (provider === '') return;
    const list = this.calls.get(provider) ?? [];
    list.push({ at: at.getTime(), failed, latencyMs });
    if (list.length > KEPT_CALLS) list.splice(0, list.length - KEPT_CALLS);
    this.calls.set(provider, list);
  }

  report(now: Date): ComponentProbe {
    const providers: Record<string, { status: ComponentStatus; recentCalls: number; failedCalls: number; lastCallAt: string | null; averageLatencyMs: number | null }> = {};
    let worst: ComponentStatus = 'unknown';
    for (const [provider, all] of [...this.calls].sort(([a], [b]) => a.localeCompare(b))) {
      const recent = all.filter((c) => now.getTime() - c.at <= RECENT_MS);
      const failed = recent.filter((c) => c.failed).length;
      const last = recent.slice(-DOWN_AFTER);
      const status: ComponentStatus =
        recent.length === 0 ? 'unknown' : last.length === DOWN_AFTER && last.every((c) => c.failed) ? 'down' : failed * 2 >= recent.length ? 'degraded' : 'up';
      const timed = recent.filter((c) => c.latencyMs !== undefined);
      providers[provider] = {
        status,
        recentCalls: recent.length,
        failedCalls: failed,
        lastCallAt: all.length ? new Date(all[all.length - 1]!.at).toISOString() : null,
        averageLatencyMs: timed.length ? Math.round(timed.reduce((n, c) => n + c.latencyMs!, 0) / timed.length) : null,
      };
      worst = worse(worst, status);
    }
    return { status: worst, details: { providers } };
  }
}

const RANK: Record<ComponentStatus, number> = { not_configured: 0, unknown: 0, up: 1, degraded: 2, down: 3 };
export const worse = (a: ComponentStatus, b: ComponentStatus): ComponentStatus => (RANK[b] > RANK[a] ? b : a);

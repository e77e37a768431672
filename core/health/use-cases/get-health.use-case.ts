import type { Clock } from '../../shared/clock.port';
import type { HealthCheck } from '../ports/health-check.port';

export type SystemStatus = 'healthy' | 'degraded' | 'down';

export interface HealthReport {
  status: SystemStatus;
  service: string;
  version: string;
  uptimeSeconds: number;
  timestamp: string;
  checks: Record<string, { status: 'up' | 'down'; latencyMs: number; error?: string }>;
}

const CHECK_TIMEOUT_MS = 3000;

/** Runs every check in parallel: all up is healthy, a non-critical one down is degraded, a critical one down is down. */
export class GetHealthUseCase {
  private readonly startedAt: Date;

  constructor(private readonly deps: { service: string; version: string; checks: HealthCheck[]; clock: Clock }) {
    this.startedAt = deps.clock.now();
  }

  async execute(): Promise<HealthReport> {
    const results = await Promise.all(this.deps.checks.map((c) => this.run(c)));
    const checks: HealthReport['checks'] = {};
    let status: SystemStatus = 'healthy';
    results.forEach((result, i) => {
      const check = this.deps.checks[i]!;
      checks[check.name] = result;
      if (result.status === 'down') status = check.critical ? 'down' : status === 'down' ? 'down' : 'degraded';
    });
    const now = this.deps.clock.now();
    return {
      status,
      service: this.deps.service,
      version: this.deps.version,
      uptimeSeconds: Math.round((now.getTime() - this.startedAt.getTime()) / 1000),
      timestamp: now.toISOString(),
      checks,
    };
  }

  private async run(check: HealthCheck): Promise<HealthReport['checks'][string]> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check.check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
        }),
      ]);
      return { status: 'up', latencyMs: Date.now() - started };
    } catch (error) {
      // Only a short reason: connection strings and credentials stay out of the report.
      const reason = error instanceof Error && error.message === 'timed out' ? 'timed out' : 'unreachable';
      return { status: 'down', latencyMs: Date.now() - started, error: reason };
    } finally {
      clearTimeout(timer);
    }
  }
}

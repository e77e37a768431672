import type { Clock } from '../../shared/clock.port';
import type { ComponentStatus, SystemComponent } from '../ports/system-component.port';
import type { SystemStatus } from './get-health.use-case';

export interface ComponentReport {
  status: ComponentStatus;
  critical: boolean;
  latencyMs: number;
  details?: Record<string, unknown>;
  error?: string;
}

export interface SystemHealthReport {
  status: SystemStatus;
  timestamp: string;
  components: Record<string, ComponentReport>;
}

const PROBE_TIMEOUT_MS = 3000;

/**
 * `GET /api/system-health` (admins): every component probed at once, each with its latency. The
 * rule: `down` when a critical component (the database) is down; otherwise `degraded` when any
 * component is down or degraded; otherwise `healthy`. `not_configured` and `unknown` count as neither.
 */
export class GetSystemHealthUseCase {
  constructor(private readonly deps: { components: SystemComponent[]; clock: Clock }) {}

  async execute(): Promise<SystemHealthReport> {
    const reports = await Promise.all(this.deps.components.map((c) => this.probe(c)));
    const components: Record<string, ComponentReport> = {};
    this.deps.components.forEach((c, i) => (components[c.name] = reports[i]!));
    return { status: combine(Object.values(components)), timestamp: this.deps.clock.now().toISOString(), components };
  }

  private async probe(component: SystemComponent): Promise<ComponentReport> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const latency = () => Math.round((performance.now() - started) * 10) / 10;
    try {
      const probe = await Promise.race([
        component.probe(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), PROBE_TIMEOUT_MS);
        }),
      ]);
      return { status: probe.status, critical: component.critical, latencyMs: latency(), ...(probe.details ? { details: probe.details } : {}), ...(probe.error ? { error: probe.error } : {}) };
    } catch (error) {
      // A short reason only: addresses and credentials in driver messages stay out of the report.
      const reason = error instanceof Error && error.message === 'timed out' ? 'timed out' : 'unreachable';
      return { status: 'down', critical: component.critical, latencyMs: latency(), error: reason };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The combining rule (docs/operations.md). */
export function combine(components: Array<Pick<ComponentReport, 'status' | 'critical'>>): SystemStatus {
  if (components.some((c) => c.critical && c.status === 'down')) return 'down';
  if (components.some((c) => c.status === 'down' || c.status === 'degraded')) return 'degraded';
  return 'healthy';
}

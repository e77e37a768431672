import { randomUUID } from 'node:crypto';
import type { Experiment, RolledBackArm } from '../../../core/experiments/domain/experiment';
import type { ExperimentRepository, ExperimentSettings, Promotion } from '../../../core/experiments/ports/experiment-repository.port';
import type { ConfigVersionRepository } from '../../../core/model-configs/ports/config-version-repository.port';
import type { ModelConfigRepository } from '../../../core/model-configs/ports/model-config-repository.port';

/** A/B tests in memory, for unit tests; promotions and rollbacks write through the given config and version repositories. */
export class InMemoryExperimentRepository implements ExperimentRepository {
  readonly tests = new Map<string, Experiment>();

  constructor(private readonly configs: ModelConfigRepository, private readonly versions: ConfigVersionRepository) {}

  async findByConfig(configId: string): Promise<Experiment | null> {
    const found = [...this.tests.values()].find((e) => e.configId === configId);
    return found ? structuredClone(found) : null;
  }

  async listOpenByApplication(applicationId: string): Promise<Experiment[]> {
    return [...this.tests.values()].filter((e) => e.applicationId === applicationId && (e.status === 'running' || e.status === 'winner')).map((e) => structuredClone(e));
  }

  async applicationsWithOpenTests(limit: number): Promise<string[]> {
    const ids = [...this.tests.values()].filter((e) => e.status === 'running' || (e.status === 'winner' && e.autoPromote)).map((e) => e.applicationId);
    return [...new Set(ids)].slice(0, limit);
  }

  async save(configId: string, applicationId: string, s: ExperimentSettings, restart: boolean, now: Date): Promise<Experiment> {
    const current = [...this.tests.values()].find((e) => e.configId === configId);
    const fresh = { status: 'running' as const, startedAt: now, winnerArm: null, decidedAt: null, promotedAt: null, rolledBack: [] };
    const next: Experiment = current
      ? { ...current, ...s, ...(restart ? fresh : {}), updatedAt: new Date() }
      : { id: randomUUID(), configId, applicationId, ...s, ...fresh, createdAt: now, updatedAt: now };
    this.tests.set(next.id, next);
    return structuredClone(next);
  }

  async recordDecision(id: string, decision: { status: 'winner' | 'no_difference'; winnerArm: string | null }, now: Date): Promise<boolean> {
    const e = this.tests.get(id);
    if (!e || e.status !== 'running') return false;
    Object.assign(e, { status: decision.status, winnerArm: decision.winnerArm, decidedAt: now });
    return true;
  }

  async promote(id: string, promotion: Promotion, now: Date): Promise<boolean> {
    const e = this.tests.get(id);
    if (!e || e.status !== 'winner') return false;
    Object.assign(e, { status: 'promoted', promotedAt: now });
    if (promotion.winner) await this.configs.update(e.configId, promotion.winner);
    for (const v of await this.versions.listByConfig(e.configId)) if (v.isActive) await this.versions.update(v.id, { isActive: false });
    return true;
  }

  async rollBack(id: string, arm: RolledBackArm): Promise<boolean> {
    const e = this.tests.get(id);
    const version = await this.versions.findById(arm.versionId);
    if (!e || !version || version.configId !== e.configId || !version.isActive) return false;
    await this.versions.update(version.id, { isActive: false });
    e.rolledBack.push(arm);
    return true;
  }
}

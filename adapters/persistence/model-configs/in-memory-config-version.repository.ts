import { randomUUID } from 'node:crypto';
import type { AnswerOutcome, ConfigVersion } from '../../../core/model-configs/domain/config-version';
import { MAX_VERSIONS_PER_CONFIG } from '../../../core/model-configs/domain/model-config';
import { assertTrafficFits, redistribute } from '../../../core/model-configs/domain/traffic';
import type { ConfigVersionChanges, ConfigVersionRepository, NewConfigVersion } from '../../../core/model-configs/ports/config-version-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import type { InMemoryModelConfigRepository } from './in-memory-model-config.repository';

/** Versions in memory, for unit tests; reads its configs' default flags from the config repository. */
export class InMemoryConfigVersionRepository implements ConfigVersionRepository {
  readonly versions = new Map<string, ConfigVersion>();

  constructor(private readonly configs: InMemoryModelConfigRepository) {}

  async create(v: NewConfigVersion): Promise<ConfigVersion> {
    if (!this.configs.configs.has(v.configId)) throw new NotFoundError('Model config');
    const siblings = this.ofConfig(v.configId);
    if (siblings.length >= MAX_VERSIONS_PER_CONFIG) throw new ConflictError(`A model config holds at most ${MAX_VERSIONS_PER_CONFIG} versions`);
    this.assertFreeLabel(v.configId, v.label, null);
    if (v.isActive) assertTrafficFits(siblings.filter((s) => s.isActive).map((s) => s.trafficShare), v.trafficShare);
    const now = new Date();
    const version: ConfigVersion = {
      id: randomUUID(),
      ...v,
      version: v.version ?? `v${siblings.length + 1}`,
      counters: { requestCount: 0, errorCount: 0, avgLatencyMs: 0, avgTokensUsed: 0 },
      createdAt: now,
      updatedAt: now,
    };
    this.versions.set(version.id, version);
    return structuredClone(version);
  }

  async findById(id: string) {
    const v = this.versions.get(id);
    return v && this.configs.configs.has(v.configId) ? structuredClone(v) : null;
  }

  async listByConfig(configId: string) {
    return this.ofConfig(configId).map((v) => structuredClone(v));
  }

  async update(id: string, changes: ConfigVersionChanges) {
    const v = this.versions.get(id);
    if (!v) throw new NotFoundError('Model config version');
    if (changes.label !== undefined) this.assertFreeLabel(v.configId, changes.label, id);
    if (changes.isActive ?? v.isActive) {
      const others = this.ofConfig(v.configId).filter((s) => s.isActive && s.id !== id);
      assertTrafficFits(others.map((s) => s.trafficShare), changes.trafficShare ?? v.trafficShare);
    }
    Object.assign(v, Object.fromEntries(Object.entries(changes).filter(([, x]) => x !== undefined)), { updatedAt: new Date() });
    return structuredClone(v);
  }

  async delete(id: string) {
    const v = this.versions.get(id);
    if (!v) return;
    this.versions.delete(id);
    if (!v.isActive) return;
    const remaining = this.ofConfig(v.configId).filter((s) => s.isActive);
    for (const { id: otherId, share } of redistribute(remaining.map((s) => ({ id: s.id, share: s.trafficShare })), v.trafficShare)) {
      this.versions.get(otherId)!.trafficShare = share;
    }
  }

  async activeSharesOfDefault(applicationId: string) {
    const config = [...this.configs.configs.values()].find((c) => c.applicationId === applicationId && c.isDefault);
    if (!config) return [];
    return this.ofConfig(config.id)
      .filter((v) => v.isActive && v.trafficShare > 0)
      .map((v) => ({ id: v.id, share: v.trafficShare }));
  }

  async recordOutcome(id: string, outcome: AnswerOutcome) {
    const c = this.versions.get(id)?.counters;
    if (!c) return;
    const successes = c.requestCount - c.errorCount;
    c.requestCount += 1;
    if (!outcome.ok) {
      c.errorCount += 1;
      return;
    }
    c.avgLatencyMs += (outcome.latencyMs - c.avgLatencyMs) / (successes + 1);
    c.avgTokensUsed += (outcome.totalTokens - c.avgTokensUsed) / (successes + 1);
  }

  private ofConfig(configId: string): ConfigVersion[] {
    return [...this.versions.values()].filter((v) => v.configId === configId);
  }

  private assertFreeLabel(configId: string, label: string, exceptId: string | null) {
    const taken = this.ofConfig(configId).some((v) => v.id !== exceptId && v.label.toLowerCase() === label.toLowerCase());
    if (taken) throw new ConflictError('Another version of this config already has this label');
  }
}

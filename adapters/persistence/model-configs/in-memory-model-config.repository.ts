import { randomUUID } from 'node:crypto';
import type { AnswerOutcome, VersionCounters } from '../../../core/model-configs/domain/config-version';
import { MAX_CONFIGS_PER_APPLICATION, type ModelConfig } from '../../../core/model-configs/domain/model-config';
import type { ModelConfigChanges, ModelConfigRepository, NewModelConfig } from '../../../core/model-configs/ports/model-config-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';

/** Model configs in memory, for unit tests. `owners` maps application ids to their owners. */
export class InMemoryModelConfigRepository implements ModelConfigRepository {
  readonly configs = new Map<string, ModelConfig>();
  readonly control = new Map<string, VersionCounters>();

  constructor(private readonly owners: (applicationId: string) => string | undefined) {}

  async create(c: NewModelConfig): Promise<ModelConfig> {
    if (!this.owners(c.applicationId)) throw new NotFoundError('Application');
    const mine = this.ofApplication(c.applicationId);
    if (mine.length >= MAX_CONFIGS_PER_APPLICATION) throw new ConflictError(`An application holds at most ${MAX_CONFIGS_PER_APPLICATION} model configs`);
    const makeDefault = c.makeDefault || !mine.some((x) => x.isDefault);
    if (makeDefault) for (const x of mine) x.isDefault = false;
    const now = new Date();
    const { makeDefault: _flag, ...fields } = c;
    const config: ModelConfig = { id: randomUUID(), ...fields, isDefault: makeDefault, createdAt: now, updatedAt: now };
    this.configs.set(config.id, config);
    return structuredClone(config);
  }

  async findWithOwner(id: string) {
    const config = this.configs.get(id);
    const ownerId = config && this.owners(config.applicationId);
    return config && ownerId ? { config: structuredClone(config), ownerId } : null;
  }

  async listByApplication(applicationId: string, offset: number, limit: number) {
    return this.ofApplication(applicationId).slice(offset, offset + limit).map((c) => structuredClone(c));
  }

  async findDefault(applicationId: string) {
    const found = this.ofApplication(applicationId).find((c) => c.isDefault);
    return found ? structuredClone(found) : null;
  }

  async update(id: string, changes: ModelConfigChanges) {
    const config = this.configs.get(id);
    if (!config) throw new NotFoundError('Model config');
    Object.assign(config, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)), { updatedAt: new Date() });
    return structuredClone(config);
  }

  async setDefault(id: string) {
    const config = this.configs.get(id);
    if (!config) throw new NotFoundError('Model config');
    for (const x of this.ofApplication(config.applicationId)) x.isDefault = x.id === id;
    return structuredClone(config);
  }

  async delete(id: string) {
    const config = this.configs.get(id);
    if (!config) return 'missing' as const;
    if (config.isDefault) return 'default' as const;
    this.configs.delete(id);
    return 'deleted' as const;
  }

  private ofApplication(applicationId: string): ModelConfig[] {
    return [...this.configs.values()].filter((c) => c.applicationId === applicationId);
  }

  async recordControlOutcome(id: string, outcome: AnswerOutcome): Promise<void> {
    if (!this.configs.has(id)) return;
    // Read and write without an await between them, so concurrent answers cannot lose one another.
    const c = this.control.get(id) ?? { requestCount: 0, errorCount: 0, avgLatencyMs: 0, avgTokensUsed: 0 };
    const successes = c.requestCount - c.errorCount;
    this.control.set(id, outcome.ok
      ? {
          requestCount: c.requestCount + 1,
          errorCount: c.errorCount,
          avgLatencyMs: c.avgLatencyMs + (outcome.latencyMs - c.avgLatencyMs) / (successes + 1),
          avgTokensUsed: c.avgTokensUsed + (outcome.totalTokens - c.avgTokensUsed) / (successes + 1),
        }
      : { ...c, requestCount: c.requestCount + 1, errorCount: c.errorCount + 1 });
  }

  async controlCounters(id: string): Promise<VersionCounters> {
    return { ...(this.control.get(id) ?? { requestCount: 0, errorCount: 0, avgLatencyMs: 0, avgTokensUsed: 0 }) };
  }
}

import type { ProviderId } from '../../ai/domain/provider-id';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import type { AnswerOutcome, ConfigVersion } from '../domain/config-version';
import type { TrafficShare } from '../domain/traffic';

export interface NewConfigVersion {
  configId: string;
  applicationId: string;
  /** Unset: `v<n>`, n one more than the config's versions so far. */
  version?: string;
  label: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  trafficShare: number;
  isActive: boolean;
}

export type ConfigVersionChanges = Partial<{
  version: string;
  label: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  trafficShare: number;
  isActive: boolean;
}>;

/**
 * A/B versions of model configs. Writes that touch traffic run serialised per config: the active
 * versions of a config never take more than 100% together (ValidationError naming `trafficPercent`),
 * labels are unique per config (ConflictError), and a deleted version's share is redistributed.
 */
export interface ConfigVersionRepository {
  create(version: NewConfigVersion): Promise<ConfigVersion>;
  findById(id: string): Promise<ConfigVersion | null>;
  listByConfig(configId: string): Promise<ConfigVersion[]>;
  update(id: string, changes: ConfigVersionChanges): Promise<ConfigVersion>;
  /** Deletes the version; if it was active, its share goes to the config's other active versions. */
  delete(id: string): Promise<void>;
  /** Shares of the active versions of the application's default config, for assigning new conversations. */
  activeSharesOfDefault(applicationId: string): Promise<TrafficShare[]>;
  /** Adds one answer to the version's metrics in one atomic step; nothing happens if the version is gone. */
  recordOutcome(id: string, outcome: AnswerOutcome): Promise<void>;
}

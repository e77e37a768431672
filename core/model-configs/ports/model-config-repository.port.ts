import type { ProviderId } from '../../ai/domain/provider-id';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import type { AnswerOutcome, VersionCounters } from '../domain/config-version';
import type { ModelConfig } from '../domain/model-config';

export interface NewModelConfig {
  applicationId: string;
  name: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  /** Become the default even if the application has one already. */
  makeDefault: boolean;
}

export type ModelConfigChanges = Partial<{ name: string; provider: ProviderId; modelId: string; settings: ModelSettings }>;

/**
 * Model configs of applications. Every method that can change which config is the default runs
 * serialised per application, so there is never more than one default (the database checks it too).
 */
export interface ModelConfigRepository {
  /**
   * Inserts a config; it becomes the default when asked or when the application has none yet.
   * ConflictError when the application already holds MAX_CONFIGS_PER_APPLICATION.
   */
  create(config: NewModelConfig): Promise<ModelConfig>;
  /** The config with its application's owner, for ownership checks in one query. */
  /** With its application's owner and team (null or absent for a personal application). */
  findWithOwner(id: string): Promise<{ config: ModelConfig; ownerId: string; teamId?: string | null } | null>;
  listByApplication(applicationId: string, offset: number, limit: number): Promise<ModelConfig[]>;
  findDefault(applicationId: string): Promise<ModelConfig | null>;
  update(id: string, changes: ModelConfigChanges): Promise<ModelConfig>;
  /** Makes the config its application's only default. */
  setDefault(id: string): Promise<ModelConfig>;
  /** Deletes a config that is not the default, with its versions; `default` (nothing deleted) otherwise. */
  delete(id: string): Promise<'deleted' | 'default' | 'missing'>;
  /**
   * Adds one answer of the config's own share of the traffic (the A/B control arm) to its metrics, in
   * one atomic step as a version's; nothing happens if the config is gone.
   */
  recordControlOutcome(id: string, outcome: AnswerOutcome): Promise<void>;
  /** The control arm's running figures (zero until an answer is recorded). */
  controlCounters(id: string): Promise<VersionCounters>;
}

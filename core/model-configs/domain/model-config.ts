import type { ProviderId } from '../../ai/domain/provider-id';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';

/** Which provider, model and settings (SPEC 2.2) answer an application's conversations. */
export interface ModelConfig {
  id: string;
  applicationId: string;
  name: string;
  provider: ProviderId;
  modelId: string;
  /** At most one per application (enforced by the database as well). */
  isDefault: boolean;
  settings: ModelSettings;
  createdAt: Date;
  updatedAt: Date;
}

/** SPEC 2.2 names the identifier `_id`. */
export interface ModelConfigView {
  _id: string;
  applicationId: string;
  name: string;
  provider: ProviderId;
  modelId: string;
  isDefault: boolean;
  settings: ModelSettings;
  createdAt: string;
  updatedAt: string;
}

export const toModelConfigView = (c: ModelConfig): ModelConfigView => ({
  _id: c.id,
  applicationId: c.applicationId,
  name: c.name,
  provider: c.provider,
  modelId: c.modelId,
  isDefault: c.isDefault,
  settings: c.settings,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** How many configs one application may hold, and versions one config: enough to compare, not a store. */
export const MAX_CONFIGS_PER_APPLICATION = 50;
export const MAX_VERSIONS_PER_CONFIG = 20;

import type { ConnectionFinder } from '../../connections/use-cases/model-choice';
import type { Application } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { AccessAction } from '../../access/roles';
import type { ConfigVersionRepository } from '../../model-configs/ports/config-version-repository.port';
import type { ModelConfigRepository } from '../../model-configs/ports/model-config-repository.port';
import type { PromptTemplateRepository } from '../../prompts/ports/prompt-template-repository.port';
import type { Actor } from '../../shared/actor';
import type { RetrievalSettingsRepository } from '../../knowledge/ports/retrieval-settings-repository.port';
import { initialConfig, type StudioConfig } from '../domain/studio-config';
import type { StudioDraft, StudioRepository } from '../ports/studio-repository.port';

export interface StudioDeps {
  applications: ApplicationRepository;
  configs: ModelConfigRepository;
  versions: ConfigVersionRepository;
  templates: PromptTemplateRepository;
  studio: StudioRepository;
  /** The owners' connections a draft may name as its provider (docs/connections.md). */
  connections?: ConnectionFinder;
  /** Where publishing puts a draft's own retrieval settings (the application's, docs/knowledge.md). */
  retrievalSettings?: RetrievalSettingsRepository;
}

/**
 * The application, if the caller may `read` the studio (any role that sees the application) or `write` it
 * (edit the draft, publish, restore, start an A/B test: the roles that may change model configs). core/access decides.
 */
export const studioApplication = (deps: StudioDeps, appId: unknown, actor: Actor, action: AccessAction): Promise<Application> =>
  findOwnedApplication(deps.applications, appId, actor, action);

/** The stored draft, or the live configuration as a draft not yet saved. */
export async function currentDraft(deps: StudioDeps, applicationId: string): Promise<{ config: StudioConfig; stored: StudioDraft | null }> {
  const stored = await deps.studio.findDraft(applicationId);
  if (stored) return { config: stored.config, stored };
  const live = await deps.configs.findDefault(applicationId);
  const template = live?.settings.systemPrompt ? null : await deps.templates.findDefault(applicationId);
  return { config: initialConfig(live, template?.content ?? null), stored: null };
}

import { modelChoiceResolver } from '../../connections/use-cases/model-choice';
import { roleOn } from '../../access/access-policy';
import { allows } from '../../access/roles';
import type { Application } from '../../applications/domain/application';
import type { Actor } from '../../shared/actor';
import { applyConfigPatch, diffConfigs, settingRanges, variableNames, type StudioConfig } from '../domain/studio-config';
import { liveConfiguration, type LiveConfigurationView } from './live-configuration';
import { currentDraft, studioApplication, type StudioDeps } from './studio-deps';

export interface StudioDraftView {
  applicationId: string;
  applicationName: string;
  config: StudioConfig;
  /** The `{{placeholders}}` the instructions use, in order: each gets an input in the debug chat. */
  variables: string[];
  /** False until the draft is first saved: it is then the live configuration as it stands. */
  saved: boolean;
  updatedAt: string | null;
  /** The version the draft started from (published as, or restored from); null before the first. */
  basedOnVersion: number | null;
  latestVersion: number | null;
  /** Whether the draft differs from the latest published version (from the live configuration when none). */
  unpublishedChanges: boolean;
  live: LiveConfigurationView;
  ranges: ReturnType<typeof settingRanges>;
  /** Whether the caller's role may save, publish, restore and start A/B tests (the API stays the authority). */
  canEdit: boolean;
}

export async function draftView(deps: StudioDeps, application: Application, actor: Actor): Promise<StudioDraftView> {
  const { config, stored } = await currentDraft(deps, application.id);
  const latest = await deps.studio.latestVersion(application.id);
  const live = await liveConfiguration(deps, application.id);
  const unpublishedChanges = latest ? diffConfigs(latest.config, config).some((d) => d.changed) : stored !== null;
  return {
    applicationId: application.id,
    applicationName: application.name,
    config,
    variables: variableNames(config),
    saved: stored !== null,
    updatedAt: stored ? stored.updatedAt.toISOString() : null,
    basedOnVersion: stored?.basedOnVersion ?? null,
    latestVersion: latest?.number ?? null,
    unpublishedChanges,
    live,
    ranges: settingRanges(),
    canEdit: await mayEdit(deps, application, actor),
  };
}

/** `GET /api/applications/:appId/studio/draft`: the draft, what end users get now, and where each value comes from. */
export class GetStudioDraftUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, actor: Actor): Promise<StudioDraftView> {
    const application = await studioApplication(this.deps, appId, actor, 'read');
    return draftView(this.deps, application, actor);
  }
}

/** `PUT /api/applications/:appId/studio/draft`: saves changes to the draft; end users keep the published version. */
export class SaveStudioDraftUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, input: unknown, actor: Actor): Promise<StudioDraftView> {
    const application = await studioApplication(this.deps, appId, actor, 'write');
    const { config, stored } = await currentDraft(this.deps, application.id);
    const next = await applyConfigPatch(config, input, modelChoiceResolver(this.deps.connections, { ownerId: application.ownerId, teamId: application.teamId ?? null }));
    await this.deps.studio.saveDraft({ applicationId: application.id, config: next, basedOnVersion: stored?.basedOnVersion ?? null, updatedBy: actor.userId });
    return draftView(this.deps, application, actor);
  }
}

/** The same rule the writes check (core/access), asked ahead so the console can disable what the role cannot do. */
async function mayEdit(deps: StudioDeps, application: Application, actor: Actor): Promise<boolean> {
  const role = await roleOn(application, actor, deps.applications);
  return role !== null && allows(role, 'write');
}

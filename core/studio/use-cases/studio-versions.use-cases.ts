import * as yup from 'yup';
import type { ConfigVersionView } from '../../model-configs/domain/config-version';
import type { CreateConfigVersionUseCase } from '../../model-configs/use-cases/create-config-version.use-case';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { validate } from '../../shared/validation';
import { trafficPercentField } from '../../model-configs/domain/config-fields';
import { diffConfigs, runSettings, type FieldDiff, type StudioConfig } from '../domain/studio-config';
import type { StudioVersion } from '../ports/studio-repository.port';
import { toStudioVersionView, type StudioVersionView } from './publish-studio.use-case';
import { draftView, type StudioDraftView } from './studio-draft.use-cases';
import { currentDraft, studioApplication, type StudioDeps } from './studio-deps';

/** A version number from a path or query: a positive integer written in digits. */
function versionNumber(raw: unknown, path: string): number {
  const n = typeof raw === 'string' && /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw ValidationError.field(path, `${path} must be a version number (1, 2, ...) or "draft"`);
  return n;
}

async function findVersion(deps: StudioDeps, applicationId: string, raw: unknown): Promise<StudioVersion> {
  const version = await deps.studio.findVersion(applicationId, versionNumber(raw, 'version'));
  if (!version) throw new NotFoundError('Version');
  return version;
}

/** `GET /api/applications/:appId/studio/versions`: published versions, newest first, paged. */
export class ListStudioVersionsUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<StudioVersionView>> {
    const application = await studioApplication(this.deps, appId, actor, 'read');
    const page = parsePageRequest(query);
    const { data, total } = await this.deps.studio.listVersions(application.id, offsetOf(page), page.limit);
    return { data: data.map(toStudioVersionView), total, page: page.page, limit: page.limit };
  }
}

/** `GET /api/applications/:appId/studio/versions/:number`. */
export class GetStudioVersionUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, number: string, actor: Actor): Promise<StudioVersionView> {
    const application = await studioApplication(this.deps, appId, actor, 'read');
    return toStudioVersionView(await findVersion(this.deps, application.id, number));
  }
}

/**
 * `POST /api/applications/:appId/studio/versions/:number/restore`: the version's configuration becomes the
 * draft, as Dify's "restore" does; end users keep the live version until the draft is published.
 */
export class RestoreStudioVersionUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, number: string, actor: Actor): Promise<StudioDraftView> {
    const application = await studioApplication(this.deps, appId, actor, 'write');
    const version = await findVersion(this.deps, application.id, number);
    await this.deps.studio.saveDraft({ applicationId: application.id, config: version.config, basedOnVersion: version.number, updatedBy: actor.userId });
    return draftView(this.deps, application, actor);
  }
}

export interface StudioDiffView {
  from: { label: string; version: number | null };
  to: { label: string; version: number | null };
  fields: FieldDiff[];
  changed: number;
}

/**
 * `GET /api/applications/:appId/studio/diff?from=&to=`: two configurations field by field; each side is
 * a version number or `draft` (defaults: the latest version against the draft).
 */
export class DiffStudioVersionsUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, query: { from?: unknown; to?: unknown }, actor: Actor): Promise<StudioDiffView> {
    const application = await studioApplication(this.deps, appId, actor, 'read');
    const side = async (raw: unknown, path: 'from' | 'to'): Promise<{ label: string; version: number | null; config: StudioConfig }> => {
      if (raw === undefined && path === 'from') {
        const latest = await this.deps.studio.latestVersion(application.id);
        if (!latest) throw ValidationError.field('from', 'Nothing is published yet: give from as "draft" or a version number');
        return { label: `Version ${latest.number}`, version: latest.number, config: latest.config };
      }
      if (raw === undefined || raw === 'draft') return { label: 'Draft', version: null, config: (await currentDraft(this.deps, application.id)).config };
      const version = await this.deps.studio.findVersion(application.id, versionNumber(raw, path));
      if (!version) throw new NotFoundError('Version');
      return { label: `Version ${version.number}`, version: version.number, config: version.config };
    };
    const from = await side(query.from, 'from');
    const to = await side(query.to, 'to');
    const fields = diffConfigs(from.config, to.config);
    return { from: { label: from.label, version: from.version }, to: { label: to.label, version: to.version }, fields, changed: fields.filter((f) => f.changed).length };
  }
}

const abSchema = yup.object({ trafficPercent: trafficPercentField().required('trafficPercent is required') });

/**
 * `POST /api/applications/:appId/studio/versions/:number/ab-test`: the version goes under A/B test as an
 * active version of the application's default model config (SPEC 2.4), taking `trafficPercent` of new
 * conversations; the rest stays with the live configuration. Metrics and traffic are then managed as any version's.
 */
export class StartStudioAbTestUseCase {
  constructor(private readonly deps: StudioDeps & { createVersion: CreateConfigVersionUseCase }) {}

  async execute(appId: string, number: string, input: unknown, actor: Actor): Promise<ConfigVersionView> {
    const application = await studioApplication(this.deps, appId, actor, 'write');
    const body = await validate(abSchema, input);
    const version = await findVersion(this.deps, application.id, number);
    const live = await this.deps.configs.findDefault(application.id);
    if (!live) throw new ConflictError('Publish a version first: an A/B test compares a version with the live configuration');
    const label = `Studio version ${version.number}`;
    return this.deps.createVersion.execute(
      live.id,
      { label, provider: version.config.provider, modelId: version.config.modelId, settings: abSettings(version.config), trafficPercent: body.trafficPercent, isActive: true },
      actor,
    );
  }
}

/**
 * A version's settings as the A/B version stores them: exactly the version's (the model-config area would
 * otherwise inherit the live config's values for the ones it leaves out; `null` clears them).
 */
const abSettings = (config: StudioConfig): Record<string, unknown> => ({
  frequencyPenalty: null,
  presencePenalty: null,
  systemPrompt: null,
  ...runSettings(config),
});

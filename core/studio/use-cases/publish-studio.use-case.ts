import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { str, validate } from '../../shared/validation';
import { MAX_NOTE_LENGTH, runSettings } from '../domain/studio-config';
import type { StudioVersion } from '../ports/studio-repository.port';
import { currentDraft, studioApplication, type StudioDeps } from './studio-deps';

export interface StudioVersionView {
  id: string;
  number: number;
  note: string;
  publishedBy: { id: string; email: string } | null;
  publishedAt: string;
  config: StudioVersion['config'];
}

export const toStudioVersionView = (v: StudioVersion): StudioVersionView => ({
  id: v.id,
  number: v.number,
  note: v.note,
  publishedBy: v.publishedBy,
  publishedAt: v.publishedAt.toISOString(),
  config: v.config,
});

const schema = yup.object({
  note: str().typeError('note must be text').max(MAX_NOTE_LENGTH, `note must be at most ${MAX_NOTE_LENGTH} characters`),
});

/** The name of the model config publishing creates when the application has none. */
export const STUDIO_CONFIG_NAME = 'Studio';

/**
 * `POST /api/applications/:appId/studio/publish`: the saved draft becomes what end users get. The
 * application's default model config takes its provider, model and settings, with the instructions
 * rendered with the variables' values as its system prompt (a config named "Studio" is created when
 * there is none), and the draft is stored as the next numbered, immutable version with the note.
 */
export class PublishStudioUseCase {
  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, input: unknown, actor: Actor): Promise<StudioVersionView> {
    const application = await studioApplication(this.deps, appId, actor, 'write');
    const body = await validate(schema, input ?? {});
    const { config } = await currentDraft(this.deps, application.id);
    const settings = runSettings(config);
    const live = await this.deps.configs.findDefault(application.id);
    if (live) await this.deps.configs.update(live.id, { provider: config.provider, modelId: config.modelId, settings });
    else await this.deps.configs.create({ applicationId: application.id, name: STUDIO_CONFIG_NAME, provider: config.provider, modelId: config.modelId, settings, makeDefault: true });
    const version = await this.deps.studio.publish({ applicationId: application.id, note: body.note ?? '', config, publishedBy: actor.userId });
    return toStudioVersionView(version);
  }
}

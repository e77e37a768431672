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
 * there is none), the draft's own retrieval settings (if it has them) become the application's, and the draft is
 * stored as the next numbered, immutable version with the note.
 */
export class PublishStudioUseCase {
  // Publishes of one application run one after another in this process, so the live config is always the latest
  // version's and a first publish creates one config, not one per concurrent request.
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: StudioDeps) {}

  async execute(appId: string, input: unknown, actor: Actor): Promise<StudioVersionView> {
    const application = await studioApplication(this.deps, appId, actor, 'write');
    const body = await validate(schema, input ?? {});
    return this.inTurn(application.id, () => this.publish(application.id, body.note ?? '', actor));
  }

  private async publish(applicationId: string, note: string, actor: Actor): Promise<StudioVersionView> {
    const { config } = await currentDraft(this.deps, applicationId);
    const settings = runSettings(config);
    const live = await this.deps.configs.findDefault(applicationId);
    if (live) await this.deps.configs.update(live.id, { provider: config.provider, modelId: config.modelId, settings });
    else await this.deps.configs.create({ applicationId, name: STUDIO_CONFIG_NAME, provider: config.provider, modelId: config.modelId, settings, makeDefault: true });
    // A draft with retrieval settings of its own makes them the application's.
    if (config.retrieval) await this.deps.retrievalSettings?.save(applicationId, config.retrieval);
    const version = await this.deps.studio.publish({ applicationId, note, config, publishedBy: actor.userId });
    return toStudioVersionView(version);
  }

  private inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(key) ?? Promise.resolve()).then(work, work);
    const tail = next.catch(() => undefined);
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return next;
  }
}

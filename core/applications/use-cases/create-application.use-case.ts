import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { Actor } from '../../shared/actor';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import { ConflictError } from '../../shared/errors';
import type { OwnerLimit } from '../../shared/owner-limit';
import { uuidField, validate } from '../../shared/validation';
import { slugify, toApplicationView, type ApplicationView } from '../domain/application';
import { allowedOriginsField, descriptionField, nameField, slugField } from '../domain/application-fields';
import type { NewApplication, ApplicationRepository } from '../ports/application-repository.port';
import type { Application } from '../domain/application';
import { teamHolder, type TeamDirectory } from './team-holder';

const schema = yup.object({
  name: nameField().required('name is required'),
  description: descriptionField(),
  slug: slugField(),
  allowedOrigins: allowedOriginsField(),
  teamId: uuidField('teamId'),
});

/**
 * Optional: how many applications the owner the new application will have may hold (the owner's plan's
 * limit plugs in here); null for no limit. The repository enforces it atomically with the insert, so
 * concurrent creations cannot pass it. `callerId` is who asks: when it is not the owner (a team's Admin),
 * the refusal says whose plan is full.
 */
export type ApplicationQuotaGuard = (ownerId: string, callerId?: string) => Promise<OwnerLimit | null>;

/**
 * Creates an application with a platform-unique slug (the caller's, or one derived from the name): the
 * caller's own, or with `teamId` directly in that team (the rule of `teamHolder`: the team's Owner owns it,
 * and their plan's quota applies), in one insert.
 */
export class CreateApplicationUseCase {
  constructor(
    private readonly deps: { applications: ApplicationRepository; guard?: ApplicationQuotaGuard; events?: EventPublisher; unitOfWork?: UnitOfWork; teams?: TeamDirectory },
  ) {}

  async execute(input: unknown, actor: Actor): Promise<ApplicationView> {
    const body = await validate(schema, input);
    const holder = body.teamId
      ? await teamHolder(this.deps.teams, body.teamId, actor, 'Creating an application in a team')
      : { teamId: null, ownerId: actor.userId };
    const limit = (await this.deps.guard?.(holder.ownerId, actor.userId)) ?? null;
    const base = { ...holder, name: body.name, description: body.description ?? '', allowedOrigins: body.allowedOrigins ?? [] };
    if (body.slug) return toApplicationView(await this.create({ ...base, slug: body.slug }, limit));
    const derived = slugify(body.name);
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = attempt === 0 ? derived : `${derived.slice(0, 50)}-${randomBytes(3).toString('hex')}`;
      try {
        return toApplicationView(await this.create({ ...base, slug }, limit));
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    throw new ConflictError('Could not find a free slug; please choose one');
  }

  /** The insert and its `application.created` event commit together. */
  private create(app: NewApplication, limit: OwnerLimit | null): Promise<Application> {
    const { applications, events, unitOfWork } = this.deps;
    const work = async () => {
      const created = await applications.create(app, limit);
      await events?.publish({ type: 'application.created', ownerId: created.ownerId, applicationId: created.id, data: { applicationId: created.id, name: created.name } });
      return created;
    };
    return unitOfWork ? unitOfWork.run(work) : work();
  }
}

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
import type { ApplicationHolder, NewApplication, ApplicationRepository } from '../ports/application-repository.port';
import type { Application } from '../domain/application';
import { placeInTeam, type TeamDirectory } from './team-holder';

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
    const fields = { name: body.name, description: body.description ?? '', allowedOrigins: body.allowedOrigins ?? [] };
    if (body.slug) return toApplicationView(await this.create(body.teamId, actor, { ...fields, slug: body.slug }));
    const derived = slugify(body.name);
    for (let attempt = 0; attempt < 5; attempt++) {
      const slug = attempt === 0 ? derived : `${derived.slice(0, 50)}-${randomBytes(3).toString('hex')}`;
      try {
        return toApplicationView(await this.create(body.teamId, actor, { ...fields, slug }));
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    throw new ConflictError('Could not find a free slug; please choose one');
  }

  /**
   * The insert and its `application.created` event commit together; in a team, with the caller's role and the
   * team's Owner read under the team's lock in the same transaction (`placeInTeam`).
   */
  private create(teamId: string | undefined, actor: Actor, fields: Omit<NewApplication, 'ownerId' | 'teamId'>): Promise<Application> {
    const { applications, events, unitOfWork, guard } = this.deps;
    const insert = async (holder: ApplicationHolder, limit: OwnerLimit | null) => {
      const created = await applications.create({ ...holder, ...fields }, limit);
      await events?.publish({ type: 'application.created', ownerId: created.ownerId, applicationId: created.id, data: { applicationId: created.id, name: created.name } });
      return created;
    };
    if (teamId) return placeInTeam(this.deps, teamId, actor, 'Creating an application in a team', insert);
    const holder = { teamId: null, ownerId: actor.userId };
    return (async () => {
      const limit = (await guard?.(holder.ownerId, actor.userId)) ?? null;
      return unitOfWork ? unitOfWork.run(() => insert(holder, limit)) : insert(holder, limit);
    })();
  }
}

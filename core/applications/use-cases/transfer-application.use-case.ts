import * as yup from 'yup';
import { allows, type TeamRole } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { ForbiddenError, NotFoundError } from '../../shared/errors';
import { uuidField, validate } from '../../shared/validation';
import { toApplicationView, type ApplicationView } from '../domain/application';
import type { ApplicationRepository } from '../ports/application-repository.port';
import { findOwnedApplication } from './find-owned-application';

/** Who holds a team and who may move applications into it; the teams area answers. */
export interface TeamDirectory {
  ownerOf(teamId: string): Promise<string | null>;
  roleInTeam(teamId: string, userId: string): Promise<TeamRole | null>;
}

const schema = yup.object({ teamId: uuidField('teamId').required('teamId is required') });

/**
 * Moves an application (and everything under it) to a team. The caller must hold the application's
 * `delete` right (its owner, or the Owner of the team holding it) and be an Admin or the Owner of the
 * target team. The team's Owner becomes the application's owner: their plan and quota apply.
 */
export class TransferApplicationUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; teams: TeamDirectory }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<ApplicationView> {
    const app = await findOwnedApplication(this.deps.applications, id, actor, 'delete');
    const { teamId } = await validate(schema, input);
    const role = await this.deps.teams.roleInTeam(teamId, actor.userId);
    if (!role) throw new NotFoundError('Team');
    if (!allows(role, 'manage')) throw new ForbiddenError(`Moving an application into a team needs the Admin role there; yours is ${role}`);
    const ownerId = await this.deps.teams.ownerOf(teamId);
    if (!ownerId) throw new NotFoundError('Team');
    return toApplicationView(await this.deps.applications.moveTo(app.id, { teamId, ownerId }));
  }
}

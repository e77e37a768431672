import { allows, type TeamRole } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { ForbiddenError, NotFoundError } from '../../shared/errors';
import type { ApplicationHolder } from '../ports/application-repository.port';

/** Who holds a team and who may place applications in it; the teams area answers. */
export interface TeamDirectory {
  ownerOf(teamId: string): Promise<string | null>;
  roleInTeam(teamId: string, userId: string): Promise<TeamRole | null>;
}

/**
 * The one rule for placing an application in a team, whether it is created there or moved there: the caller
 * must be an Admin or the Owner of the team (a team they are not in is a 404, as if it did not exist; a lower
 * role a 403 saying why). Answers the holder the application gets: the team, with the team's Owner as its
 * owner, whose plan and quota apply. `doing` names the act in the 403 ("Creating an application in a team").
 */
export async function teamHolder(teams: TeamDirectory | undefined, teamId: string, actor: Actor, doing: string): Promise<ApplicationHolder> {
  const role = teams ? await teams.roleInTeam(teamId, actor.userId) : null;
  if (!teams || !role) throw new NotFoundError('Team');
  if (!allows(role, 'manage')) throw new ForbiddenError(`${doing} needs the Admin role there; yours is ${role}`);
  const ownerId = await teams.ownerOf(teamId);
  if (!ownerId) throw new NotFoundError('Team');
  return { teamId, ownerId };
}

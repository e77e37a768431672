import { allows, type TeamRole } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { ConflictError, ForbiddenError, NotFoundError } from '../../shared/errors';
import type { OwnerLimit } from '../../shared/owner-limit';
import { noUnitOfWork, type UnitOfWork } from '../../shared/unit-of-work.port';
import type { ApplicationHolder } from '../ports/application-repository.port';
import type { ApplicationQuotaGuard } from './create-application.use-case';

/** Who holds a team and who may place applications in it; the teams area answers. */
export interface TeamDirectory {
  ownerOf(teamId: string): Promise<string | null>;
  roleInTeam(teamId: string, userId: string): Promise<TeamRole | null>;
  /**
   * Locks the team's row until the ambient unit of work ends (an ownership transfer locks it too, so the two
   * take turns); false when there is no such team. A directory in memory, with no concurrent writer, has none.
   */
  lockTeam?(teamId: string): Promise<boolean>;
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

const ATTEMPTS = 3;

/**
 * Places an application in a team (`place` inserts or moves it) in one unit of work that first locks the team's
 * row, then reads the caller's role and the team's Owner (`teamHolder`): an ownership transfer of the team, which
 * takes the same lock, is either wholly before (the new Owner owns the application) or wholly after (and moves
 * it with the team's others); never the previous Owner's application in a team that is no longer theirs. The
 * quota guard reads the Owner's plan before the unit of work (it is no statement of the transaction); when the
 * Owner read under the lock is another than the guard was asked about, the work starts again for the new Owner.
 */
export async function placeInTeam<T>(
  deps: { teams?: TeamDirectory; unitOfWork?: UnitOfWork; guard?: ApplicationQuotaGuard },
  teamId: string,
  actor: Actor,
  doing: string,
  place: (holder: ApplicationHolder, limit: OwnerLimit | null) => Promise<T>,
): Promise<T> {
  const unitOfWork = deps.unitOfWork ?? noUnitOfWork;
  // Read once before, so a refusal costs no transaction and the guard knows whose plan counts.
  let expected = await teamHolder(deps.teams, teamId, actor, doing);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const limit = (await deps.guard?.(expected.ownerId, actor.userId)) ?? null;
    const outcome = await unitOfWork.run(async (): Promise<{ done: T } | { owner: ApplicationHolder }> => {
      if (deps.teams?.lockTeam && !(await deps.teams.lockTeam(teamId))) throw new NotFoundError('Team');
      const holder = await teamHolder(deps.teams, teamId, actor, doing);
      if (holder.ownerId !== expected.ownerId) return { owner: holder };
      return { done: await place(holder, limit) };
    });
    if ('done' in outcome) return outcome.done;
    expected = outcome.owner;
  }
  throw new ConflictError('The team changed owners while the application was placed in it; try again');
}

import { authorize } from '../../access/access-policy';
import { atLeast, type AccessAction, type TeamRole } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { ForbiddenError, NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import type { Team } from '../domain/team';
import type { TeamRepository } from '../ports/team-repository.port';

/**
 * The team if the caller may perform `action` on it, with their role (core/access decides: a
 * non-member gets a 404, a member whose role does not allow it a 403).
 */
export async function findTeamAs(teams: TeamRepository, id: unknown, actor: Actor, action: AccessAction): Promise<{ team: Team; role: TeamRole }> {
  const team = isUuid(id) ? await teams.findById(id) : null;
  const role = await authorize(team && { ownerId: '', teamId: team.id }, actor, action, 'Team', teams);
  return { team: team!, role };
}

/**
 * Whether a member of role `actorRole` may give `target` to someone, or act on a member holding it:
 * the Owner on everyone else, an Admin on Members and Viewers only ("members below Admin"), a Member
 * (where Members may invite) on Members and Viewers when inviting.
 */
export function mayAssign(actorRole: TeamRole, target: TeamRole): boolean {
  if (target === 'owner') return false;
  if (actorRole === 'owner') return true;
  return atLeast('member', target) && atLeast(actorRole, 'member');
}

export function assertMayAssign(actorRole: TeamRole, target: TeamRole): void {
  if (!mayAssign(actorRole, target)) throw new ForbiddenError(`Your role (${actorRole}) may not manage the ${target} role`);
}

export const teamMemberNotFound = () => new NotFoundError('Team member');

/** One page (`?page=&limit=`) of a team's short list (members, invitations, keys: bounded by the team's size). */
export function pageOf<T>(items: T[], query: { page?: unknown; limit?: unknown }): Page<T> {
  const request = parsePageRequest(query);
  const from = offsetOf(request);
  return { data: items.slice(from, from + request.limit), total: items.length, page: request.page, limit: request.limit };
}

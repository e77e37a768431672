import type { Actor } from '../shared/actor';
import { ForbiddenError, NotFoundError } from '../shared/errors';
import { allows, type AccessAction, type TeamRole } from './roles';

/** What the policy needs to know about a resource: its owner, and its team when a team holds it. */
export interface Ownership {
  ownerId: string;
  /** Null or absent for a personal resource. */
  teamId?: string | null;
}

/** The role a user holds in a team, or null when they are not a member. Read fresh on every decision. */
export interface TeamRoleLookup {
  roleInTeam(teamId: string, userId: string): Promise<TeamRole | null>;
}

/**
 * The caller's role on a resource: `owner` on their own personal resources, their team role on a team's,
 * null when they may not even see it.
 */
export async function roleOn(resource: Ownership, actor: Actor, teams: TeamRoleLookup | null): Promise<TeamRole | null> {
  if (!resource.teamId || !teams) return resource.ownerId === actor.userId ? 'owner' : null;
  return teams.roleInTeam(resource.teamId, actor.userId);
}

/**
 * The one authorization rule: a caller with no role on the resource gets a 404 that does not tell "not
 * yours" from "does not exist"; one whose role does not allow `action` gets a 403. Answers the role held.
 */
export async function authorize(resource: Ownership | null, actor: Actor, action: AccessAction, name: string, teams: TeamRoleLookup | null): Promise<TeamRole> {
  if (!resource) throw new NotFoundError(name);
  const role = await roleOn(resource, actor, teams);
  if (!role) throw new NotFoundError(name);
  if (!allows(role, action)) throw new ForbiddenError(`Your role (${role}) may not do this`);
  return role;
}

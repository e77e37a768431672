import * as yup from 'yup';
import { isTeamRole, TEAM_ROLES, type TeamRole } from '../../access/roles';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { ConflictError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import { str, uuidField, validate } from '../../shared/validation';
import { toTeamMemberView, toTeamView, type TeamMemberView, type TeamView } from '../domain/team';
import type { TeamRepository } from '../ports/team-repository.port';
import { assertMayAssign, findTeamAs, pageOf, teamMemberNotFound } from './team-access';
import type { Page } from '../../shared/pagination';

/** Every member of a team the caller belongs to, the Owner first. */
export class ListTeamMembersUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<TeamMemberView>> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'read');
    return pageOf((await this.deps.teams.listMembers(team.id)).map(toTeamMemberView), query);
  }
}

const roleSchema = yup.object({
  role: str()
    .required('role is required')
    .test('role', `role must be one of ${TEAM_ROLES.join(', ')}`, (v) => isTeamRole(v)),
});

/**
 * Changes a member's role. The Owner's role changes only by a transfer (409); nobody becomes Owner this
 * way (400). An Admin manages Members and Viewers only; the Owner everyone else.
 */
export class ChangeMemberRoleUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, userId: unknown, input: unknown, actor: Actor): Promise<TeamMemberView> {
    const { team, role } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    const member = isUuid(userId) ? await this.deps.teams.findMember(team.id, userId) : null;
    if (!member) throw teamMemberNotFound();
    const { role: wanted } = await validate(roleSchema, input);
    if (wanted === 'owner') throw ValidationError.field('role', 'the Owner changes only by transferring ownership of the team');
    if (member.role === 'owner') throw new ConflictError('The Owner cannot be demoted: transfer the ownership first');
    assertMayAssign(role, member.role);
    assertMayAssign(role, wanted as TeamRole);
    await this.deps.teams.setRole(team.id, member.userId, wanted as Exclude<TeamRole, 'owner'>);
    return toTeamMemberView({ ...member, role: wanted as TeamRole });
  }
}

/**
 * Removes a member, or (the caller's own id) leaves the team. The Owner can neither be removed nor
 * leave without transferring the ownership first (409). An Admin removes Members and Viewers only.
 */
export class RemoveMemberUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, userId: unknown, actor: Actor): Promise<void> {
    const leaving = userId === actor.userId;
    const { team, role } = await findTeamAs(this.deps.teams, id, actor, leaving ? 'read' : 'manage');
    const member = isUuid(userId) ? await this.deps.teams.findMember(team.id, userId) : null;
    if (!member) throw teamMemberNotFound();
    if (member.role === 'owner') throw new ConflictError(leaving ? 'The Owner cannot leave: transfer the ownership first' : 'The Owner cannot be removed: transfer the ownership first');
    if (!leaving) assertMayAssign(role, member.role);
    // A concurrent transfer may have made them the Owner meanwhile: the statement never removes an Owner.
    if (!(await this.deps.teams.removeMember(team.id, member.userId))) throw new ConflictError('The member changed meanwhile; try again');
  }
}

const transferSchema = yup.object({ userId: uuidField('userId').required('userId is required') });

/**
 * Makes another member the Owner (the Owner only); the previous Owner stays as an Admin. The team's
 * applications become the new Owner's, so their plan and quota apply from then on.
 */
export class TransferTeamOwnershipUseCase {
  constructor(private readonly deps: { teams: TeamRepository; applications: ApplicationRepository; unitOfWork: UnitOfWork }) {}

  async execute(id: unknown, input: unknown, actor: Actor): Promise<TeamView> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'delete');
    const { userId } = await validate(transferSchema, input);
    const moved = await this.deps.unitOfWork.run(async () => {
      if (!(await this.deps.teams.transferOwnership(team.id, userId))) return false;
      await this.deps.applications.reassignTeam(team.id, userId);
      return true;
    });
    if (!moved) throw teamMemberNotFound();
    return toTeamView(team, userId === actor.userId ? 'owner' : 'admin');
  }
}

import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import { allows, type TeamRole } from '../../access/roles';
import { emailField } from '../../auth/domain/credentials';
import type { Mailer } from '../../auth/ports/mailer.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { KeyHasher } from '../../shared/key-hasher.port';
import { str, validate } from '../../shared/validation';
import { normalizeEmail } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { INVITATION_TTL_MS, toTeamInvitationView, toTeamView, type TeamInvitationView, type TeamView } from '../domain/team';
import type { TeamRepository } from '../ports/team-repository.port';
import { assertMayAssign, findTeamAs, pageOf } from './team-access';
import type { Page } from '../../shared/pagination';

const INVITABLE = ['admin', 'member', 'viewer'] as const;

const inviteSchema = yup.object({
  email: emailField(),
  role: str().oneOf([...INVITABLE], `role must be one of ${INVITABLE.join(', ')}`),
});

interface InvitationDeps {
  teams: TeamRepository;
  users: UserRepository;
  keyHasher: KeyHasher;
  mailer: Mailer;
  clock: Clock;
  /** The console's absolute address (PUBLIC_BASE_URL, else where the platform listens). */
  consoleUrl: string;
}

/** Mails an invitation: the console's absolute link that accepts it, and the code for pasting by hand. */
async function mailInvitation(deps: Pick<InvitationDeps, 'mailer' | 'consoleUrl'>, teamName: string, email: string, role: string, token: string): Promise<void> {
  await deps.mailer.send({
    to: email,
    subject: `You are invited to join ${teamName}`,
    text: [
      'Hello,',
      '',
      `You are invited to join the team "${teamName}" as ${role}. To accept, open this link within seven days and sign in (or create an account) with this e-mail address:`,
      '',
      `${deps.consoleUrl}/teams/accept?token=${encodeURIComponent(token)}`,
      '',
      `If the link does not open, go to ${deps.consoleUrl}/teams/accept and enter this invitation token:`,
      '',
      token,
      '',
      'If you did not expect this invitation, ignore this message.',
    ].join('\n'),
  });
}

const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * Invites an e-mail address into a team with a role (Member by default): a single-use token, valid seven
 * days, mailed and stored only as its digest. Admins and the Owner invite; Members too where the team's
 * settings let them. Nobody invites above what they may manage (an Admin invites Members and Viewers);
 * an address that already belongs to a member is a 409.
 */
export class InviteMemberUseCase {
  constructor(private readonly deps: InvitationDeps) {}

  async execute(id: unknown, input: unknown, actor: Actor): Promise<TeamInvitationView> {
    const { team, role } = await findTeamAs(this.deps.teams, id, actor, 'read');
    if (!allows(role, 'manage') && !(role === 'member' && team.settings.membersMayInvite)) {
      throw new ForbiddenError(`Your role (${role}) may not invite into this team`);
    }
    const body = await validate(inviteSchema, input);
    const invitedRole = (body.role ?? 'member') as Exclude<TeamRole, 'owner'>;
    assertMayAssign(role, invitedRole);
    const email = normalizeEmail(body.email);
    const existing = await this.deps.users.findByEmail(email);
    if (existing && (await this.deps.teams.roleInTeam(team.id, existing.id))) throw new ConflictError('This person is already a member of the team');
    const token = newToken();
    const invitation = await this.deps.teams.createInvitation({
      teamId: team.id,
      email,
      role: invitedRole,
      tokenHash: this.deps.keyHasher.hash(token),
      invitedBy: actor.userId,
      expiresAt: new Date(this.deps.clock.now().getTime() + INVITATION_TTL_MS),
    });
    await mailInvitation(this.deps, team.name, email, invitedRole, token);
    return toTeamInvitationView(invitation);
  }
}

/** The team's invitations, pending and accepted, newest first: Admins and the Owner. */
export class ListInvitationsUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<TeamInvitationView>> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    return pageOf((await this.deps.teams.listInvitations(team.id)).map(toTeamInvitationView), query);
  }
}

/** Withdraws an invitation (its token stops working): Admins and the Owner. */
export class RevokeInvitationUseCase {
  constructor(private readonly deps: { teams: TeamRepository }) {}

  async execute(id: unknown, invitationId: unknown, actor: Actor): Promise<void> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    if (!isUuid(invitationId) || !(await this.deps.teams.deleteInvitation(team.id, invitationId))) throw new NotFoundError('Invitation');
  }
}

/**
 * Sends a pending invitation again: the same invitation (address, role, inviter) with a fresh token and
 * seven more days. Only the token's digest is stored, so the mail carries a new token and the previous
 * one stops working. Admins and the Owner, for the roles they may manage (an Admin re-sends Member and
 * Viewer invitations); an accepted invitation is a 409, one of another team or withdrawn a 404.
 */
export class ResendInvitationUseCase {
  constructor(private readonly deps: InvitationDeps) {}

  async execute(id: unknown, invitationId: unknown, actor: Actor): Promise<TeamInvitationView> {
    const { team, role } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    const invitation = isUuid(invitationId) ? await this.deps.teams.findInvitation(team.id, invitationId) : null;
    if (!invitation) throw new NotFoundError('Invitation');
    if (invitation.acceptedAt) throw new ConflictError('This invitation has already been used');
    assertMayAssign(role, invitation.role);
    const token = newToken();
    const expiresAt = new Date(this.deps.clock.now().getTime() + INVITATION_TTL_MS);
    const renewed = await this.deps.teams.renewInvitation(team.id, invitation.id, this.deps.keyHasher.hash(token), expiresAt);
    if (!renewed) throw new ConflictError('This invitation has just been used or withdrawn');
    await mailInvitation(this.deps, team.name, renewed.email, renewed.role, token);
    return toTeamInvitationView(renewed);
  }
}

const acceptSchema = yup.object({ token: str().required('token is required').max(200, 'token is too long') });

/**
 * Accepts an invitation with its mailed token. The invited address must be the caller's (403); an
 * unknown token is a 404, a used one a 409, an expired one a 400; a caller already in the team is a 409.
 * Taking the invitation and adding the member is one transaction, so a token works once.
 */
export class AcceptInvitationUseCase {
  constructor(private readonly deps: { teams: TeamRepository; users: UserRepository; keyHasher: KeyHasher; clock: Clock }) {}

  async execute(input: unknown, actor: Actor): Promise<TeamView> {
    const { token } = await validate(acceptSchema, input);
    const invitation = await this.deps.teams.findInvitationByToken(this.deps.keyHasher.hash(token));
    if (!invitation) throw new NotFoundError('Invitation');
    const user = await this.deps.users.findById(actor.userId);
    if (!user || normalizeEmail(user.email) !== normalizeEmail(invitation.email)) {
      throw new ForbiddenError('This invitation was sent to another e-mail address');
    }
    if (invitation.acceptedAt) throw new ConflictError('This invitation has already been used');
    const now = this.deps.clock.now();
    if (invitation.expiresAt <= now) throw ValidationError.field('token', 'This invitation has expired; ask for a new one');
    if (await this.deps.teams.roleInTeam(invitation.teamId, actor.userId)) throw new ConflictError('You are already a member of this team');
    if (!(await this.deps.teams.acceptInvitation(invitation.id, actor.userId, now))) throw new ConflictError('This invitation has already been used or has expired');
    const team = await this.deps.teams.findById(invitation.teamId);
    if (!team) throw new NotFoundError('Invitation');
    return toTeamView(team, invitation.role);
  }
}

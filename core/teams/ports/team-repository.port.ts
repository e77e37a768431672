import type { ProviderId } from '../../ai/domain/provider-id';
import type { TeamRoleLookup } from '../../access/access-policy';
import type { TeamRole } from '../../access/roles';
import type { Team, TeamInvitation, TeamMember, TeamSettings } from '../domain/team';

export interface NewTeam {
  name: string;
  slug: string;
  description: string;
  settings: TeamSettings;
}

export type TeamChanges = Partial<{ name: string; slug: string; description: string } & TeamSettings>;

export interface NewTeamInvitation {
  teamId: string;
  email: string;
  role: TeamInvitation['role'];
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
}

/**
 * Teams, their members and invitations. `create`/`update` throw ConflictError when the slug is taken;
 * `addMember` throws ConflictError when the user is already a member.
 */
export interface TeamRepository extends TeamRoleLookup {
  /** Creates the team with `ownerId` as its one Owner, in one transaction. */
  create(team: NewTeam, ownerId: string): Promise<Team>;
  findById(id: string): Promise<Team | null>;
  findBySlug(slug: string): Promise<Team | null>;
  /** The teams `userId` belongs to, with their role in each, newest first. */
  listForUser(userId: string): Promise<Array<{ team: Team; role: TeamRole }>>;
  update(id: string, changes: TeamChanges): Promise<Team>;
  /** Deletes the team, its members and invitations. ConflictError while applications still belong to it. */
  delete(id: string): Promise<void>;
  /** The teams where `userId` is the Owner or an Admin (whose audit records they may read). */
  teamsAdministeredBy(userId: string): Promise<string[]>;
  /** The user id of the team's Owner. */
  ownerOf(teamId: string): Promise<string | null>;
  /**
   * Locks the team's row until the ambient transaction ends, in a mode that `transferOwnership` waits for (and
   * waits for it): placing an application in the team reads the Owner under it. False when there is no such team.
   */
  lockTeam(teamId: string): Promise<boolean>;
  listMembers(teamId: string): Promise<TeamMember[]>;
  findMember(teamId: string, userId: string): Promise<TeamMember | null>;
  addMember(teamId: string, userId: string, role: Exclude<TeamRole, 'owner'>): Promise<void>;
  /** Changes a non-Owner member's role to a non-Owner role; false when there was no such member. */
  setRole(teamId: string, userId: string, role: Exclude<TeamRole, 'owner'>): Promise<boolean>;
  /** Removes a non-Owner member; false when there was no such member. */
  removeMember(teamId: string, userId: string): Promise<boolean>;
  /**
   * Makes `toUserId` (already a member) the Owner and the previous Owner an Admin, in one transaction
   * (joining the caller's unit of work, where the applications' owner changes too: see
   * ApplicationRepository.reassignTeam). False when `toUserId` is not a member.
   */
  transferOwnership(teamId: string, toUserId: string): Promise<boolean>;

  createInvitation(invitation: NewTeamInvitation): Promise<TeamInvitation>;
  listInvitations(teamId: string): Promise<TeamInvitation[]>;
  findInvitationByToken(tokenHash: string): Promise<TeamInvitation | null>;
  findInvitation(teamId: string, invitationId: string): Promise<TeamInvitation | null>;
  /**
   * Gives a pending invitation a new token digest and expiry (the previous token stops working); null
   * when the team has no such invitation still pending (accepted or withdrawn meanwhile).
   */
  renewInvitation(teamId: string, invitationId: string, tokenHash: string, expiresAt: Date): Promise<TeamInvitation | null>;
  /** False when there was no such invitation of the team. */
  deleteInvitation(teamId: string, invitationId: string): Promise<boolean>;
  /**
   * Marks the invitation accepted and adds the member, in one transaction, if it is still pending and
   * unexpired at `now`: false otherwise (used or expired meanwhile). ConflictError when already a member.
   */
  acceptInvitation(invitationId: string, userId: string, now: Date): Promise<boolean>;
}

export interface TeamProviderKey {
  teamId: string;
  provider: ProviderId;
  sealedKey: string;
  keyHint: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A team's own provider keys, one per provider; sealed, never in the clear. */
export interface TeamProviderKeyRepository {
  save(key: { teamId: string; provider: ProviderId; sealedKey: string; keyHint: string }): Promise<TeamProviderKey>;
  find(teamId: string, provider: ProviderId): Promise<TeamProviderKey | null>;
  list(teamId: string): Promise<TeamProviderKey[]>;
  /** False when there was no key to delete. */
  delete(teamId: string, provider: ProviderId): Promise<boolean>;
}

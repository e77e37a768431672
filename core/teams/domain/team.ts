import type { ProviderId } from '../../ai/domain/provider-id';
import type { TeamRole } from '../../access/roles';

export interface TeamSettings {
  /** The provider new applications of the team start on; null for the platform default. */
  defaultProvider: ProviderId | null;
  /** Whether the team's own provider keys serve its applications' chat turns. */
  sharedProviderKeys: boolean;
  /** Whether Members (not only Admins and the Owner) may invite. */
  membersMayInvite: boolean;
}

export interface Team {
  id: string;
  name: string;
  /** Unique across the platform. */
  slug: string;
  description: string;
  settings: TeamSettings;
  createdAt: Date;
  updatedAt: Date;
}

export interface TeamMember {
  teamId: string;
  userId: string;
  email: string;
  displayName: string;
  role: TeamRole;
  joinedAt: Date;
}

/** A pending or accepted invitation; the token itself is never stored, only its digest. */
export interface TeamInvitation {
  id: string;
  teamId: string;
  email: string;
  role: Exclude<TeamRole, 'owner'>;
  invitedBy: string | null;
  expiresAt: Date;
  acceptedAt: Date | null;
  createdAt: Date;
}

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const TEAM_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,58}[a-z0-9])$/;

export interface TeamView {
  id: string;
  name: string;
  slug: string;
  description: string;
  settings: TeamSettings;
  /** The caller's role in the team. */
  role: TeamRole;
  createdAt: string;
  updatedAt: string;
}

export const toTeamView = (team: Team, role: TeamRole): TeamView => ({
  id: team.id,
  name: team.name,
  slug: team.slug,
  description: team.description,
  settings: { ...team.settings },
  role,
  createdAt: team.createdAt.toISOString(),
  updatedAt: team.updatedAt.toISOString(),
});

export interface TeamMemberView {
  userId: string;
  email: string;
  displayName: string;
  role: TeamRole;
  joinedAt: string;
}

export const toTeamMemberView = (m: TeamMember): TeamMemberView => ({
  userId: m.userId,
  email: m.email,
  displayName: m.displayName,
  role: m.role,
  joinedAt: m.joinedAt.toISOString(),
});

export interface TeamInvitationView {
  id: string;
  teamId: string;
  email: string;
  role: TeamInvitation['role'];
  expiresAt: string;
  acceptedAt: string | null;
  createdAt: string;
}

export const toTeamInvitationView = (i: TeamInvitation): TeamInvitationView => ({
  id: i.id,
  teamId: i.teamId,
  email: i.email,
  role: i.role,
  expiresAt: i.expiresAt.toISOString(),
  acceptedAt: i.acceptedAt?.toISOString() ?? null,
  createdAt: i.createdAt.toISOString(),
});

/** What a team provider key is sealed with: it opens only as this team's key for this provider. */
export const teamProviderKeyAssociatedData = (teamId: string, provider: ProviderId): string => `team-provider-key:${teamId}:${provider}`;

import type { DataSource } from 'typeorm';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { TeamRole } from '../../../core/access/roles';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';
import type { Team, TeamInvitation, TeamMember } from '../../../core/teams/domain/team';
import type {
  NewTeam,
  NewTeamInvitation,
  TeamChanges,
  TeamProviderKey,
  TeamProviderKeyRepository,
  TeamRepository,
} from '../../../core/teams/ports/team-repository.port';
import { affected, joined, one, rows, uniquely, type Sql } from '../sql';

interface TeamRow {
  id: string;
  name: string;
  slug: string;
  description: string;
  default_provider: ProviderId | null;
  shared_provider_keys: boolean;
  members_may_invite: boolean;
  created_at: Date;
  updated_at: Date;
}

interface MemberRow {
  team_id: string;
  user_id: string;
  email: string;
  display_name: string;
  role: TeamRole;
  joined_at: Date;
}

interface InvitationRow {
  id: string;
  team_id: string;
  email: string;
  role: TeamInvitation['role'];
  invited_by: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  created_at: Date;
}

const toTeam = (r: TeamRow): Team => ({
  id: r.id,
  name: r.name,
  slug: r.slug,
  description: r.description,
  settings: { defaultProvider: r.default_provider, sharedProviderKeys: r.shared_provider_keys === true, membersMayInvite: r.members_may_invite === true },
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

const toMember = (r: MemberRow): TeamMember => ({
  teamId: r.team_id,
  userId: r.user_id,
  email: r.email,
  displayName: r.display_name,
  role: r.role,
  joinedAt: new Date(r.joined_at),
});

const toInvitation = (r: InvitationRow): TeamInvitation => ({
  id: r.id,
  teamId: r.team_id,
  email: r.email,
  role: r.role,
  invitedBy: r.invited_by,
  expiresAt: new Date(r.expires_at),
  acceptedAt: r.accepted_at === null ? null : new Date(r.accepted_at),
  createdAt: new Date(r.created_at),
});

const COLUMNS: Record<keyof TeamChanges, string> = {
  name: 'name',
  slug: 'slug',
  description: 'description',
  defaultProvider: 'default_provider',
  sharedProviderKeys: 'shared_provider_keys',
  membersMayInvite: 'members_may_invite',
};

const slugTaken = () => 'This team slug is already taken';
const FOREIGN_KEY_VIOLATION = '23503';

const MEMBER_SELECT = `SELECT m.team_id, m.user_id, u.email, u.display_name, m.role, m.joined_at FROM team_members m JOIN users u ON u.id = m.user_id`;

/** Teams in `teams`, `team_members` and `team_invitations`; multi-row changes run in one transaction. */
export class TypeOrmTeamRepository implements TeamRepository {
  constructor(private readonly db: DataSource) {}

  /** Runs `work` in the caller's unit of work when there is one, else in a transaction of its own. */
  private inTransaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    const current = joined(this.db);
    if (current !== this.db) return work(current);
    return this.db.transaction((tx) => work(tx));
  }

  async create(team: NewTeam, ownerId: string): Promise<Team> {
    const row = await uniquely(
      () =>
        this.inTransaction(async (tx) => {
          const created = await one<TeamRow>(
            tx,
            `INSERT INTO teams (name, slug, description, default_provider, shared_provider_keys, members_may_invite)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
            [team.name, team.slug, team.description, team.settings.defaultProvider, team.settings.sharedProviderKeys, team.settings.membersMayInvite],
          );
          await tx.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'owner')`, [created!.id, ownerId]);
          return created!;
        }),
      slugTaken,
    );
    return toTeam(row);
  }

  async findById(id: string): Promise<Team | null> {
    const row = await one<TeamRow>(this.db, `SELECT * FROM teams WHERE id = $1`, [id]);
    return row && toTeam(row);
  }

  async findBySlug(slug: string): Promise<Team | null> {
    const row = await one<TeamRow>(this.db, `SELECT * FROM teams WHERE slug = $1`, [slug]);
    return row && toTeam(row);
  }

  async listForUser(userId: string): Promise<Array<{ team: Team; role: TeamRole }>> {
    const found = await rows<TeamRow & { member_role: TeamRole }>(
      this.db,
      `SELECT t.*, m.role AS member_role FROM teams t JOIN team_members m ON m.team_id = t.id WHERE m.user_id = $1 ORDER BY t.created_at DESC, t.id`,
      [userId],
    );
    return found.map((r) => ({ team: toTeam(r), role: r.member_role }));
  }

  async roleInTeam(teamId: string, userId: string): Promise<TeamRole | null> {
    return (await one<{ role: TeamRole }>(this.db, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, [teamId, userId]))?.role ?? null;
  }

  async update(id: string, changes: TeamChanges): Promise<Team> {
    const entries = (Object.entries(changes) as [keyof TeamChanges, unknown][]).filter(([k, v]) => v !== undefined && COLUMNS[k]);
    const sets = entries.map(([k], i) => `${COLUMNS[k]} = $${i + 2}`);
    const row = await uniquely(
      () => one<TeamRow>(this.db, `UPDATE teams SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`, [id, ...entries.map(([, v]) => v)]),
      slugTaken,
    );
    if (!row) throw new NotFoundError('Team');
    return toTeam(row);
  }

  async delete(id: string): Promise<void> {
    try {
      await affected(this.db, `DELETE FROM teams WHERE id = $1`, [id]);
    } catch (error) {
      const code = (error as { driverError?: { code?: string }; code?: string }).driverError?.code ?? (error as { code?: string }).code;
      if (code === FOREIGN_KEY_VIOLATION) throw new ConflictError('The team still has applications or knowledge bases: move or delete them first');
      throw error;
    }
  }

  async teamsAdministeredBy(userId: string): Promise<string[]> {
    return (await rows<{ team_id: string }>(this.db, `SELECT team_id FROM team_members WHERE user_id = $1 AND role IN ('owner', 'admin')`, [userId])).map((r) => r.team_id);
  }

  async lockTeam(teamId: string): Promise<boolean> {
    // FOR SHARE: placements in one team do not wait for each other, only for a transfer (FOR UPDATE).
    return (await rows(this.db, `SELECT id FROM teams WHERE id = $1 FOR SHARE`, [teamId])).length > 0;
  }

  async ownerOf(teamId: string): Promise<string | null> {
    return (await one<{ user_id: string }>(this.db, `SELECT user_id FROM team_members WHERE team_id = $1 AND role = 'owner'`, [teamId]))?.user_id ?? null;
  }

  async listMembers(teamId: string): Promise<TeamMember[]> {
    const found = await rows<MemberRow>(
      this.db,
      `${MEMBER_SELECT} WHERE m.team_id = $1
       ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'member' THEN 2 ELSE 3 END, m.joined_at, m.user_id`,
      [teamId],
    );
    return found.map(toMember);
  }

  async findMember(teamId: string, userId: string): Promise<TeamMember | null> {
    const row = await one<MemberRow>(this.db, `${MEMBER_SELECT} WHERE m.team_id = $1 AND m.user_id = $2`, [teamId, userId]);
    return row && toMember(row);
  }

  async addMember(teamId: string, userId: string, role: Exclude<TeamRole, 'owner'>): Promise<void> {
    await uniquely(
      () => rows(this.db, `INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, $3) RETURNING team_id`, [teamId, userId, role]),
      () => 'This user is already a member of the team',
    );
  }

  async setRole(teamId: string, userId: string, role: Exclude<TeamRole, 'owner'>): Promise<boolean> {
    return (await affected(this.db, `UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2 AND role <> 'owner'`, [teamId, userId, role])) > 0;
  }

  async removeMember(teamId: string, userId: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM team_members WHERE team_id = $1 AND user_id = $2 AND role <> 'owner'`, [teamId, userId])) > 0;
  }

  async transferOwnership(teamId: string, toUserId: string): Promise<boolean> {
    return this.inTransaction(async (tx) => {
      // The team row's lock makes concurrent transfers of one team take turns.
      await tx.query(`SELECT id FROM teams WHERE id = $1 FOR UPDATE`, [teamId]);
      const target = await one<{ role: TeamRole }>(tx, `SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, [teamId, toUserId]);
      if (!target) return false;
      if (target.role === 'owner') return true;
      await tx.query(`UPDATE team_members SET role = 'admin' WHERE team_id = $1 AND role = 'owner'`, [teamId]);
      await tx.query(`UPDATE team_members SET role = 'owner' WHERE team_id = $1 AND user_id = $2`, [teamId, toUserId]);
      return true;
    });
  }

  async createInvitation(invitation: NewTeamInvitation): Promise<TeamInvitation> {
    const row = await one<InvitationRow>(
      this.db,
      `INSERT INTO team_invitations (team_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [invitation.teamId, invitation.email, invitation.role, invitation.tokenHash, invitation.invitedBy, invitation.expiresAt],
    );
    return toInvitation(row!);
  }

  async listInvitations(teamId: string): Promise<TeamInvitation[]> {
    return (await rows<InvitationRow>(this.db, `SELECT * FROM team_invitations WHERE team_id = $1 ORDER BY created_at DESC, id`, [teamId])).map(toInvitation);
  }

  async findInvitationByToken(tokenHash: string): Promise<TeamInvitation | null> {
    const row = await one<InvitationRow>(this.db, `SELECT * FROM team_invitations WHERE token_hash = $1`, [tokenHash]);
    return row && toInvitation(row);
  }

  async findInvitation(teamId: string, invitationId: string): Promise<TeamInvitation | null> {
    const row = await one<InvitationRow>(this.db, `SELECT * FROM team_invitations WHERE team_id = $1 AND id = $2`, [teamId, invitationId]);
    return row && toInvitation(row);
  }

  async renewInvitation(teamId: string, invitationId: string, tokenHash: string, expiresAt: Date): Promise<TeamInvitation | null> {
    const row = await one<InvitationRow>(
      this.db,
      `UPDATE team_invitations SET token_hash = $3, expires_at = $4 WHERE team_id = $1 AND id = $2 AND accepted_at IS NULL RETURNING *`,
      [teamId, invitationId, tokenHash, expiresAt],
    );
    return row && toInvitation(row);
  }

  async deleteInvitation(teamId: string, invitationId: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM team_invitations WHERE team_id = $1 AND id = $2`, [teamId, invitationId])) > 0;
  }

  async acceptInvitation(invitationId: string, userId: string, now: Date): Promise<boolean> {
    return uniquely(
      () =>
        this.inTransaction(async (tx) => {
          // One conditional statement takes the invitation: of two concurrent accepts, one wins.
          const taken = await one<InvitationRow>(
            tx,
            `UPDATE team_invitations SET accepted_at = $2 WHERE id = $1 AND accepted_at IS NULL AND expires_at > $2 RETURNING *`,
            [invitationId, now],
          );
          if (!taken) return false;
          await tx.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, $3)`, [taken.team_id, userId, taken.role]);
          return true;
        }),
      () => 'You are already a member of this team',
    );
  }
}

interface KeyRow {
  team_id: string;
  provider: ProviderId;
  sealed_key: string;
  key_hint: string;
  created_at: Date;
  updated_at: Date;
}

const toKey = (r: KeyRow): TeamProviderKey => ({
  teamId: r.team_id,
  provider: r.provider,
  sealedKey: r.sealed_key,
  keyHint: r.key_hint,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

/** A team's provider keys in `team_provider_keys`, only ever sealed. */
export class TypeOrmTeamProviderKeyRepository implements TeamProviderKeyRepository {
  constructor(private readonly db: DataSource) {}

  async save(key: { teamId: string; provider: ProviderId; sealedKey: string; keyHint: string }): Promise<TeamProviderKey> {
    const row = await one<KeyRow>(
      this.db,
      `INSERT INTO team_provider_keys (team_id, provider, sealed_key, key_hint) VALUES ($1, $2, $3, $4)
       ON CONFLICT (team_id, provider) DO UPDATE SET sealed_key = EXCLUDED.sealed_key, key_hint = EXCLUDED.key_hint, updated_at = now()
       RETURNING *`,
      [key.teamId, key.provider, key.sealedKey, key.keyHint],
    );
    return toKey(row!);
  }

  async find(teamId: string, provider: ProviderId): Promise<TeamProviderKey | null> {
    const row = await one<KeyRow>(this.db, `SELECT * FROM team_provider_keys WHERE team_id = $1 AND provider = $2`, [teamId, provider]);
    return row && toKey(row);
  }

  async list(teamId: string): Promise<TeamProviderKey[]> {
    return (await rows<KeyRow>(this.db, `SELECT * FROM team_provider_keys WHERE team_id = $1 ORDER BY provider`, [teamId])).map(toKey);
  }

  async delete(teamId: string, provider: ProviderId): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM team_provider_keys WHERE team_id = $1 AND provider = $2`, [teamId, provider])) > 0;
  }
}

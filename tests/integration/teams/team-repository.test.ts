import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { TypeOrmTeamRepository } from '../../../adapters/persistence/teams/type-orm-team.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { ConflictError, NotFoundError, PaymentRequiredError } from '../../../core/shared/errors';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const SETTINGS = { defaultProvider: null, sharedProviderKeys: false, membersMayInvite: false };
let n = 0;

describe.each(DATABASE_KINDS)('team repository (%s)', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let teams: TypeOrmTeamRepository;
  let applications: TypeOrmApplicationRepository;
  let users: TypeOrmUserRepository;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    teams = new TypeOrmTeamRepository(db.dataSource);
    applications = new TypeOrmApplicationRepository(db.dataSource);
    users = new TypeOrmUserRepository(db.dataSource);
  });
  afterAll(() => db.close());

  const aUser = () => users.create({ email: `team-user-${++n}-${kind}@example.com`, displayName: 'U', passwordHash: 'x', role: 'developer' });
  const aTeam = async (ownerId: string) => teams.create({ name: 'T', slug: `team-${++n}-${kind}`, description: '', settings: SETTINGS }, ownerId);

  it('keeps one Owner: a second owner row is refused by the schema, and setRole/removeMember never touch the Owner', async () => {
    const owner = await aUser();
    const other = await aUser();
    const team = await aTeam(owner.id);
    expect(await teams.roleInTeam(team.id, owner.id)).toBe('owner');
    await teams.addMember(team.id, other.id, 'member');
    await expect(teams.addMember(team.id, other.id, 'viewer')).rejects.toBeInstanceOf(ConflictError);
    await expect(db.dataSource.query(`UPDATE team_members SET role = 'owner' WHERE team_id = $1 AND user_id = $2`, [team.id, other.id])).rejects.toThrow();
    expect(await teams.setRole(team.id, owner.id, 'viewer')).toBe(false);
    expect(await teams.removeMember(team.id, owner.id)).toBe(false);
    expect(await teams.ownerOf(team.id)).toBe(owner.id);
  });

  it('transfers the ownership and the applications\' owner together, inside the caller\'s transaction', async () => {
    const owner = await aUser();
    const admin = await aUser();
    const team = await aTeam(owner.id);
    await teams.addMember(team.id, admin.id, 'admin');
    const app = await applications.create({ ownerId: owner.id, name: 'A', description: '', slug: `app-${++n}-${kind}`, allowedOrigins: [] });
    const moved = await applications.moveTo(app.id, { teamId: team.id, ownerId: owner.id });
    expect(moved).toMatchObject({ teamId: team.id, ownerId: owner.id });
    expect(await teams.transferOwnership(team.id, admin.id)).toBe(true);
    await applications.reassignTeam(team.id, admin.id);
    expect(await teams.roleInTeam(team.id, admin.id)).toBe('owner');
    expect(await teams.roleInTeam(team.id, owner.id)).toBe('admin');
    expect((await applications.findById(app.id))!.ownerId).toBe(admin.id);
    expect(await teams.transferOwnership(team.id, (await aUser()).id)).toBe(false);
    // A team holding applications is not deleted.
    await expect(teams.delete(team.id)).rejects.toBeInstanceOf(ConflictError);
  });

  it("creates an application held by a team in one insert, counted against the team Owner's limit", async () => {
    const owner = await aUser();
    const team = await aTeam(owner.id);
    const limit = { max: 2, exceeded: () => new PaymentRequiredError('full') };
    await applications.create({ ownerId: owner.id, name: 'P', description: '', slug: `own-${++n}-${kind}`, allowedOrigins: [] });
    const inTeam = await applications.create({ ownerId: owner.id, teamId: team.id, name: 'T', description: '', slug: `in-team-${++n}-${kind}`, allowedOrigins: [] }, limit);
    expect(inTeam).toMatchObject({ ownerId: owner.id, teamId: team.id });
    expect(await applications.findById(inTeam.id)).toMatchObject({ teamId: team.id });
    await expect(applications.create({ ownerId: owner.id, teamId: team.id, name: 'X', description: '', slug: `over-${++n}-${kind}`, allowedOrigins: [] }, limit)).rejects.toBeInstanceOf(PaymentRequiredError);
    // A team gone between the role check and the insert: the team is not found, nothing is stored.
    const gone = await aTeam(owner.id);
    await teams.delete(gone.id);
    const slug = `gone-${++n}-${kind}`;
    await expect(applications.create({ ownerId: owner.id, teamId: gone.id, name: 'G', description: '', slug, allowedOrigins: [] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(applications.create({ ownerId: owner.id, teamId: gone.id, name: 'G', description: '', slug, allowedOrigins: [] }, { ...limit, max: 10 })).rejects.toBeInstanceOf(NotFoundError);
    expect(await applications.findBySlug(slug)).toBeNull();
  });

  it("moves an application into a team within the team Owner's limit, atomically, never counting one the Owner already holds", async () => {
    const owner = await aUser();
    const admin = await aUser();
    const team = await aTeam(owner.id);
    const limit = { max: 2, exceeded: () => new PaymentRequiredError('full') };
    const anApp = (ownerId: string) => applications.create({ ownerId, name: 'M', description: '', slug: `move-${++n}-${kind}`, allowedOrigins: [] });
    const ownerFirst = await anApp(owner.id);
    const ownerSecond = await anApp(owner.id);
    // At the limit, the Owner's own application still moves into their team: it is not counted twice.
    expect(await applications.moveTo(ownerSecond.id, { teamId: team.id, ownerId: owner.id }, limit)).toMatchObject({ teamId: team.id, ownerId: owner.id });
    expect(await applications.countByOwner(owner.id)).toBe(2);
    // Someone else's would take the Owner past it: refused, and nothing moved.
    const adminsApp = await anApp(admin.id);
    await expect(applications.moveTo(adminsApp.id, { teamId: team.id, ownerId: owner.id }, limit)).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(await applications.findById(adminsApp.id)).toMatchObject({ ownerId: admin.id, teamId: null });
    // With one slot free, two concurrent moves take it in turn: exactly one goes through.
    await applications.delete(ownerFirst.id);
    const racing = await Promise.all([anApp(admin.id), anApp(admin.id)]);
    const results = await Promise.allSettled(racing.map((a) => applications.moveTo(a.id, { teamId: team.id, ownerId: owner.id }, limit)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof PaymentRequiredError)).toHaveLength(1);
    expect(await applications.countByOwner(owner.id)).toBe(2);
    await expect(applications.moveTo('00000000-0000-4000-8000-000000000000', { teamId: team.id, ownerId: owner.id }, { ...limit, max: 10 })).rejects.toBeInstanceOf(NotFoundError);
    // A team gone between the role check and the move: the team is not found, nothing moves.
    const gone = await aTeam(owner.id);
    await teams.delete(gone.id);
    const stays = await anApp(admin.id);
    await expect(applications.moveTo(stays.id, { teamId: gone.id, ownerId: owner.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(applications.moveTo(stays.id, { teamId: gone.id, ownerId: owner.id }, { ...limit, max: 10 })).rejects.toBeInstanceOf(NotFoundError);
    expect(await applications.findById(stays.id)).toMatchObject({ ownerId: admin.id, teamId: null });
  });

  it('takes an invitation once, even when two accepts race', async () => {
    const owner = await aUser();
    const invitee = await aUser();
    const team = await aTeam(owner.id);
    const invitation = await teams.createInvitation({ teamId: team.id, email: invitee.email, role: 'viewer', tokenHash: `hash-${++n}-${kind}`, invitedBy: owner.id, expiresAt: new Date(Date.now() + 60_000) });
    const results = await Promise.allSettled([teams.acceptInvitation(invitation.id, invitee.id, new Date()), teams.acceptInvitation(invitation.id, invitee.id, new Date())]);
    const accepted = results.filter((r) => r.status === 'fulfilled' && r.value === true);
    expect(accepted).toHaveLength(1);
    expect(await teams.roleInTeam(team.id, invitee.id)).toBe('viewer');
    const expired = await teams.createInvitation({ teamId: team.id, email: 'late@example.com', role: 'member', tokenHash: `hash-${++n}-${kind}`, invitedBy: owner.id, expiresAt: new Date(Date.now() - 1000) });
    expect(await teams.acceptInvitation(expired.id, (await aUser()).id, new Date())).toBe(false);
  });

  it('lists the applications a user sees: their own and their teams\', by team or personal', async () => {
    const owner = await aUser();
    const viewer = await aUser();
    const team = await aTeam(owner.id);
    await teams.addMember(team.id, viewer.id, 'viewer');
    const teamApp = await applications.create({ ownerId: owner.id, name: 'T', description: '', slug: `tapp-${++n}-${kind}`, allowedOrigins: [] });
    await applications.moveTo(teamApp.id, { teamId: team.id, ownerId: owner.id });
    const own = await applications.create({ ownerId: viewer.id, name: 'O', description: '', slug: `oapp-${++n}-${kind}`, allowedOrigins: [] });
    const ids = async (teamId: string | null | undefined) => (await applications.listVisible(viewer.id, teamId, 0, 10)).items.map((a) => a.id).sort();
    expect(await ids(undefined)).toEqual([teamApp.id, own.id].sort());
    expect(await ids(team.id)).toEqual([teamApp.id]);
    expect(await ids(null)).toEqual([own.id]);
    expect((await applications.listVisible(viewer.id, undefined, 0, 1)).total).toBe(2);
  });
});

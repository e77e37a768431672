import { Client } from 'pg';
import { TypeOrmApplicationRepository } from '../../../adapters/persistence/applications/type-orm-application.repository';
import { SqlUnitOfWork } from '../../../adapters/persistence/events/sql-unit-of-work';
import { TypeOrmTeamRepository } from '../../../adapters/persistence/teams/type-orm-team.repository';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { CreateApplicationUseCase } from '../../../core/applications/use-cases/create-application.use-case';
import { TransferApplicationUseCase } from '../../../core/applications/use-cases/transfer-application.use-case';
import { TransferTeamOwnershipUseCase } from '../../../core/teams/use-cases/members.use-cases';
import type { Actor } from '../../../core/shared/actor';
import { ForbiddenError } from '../../../core/shared/errors';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import { waitFor } from '../../support/wait-for';

const SETTINGS = { defaultProvider: null, sharedProviderKeys: false, membersMayInvite: false };
const as = (userId: string): Actor => ({ userId, role: 'developer' });
let n = 0;

/**
 * Placing an application in a team (creating it there, or moving it there) against a handover of the team's
 * ownership at the same instant. The caller's role and the team's Owner are read under the team row's lock in
 * the placement's transaction, so the application is owned by whoever is the Owner when it commits.
 */
describe.each(DATABASE_KINDS)('placing an application in a team while its ownership changes hands (%s)', (kind) => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  let teams: TypeOrmTeamRepository;
  let applications: TypeOrmApplicationRepository;
  let users: TypeOrmUserRepository;
  let create: CreateApplicationUseCase;
  let transfer: TransferApplicationUseCase;
  let handover: TransferTeamOwnershipUseCase;
  const guarded: string[] = [];
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    teams = new TypeOrmTeamRepository(db.dataSource);
    applications = new TypeOrmApplicationRepository(db.dataSource);
    users = new TypeOrmUserRepository(db.dataSource);
    const unitOfWork = new SqlUnitOfWork(db.dataSource);
    // A plan limit, so the placement also counts within the new Owner's quota.
    const guard = async (ownerId: string) => (guarded.push(ownerId), { max: 10, exceeded: () => new Error('full') });
    create = new CreateApplicationUseCase({ applications, teams, unitOfWork, guard });
    transfer = new TransferApplicationUseCase({ applications, teams, unitOfWork, guard });
    handover = new TransferTeamOwnershipUseCase({ teams, applications, unitOfWork });
  });
  afterAll(() => db.close());

  const aUser = () => users.create({ email: `race-${++n}-${kind}@example.com`, displayName: 'U', passwordHash: 'x', role: 'developer' });
  async function aTeam() {
    const [owner, admin] = [await aUser(), await aUser()];
    const team = await teams.create({ name: 'T', slug: `race-team-${++n}-${kind}`, description: '', settings: SETTINGS }, owner.id);
    await teams.addMember(team.id, admin.id, 'admin');
    return { team, owner, admin };
  }

  it('creates and moves within one transaction that reads the Owner under the team lock (and a plain handover still works)', async () => {
    const { team, owner, admin } = await aTeam();
    const created = await create.execute({ name: 'In team', teamId: team.id }, as(admin.id));
    expect(await applications.findById(created.id)).toMatchObject({ teamId: team.id, ownerId: owner.id });
    const personal = await create.execute({ name: 'Personal' }, as(admin.id));
    const moved = await transfer.execute(personal.id, { teamId: team.id }, as(admin.id));
    expect(moved).toMatchObject({ teamId: team.id });
    expect((await applications.findById(personal.id))!.ownerId).toBe(owner.id);
    await handover.execute(team.id, { userId: admin.id }, as(owner.id));
    expect((await applications.findById(created.id))!.ownerId).toBe(admin.id);
    expect((await applications.findById(personal.id))!.ownerId).toBe(admin.id);
  });

  if (kind !== 'postgres') return;

  /**
   * A second connection does what a handover does (team row locked FOR UPDATE, roles swapped, the team's
   * applications reassigned) and holds its transaction open; the placement starts, reads, and waits on a
   * lock; then the handover commits. Before the fix the role and Owner were read outside any transaction,
   * before the insert, which then waited only on the foreign key and stored the previous Owner.
   */
  async function withHandoverHeld(teamId: string, from: string, to: string, place: () => Promise<{ id: string }>) {
    const other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    const observer = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await observer.connect();
    try {
      const [{ schema }] = (await db.dataSource.query(`SELECT current_schema() AS schema`)) as [{ schema: string }];
      await other.query(`SET search_path TO "${schema}", public`);
      await other.query('BEGIN');
      await other.query(`SELECT id FROM teams WHERE id = $1 FOR UPDATE`, [teamId]);
      await other.query(`UPDATE team_members SET role = 'admin' WHERE team_id = $1 AND user_id = $2`, [teamId, from]);
      await other.query(`UPDATE team_members SET role = 'owner' WHERE team_id = $1 AND user_id = $2`, [teamId, to]);
      await other.query(`UPDATE applications SET owner_id = $2 WHERE team_id = $1`, [teamId, to]);
      const placing = place();
      placing.catch(() => undefined);
      // The placement is waiting on a lock the handover holds.
      const pid = (await other.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0]!.pid;
      await waitFor(async () => {
        const blocked = await observer.query(`SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid]);
        return blocked.rowCount! > 0;
      }, 10_000);
      await other.query('COMMIT');
      return await placing;
    } finally {
      await other.end();
      await observer.end();
    }
  }

  it("a creation in the team while the ownership is handed over is owned by the Owner at commit time", async () => {
    const { team, owner, admin } = await aTeam();
    guarded.length = 0;
    const created = await withHandoverHeld(team.id, owner.id, admin.id, () => create.execute({ name: 'Raced', teamId: team.id }, as(admin.id)));
    expect(await applications.findById(created.id)).toMatchObject({ teamId: team.id, ownerId: admin.id });
    expect(await teams.ownerOf(team.id)).toBe(admin.id);
    // The quota counted is the new Owner's: the guard was asked again for them.
    expect(guarded).toEqual([owner.id, admin.id]);
  });

  it("a move into the team while the ownership is handed over is owned by the Owner at commit time", async () => {
    const { team, owner, admin } = await aTeam();
    const app = await create.execute({ name: 'To move' }, as(admin.id));
    await withHandoverHeld(team.id, owner.id, admin.id, () => transfer.execute(app.id, { teamId: team.id }, as(admin.id)));
    expect(await applications.findById(app.id)).toMatchObject({ teamId: team.id, ownerId: admin.id });
  });

  it('a creation by an Admin demoted at that instant is refused under the lock, and nothing is stored', async () => {
    const { team, owner, admin } = await aTeam();
    const count = async () => Number((await db.dataSource.query(`SELECT count(*) AS n FROM applications WHERE team_id = $1`, [team.id]))[0].n);
    // The Owner makes the creating Admin a Viewer, holding the team's lock as any change of it does here.
    const other = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await other.connect();
    const [{ schema }] = (await db.dataSource.query(`SELECT current_schema() AS schema`)) as [{ schema: string }];
    await other.query(`SET search_path TO "${schema}", public`);
    await other.query('BEGIN');
    await other.query(`SELECT id FROM teams WHERE id = $1 FOR UPDATE`, [team.id]);
    await other.query(`UPDATE team_members SET role = 'viewer' WHERE team_id = $1 AND user_id = $2`, [team.id, admin.id]);
    const placing = create.execute({ name: 'Refused', teamId: team.id }, as(admin.id));
    placing.catch(() => undefined);
    const pid = (await other.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0]!.pid;
    await waitFor(async () => ((await db.dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid])) as unknown[]).length > 0, 10_000);
    await other.query('COMMIT');
    await other.end();
    await expect(placing).rejects.toBeInstanceOf(ForbiddenError);
    expect(await count()).toBe(0);
    expect(await teams.ownerOf(team.id)).toBe(owner.id);
  });
});

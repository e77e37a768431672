import { randomUUID } from 'node:crypto';
import { InMemoryApplicationRepository } from '../../../adapters/persistence/in-memory/in-memory-application.repository';
import type { TeamRole } from '../../../core/access/roles';
import { CreateApplicationUseCase } from '../../../core/applications/use-cases/create-application.use-case';
import type { TeamDirectory } from '../../../core/applications/use-cases/team-holder';
import { TransferApplicationUseCase } from '../../../core/applications/use-cases/transfer-application.use-case';
import type { NewDomainEvent } from '../../../core/events/domain/domain-event';
import { ForbiddenError, NotFoundError, PaymentRequiredError, ValidationError } from '../../../core/shared/errors';
import type { Actor } from '../../../core/shared/actor';

const as = (userId: string): Actor => ({ userId, role: 'developer' });

/**
 * A team with one user in each role, held in the in-memory repository's role table (which is what
 * `roleInTeam` reads); each user's plan allows `limits[userId]` applications (absent: no limit).
 */
function world(limits: Record<string, number> = {}) {
  const applications = new InMemoryApplicationRepository();
  const teamId = randomUUID();
  const roles: Record<TeamRole, string> = { owner: 'owner-id', admin: 'admin-id', member: 'member-id', viewer: 'viewer-id' };
  for (const [role, userId] of Object.entries(roles)) applications.teamRoles.set(`${teamId}:${userId}`, role as TeamRole);
  const teams: TeamDirectory = {
    roleInTeam: (team, user) => applications.roleInTeam(team, user),
    ownerOf: async (team) => [...applications.teamRoles].find(([key, role]) => key.startsWith(`${team}:`) && role === 'owner')?.[0].split(':')[1] ?? null,
  };
  const guardedOwners: string[] = [];
  const callers: Array<string | undefined> = [];
  const guard = async (ownerId: string, callerId?: string) => {
    guardedOwners.push(ownerId);
    callers.push(callerId);
    const max = limits[ownerId];
    return max === undefined ? null : { max, exceeded: () => new PaymentRequiredError(`${ownerId}'s plan allows ${max} applications`) };
  };
  const published: NewDomainEvent[] = [];
  const events = { publish: async (...e: NewDomainEvent[]) => void published.push(...e) };
  const create = new CreateApplicationUseCase({ applications, guard, events, teams });
  const transfer = new TransferApplicationUseCase({ applications, teams, guard });
  return { applications, teamId, teams, create, transfer, published, guardedOwners, callers };
}

describe('creating an application in a team', () => {
  it('lets a team Admin create it there in one step: the team holds it, its Owner owns it, and the event says so', async () => {
    const w = world();
    const view = await w.create.execute({ name: 'Crew Bot', teamId: w.teamId }, as('admin-id'));
    expect(view).toMatchObject({ name: 'Crew Bot', teamId: w.teamId });
    const stored = await w.applications.findById(view.id);
    expect(stored).toMatchObject({ ownerId: 'owner-id', teamId: w.teamId });
    expect(w.applications.apps.size).toBe(1);
    expect(w.published).toEqual([expect.objectContaining({ type: 'application.created', ownerId: 'owner-id', applicationId: view.id })]);
    expect(w.guardedOwners).toEqual(['owner-id']);
    // The team lists it for its members, not among the Admin's personal ones.
    expect((await w.applications.listVisible('viewer-id', w.teamId, 0, 10)).items.map((a) => a.id)).toEqual([view.id]);
    expect((await w.applications.listVisible('admin-id', null, 0, 10)).total).toBe(0);
  });

  it('refuses a Member or a Viewer with a 403 that gives the reason, and stores nothing', async () => {
    const w = world();
    for (const who of ['member-id', 'viewer-id']) {
      const refused = w.create.execute({ name: 'Not Mine To Make', teamId: w.teamId }, as(who));
      await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
      await expect(refused).rejects.toThrow(/needs the Admin role there; yours is (member|viewer)/);
    }
    expect(w.applications.apps.size).toBe(0);
    expect(w.published).toEqual([]);
  });

  it('answers 404 for an unknown team or one the caller is not in, as a transfer does, and stores nothing', async () => {
    const w = world();
    await expect(w.create.execute({ name: 'Lost', teamId: randomUUID() }, as('admin-id'))).rejects.toBeInstanceOf(NotFoundError);
    await expect(w.create.execute({ name: 'Stranger', teamId: w.teamId }, as('stranger-id'))).rejects.toBeInstanceOf(NotFoundError);
    // The transfer answers the same for the same cases: one rule decides both.
    const own = await w.create.execute({ name: 'Stranger Own' }, as('stranger-id'));
    const transfer = new TransferApplicationUseCase({ applications: w.applications, teams: w.teams });
    await expect(transfer.execute(own.id, { teamId: w.teamId }, as('stranger-id'))).rejects.toBeInstanceOf(NotFoundError);
    expect([...w.applications.apps.values()].map((a) => a.name)).toEqual(['Stranger Own']);
  });

  it('answers 404 when the composition has no teams area', async () => {
    const applications = new InMemoryApplicationRepository();
    const create = new CreateApplicationUseCase({ applications });
    await expect(create.execute({ name: 'Nowhere', teamId: randomUUID() }, as('admin-id'))).rejects.toBeInstanceOf(NotFoundError);
    expect(applications.apps.size).toBe(0);
  });

  it('refuses a teamId that is not a UUID with a 400 on the field', async () => {
    const w = world();
    for (const teamId of ['nope', 42, { id: w.teamId }]) {
      const refused = w.create.execute({ name: 'Bad', teamId }, as('admin-id'));
      await expect(refused).rejects.toBeInstanceOf(ValidationError);
      await expect(refused).rejects.toMatchObject({ details: [expect.objectContaining({ path: 'teamId' })] });
    }
    expect(w.applications.apps.size).toBe(0);
  });

  it("checks the team Owner's plan, not the caller's", async () => {
    // The Owner's plan is full; the Admin's own plan has room: the team creation is refused.
    const full = world({ 'owner-id': 1 });
    await full.create.execute({ name: 'First', teamId: full.teamId }, as('owner-id'));
    await expect(full.create.execute({ name: 'Second', teamId: full.teamId }, as('admin-id'))).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(full.applications.apps.size).toBe(1);
    expect(await full.create.execute({ name: 'Admin Own' }, as('admin-id'))).toMatchObject({ teamId: null });

    // The Admin's own plan allows nothing more; the Owner's has room: the team creation goes through.
    const roomy = world({ 'admin-id': 0 });
    await expect(roomy.create.execute({ name: 'Own' }, as('admin-id'))).rejects.toBeInstanceOf(PaymentRequiredError);
    const made = await roomy.create.execute({ name: 'In Team', teamId: roomy.teamId }, as('admin-id'));
    expect(await roomy.applications.findById(made.id)).toMatchObject({ ownerId: 'owner-id', teamId: roomy.teamId });
    expect(roomy.guardedOwners).toEqual(['admin-id', 'owner-id']);
  });
});

describe('moving an application into a team', () => {
  const holders = (w: ReturnType<typeof world>) => [...w.applications.apps.values()].map((a) => `${a.name}:${a.ownerId}:${a.teamId === w.teamId ? 'team' : 'personal'}`).sort();

  it("refuses a move that would take the team Owner past their plan's limit with a 402, and nothing moves", async () => {
    const w = world({ 'owner-id': 1 });
    await w.create.execute({ name: 'Team Full', teamId: w.teamId }, as('admin-id'));
    const own = await w.create.execute({ name: 'Admin Own' }, as('admin-id'));
    const refused = w.transfer.execute(own.id, { teamId: w.teamId }, as('admin-id'));
    await expect(refused).rejects.toBeInstanceOf(PaymentRequiredError);
    await expect(refused).rejects.toThrow("owner-id's plan allows 1 applications");
    expect(holders(w)).toEqual(['Admin Own:admin-id:personal', 'Team Full:owner-id:team']);
    expect(await w.applications.countByOwner('owner-id')).toBe(1);
  });

  it("moves it under the Owner's limit, checking the Owner's plan and not the caller's", async () => {
    // The Admin's own plan is full; the Owner's has room for one more.
    const w = world({ 'owner-id': 2, 'admin-id': 1 });
    await w.create.execute({ name: 'Team One', teamId: w.teamId }, as('admin-id'));
    const own = await w.create.execute({ name: 'Admin Own' }, as('admin-id'));
    const moved = await w.transfer.execute(own.id, { teamId: w.teamId }, as('admin-id'));
    expect(moved).toMatchObject({ id: own.id, teamId: w.teamId });
    expect(holders(w)).toEqual(['Admin Own:owner-id:team', 'Team One:owner-id:team']);
    // The guard is told who asks, so its refusal can say whose plan is full.
    expect(w.guardedOwners.at(-1)).toBe('owner-id');
    expect(w.callers.at(-1)).toBe('admin-id');
    // Now at the limit: the next one is refused.
    const another = await w.create.execute({ name: 'Admin Again' }, as('admin-id'));
    await expect(w.transfer.execute(another.id, { teamId: w.teamId }, as('admin-id'))).rejects.toBeInstanceOf(PaymentRequiredError);
    expect(await w.applications.findById(another.id)).toMatchObject({ ownerId: 'admin-id', teamId: null });
  });

  it('does not count twice an application the Owner already holds: their own moves into their team at the limit', async () => {
    const w = world({ 'owner-id': 2 });
    await w.create.execute({ name: 'Owner One' }, as('owner-id'));
    const second = await w.create.execute({ name: 'Owner Two' }, as('owner-id'));
    expect(await w.applications.countByOwner('owner-id')).toBe(2);
    const moved = await w.transfer.execute(second.id, { teamId: w.teamId }, as('owner-id'));
    expect(moved).toMatchObject({ id: second.id, teamId: w.teamId });
    expect(holders(w)).toEqual(['Owner One:owner-id:personal', 'Owner Two:owner-id:team']);
    expect(await w.applications.countByOwner('owner-id')).toBe(2);
  });
});

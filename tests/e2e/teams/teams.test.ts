import { startCoreApi, type TestStack } from '../../support/test-stack';
import { addMember, invitationToken, outbox, session, teamApplication, teamWithEveryRole } from './team-support';

describe('teams: CRUD, members, invitations, ownership', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi();
  });
  afterAll(() => stack.close());

  it('creates a team with the caller as its Owner, lists it, updates it and keeps slugs unique', async () => {
    const owner = await session(stack);
    const created = await stack.client.post('/api/teams', { name: 'Support Crew', description: 'The people behind the bot', settings: { membersMayInvite: true } }, { token: owner.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Support Crew',
      slug: 'support-crew',
      description: 'The people behind the bot',
      role: 'owner',
      settings: { defaultProvider: null, sharedProviderKeys: false, membersMayInvite: true },
    });
    const taken = await stack.client.post('/api/teams', { name: 'Another', slug: 'support-crew' }, { token: (await session(stack)).token });
    expect(taken.status).toBe(409);
    const list = await stack.client.get('/api/teams', { token: owner.token });
    expect(list.body.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
    const updated = await stack.client.put(`/api/teams/${created.body.id}`, { name: 'Support Team', settings: { defaultProvider: 'provider_b' } }, { token: owner.token });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Support Team', slug: 'support-crew', settings: { defaultProvider: 'provider_b', membersMayInvite: true } });
    const members = await stack.client.get(`/api/teams/${created.body.id}/members`, { token: owner.token });
    expect(members.body).toEqual([expect.objectContaining({ userId: owner.user.id, email: owner.email, role: 'owner' })]);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const owner = await session(stack);
    for (const body of [{}, { name: '' }, { name: 'X', slug: 'Not A Slug!' }, { name: 'X', settings: { defaultProvider: 'provider_z' } }, { name: 'X', settings: { sharedProviderKeys: 'yes' } }]) {
      const res = await stack.client.post('/api/teams', body, { token: owner.token });
      expect(res.status).toBe(400);
    }
    expect((await stack.client.get('/api/teams', { token: owner.token })).body).toEqual([]);
  });

  describe('invitations', () => {
    it('mails a single-use token, stores only its digest, and adds the invitee with the role', async () => {
      const owner = await session(stack);
      const invitee = await session(stack);
      const team = (await stack.client.post('/api/teams', { name: 'Inviters' }, { token: owner.token })).body;
      const invited = await stack.client.post(`/api/teams/${team.id}/invitations`, { email: invitee.email.toUpperCase(), role: 'viewer' }, { token: owner.token });
      expect(invited.status).toBe(201);
      expect(invited.body).toMatchObject({ teamId: team.id, email: invitee.email, role: 'viewer', acceptedAt: null });
      expect(invited.body).not.toHaveProperty('token');
      expect(new Date(invited.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
      const token = invitationToken(stack, invitee.email);
      const stored: Array<{ token_hash: string }> = await stack.infra.dataSource.query(`SELECT token_hash FROM team_invitations WHERE id = $1`, [invited.body.id]);
      expect(stored[0]!.token_hash).not.toContain(token);
      const accepted = await stack.client.post('/api/teams/invitations/accept', { token }, { token: invitee.token });
      expect(accepted.status).toBe(200);
      expect(accepted.body).toMatchObject({ id: team.id, role: 'viewer' });
      const again = await stack.client.post('/api/teams/invitations/accept', { token }, { token: invitee.token });
      expect(again.status).toBe(409);
      const members = await stack.client.get(`/api/teams/${team.id}/members`, { token: invitee.token });
      expect(members.body.map((m: { role: string }) => m.role)).toEqual(['owner', 'viewer']);
    });

    it('refuses an expired invitation, a wrong e-mail, an unknown token, and an invitation of a member', async () => {
      const owner = await session(stack);
      const invitee = await session(stack);
      const stranger = await session(stack);
      const team = (await stack.client.post('/api/teams', { name: 'Strict' }, { token: owner.token })).body;
      const invited = await stack.client.post(`/api/teams/${team.id}/invitations`, { email: invitee.email }, { token: owner.token });
      const token = invitationToken(stack, invitee.email);
      // Another account cannot use it, and trying does not burn it.
      expect((await stack.client.post('/api/teams/invitations/accept', { token }, { token: stranger.token })).status).toBe(403);
      expect((await stack.client.post('/api/teams/invitations/accept', { token: 'x'.repeat(43) }, { token: invitee.token })).status).toBe(404);
      await stack.infra.dataSource.query(`UPDATE team_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [invited.body.id]);
      expect((await stack.client.post('/api/teams/invitations/accept', { token }, { token: invitee.token })).status).toBe(400);
      expect((await stack.client.get(`/api/teams/${team.id}`, { token: invitee.token })).status).toBe(404);
      // A fresh invitation works; inviting them again once they are in is a 409.
      await addMember(stack, team.id, owner, invitee, 'member');
      expect((await stack.client.post(`/api/teams/${team.id}/invitations`, { email: invitee.email }, { token: owner.token })).status).toBe(409);
      expect((await stack.client.post(`/api/teams/${team.id}/invitations`, { email: owner.email }, { token: owner.token })).status).toBe(409);
    });

    it('lets Members invite only when the team allows it, and nobody invite above what they manage', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin, member, viewer } = world.users;
      const email = (await session(stack)).email;
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email }, { token: member.token })).status).toBe(403);
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email }, { token: viewer.token })).status).toBe(403);
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email, role: 'admin' }, { token: admin.token })).status).toBe(403);
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email, role: 'member' }, { token: admin.token })).status).toBe(201);
      await stack.client.put(`/api/teams/${world.teamId}`, { settings: { membersMayInvite: true } }, { token: owner.token });
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email, role: 'viewer' }, { token: member.token })).status).toBe(201);
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email, role: 'admin' }, { token: member.token })).status).toBe(403);
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email }, { token: viewer.token })).status).toBe(403);
      // Withdrawing an invitation makes its token useless.
      const pending = await stack.client.get(`/api/teams/${world.teamId}/invitations`, { token: admin.token });
      const last = pending.body[0];
      expect((await stack.client.delete(`/api/teams/${world.teamId}/invitations/${last.id}`, { token: member.token })).status).toBe(403);
      expect((await stack.client.delete(`/api/teams/${world.teamId}/invitations/${last.id}`, { token: admin.token })).status).toBe(204);
      expect((await stack.client.delete(`/api/teams/${world.teamId}/invitations/${last.id}`, { token: admin.token })).status).toBe(404);
      const invitee = outbox(stack).at(-1)!.to;
      expect(invitee).toBe(email);
    });

    it('sends a pending invitation again with a fresh token and expiry, the old token void; never an accepted one', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin, member } = world.users;
      const invitee = await session(stack);
      const invited = await stack.client.post(`/api/teams/${world.teamId}/invitations`, { email: invitee.email, role: 'admin' }, { token: owner.token });
      const first = invitationToken(stack, invitee.email);
      await stack.infra.dataSource.query(`UPDATE team_invitations SET expires_at = now() - interval '1 minute' WHERE id = $1`, [invited.body.id]);
      const path = `/api/teams/${world.teamId}/invitations/${invited.body.id}/resend`;
      // One teams policy: a Member may not (403), an Admin not for an Admin invitation (403), an outsider sees nothing (404).
      expect((await stack.client.post(path, {}, { token: member.token })).status).toBe(403);
      expect((await stack.client.post(path, {}, { token: admin.token })).status).toBe(403);
      expect((await stack.client.post(path, {}, { token: world.users.outsider.token })).status).toBe(404);
      expect((await stack.client.post(`/api/teams/${world.outsiderTeamId}/invitations/${invited.body.id}/resend`, {}, { token: world.users.outsider.token })).status).toBe(404);
      expect((await stack.client.post(`/api/teams/${world.teamId}/invitations/not-an-id/resend`, {}, { token: owner.token })).status).toBe(404);
      const resent = await stack.client.post(path, {}, { token: owner.token });
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ id: invited.body.id, email: invitee.email, role: 'admin', acceptedAt: null });
      expect(resent.body).not.toHaveProperty('token');
      expect(new Date(resent.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
      const second = invitationToken(stack, invitee.email);
      expect(second).not.toBe(first);
      expect(outbox(stack).at(-1)!.text).toContain(`/teams/accept?token=${second}`);
      expect((await stack.client.get(`/api/teams/${world.teamId}/invitations`, { token: owner.token })).body.filter((i: { email: string }) => i.email === invitee.email)).toHaveLength(1);
      expect((await stack.client.post('/api/teams/invitations/accept', { token: first }, { token: invitee.token })).status).toBe(404);
      expect((await stack.client.post('/api/teams/invitations/accept', { token: second }, { token: invitee.token })).status).toBe(200);
      expect((await stack.client.post(path, {}, { token: owner.token })).status).toBe(409);
    });
  });

  describe('roles and ownership', () => {
    it('keeps exactly one Owner: no demotion, removal or leaving without a transfer (409)', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin } = world.users;
      const id = world.teamId;
      expect((await stack.client.put(`/api/teams/${id}/members/${owner.user.id}`, { role: 'admin' }, { token: owner.token })).status).toBe(409);
      expect((await stack.client.put(`/api/teams/${id}/members/${admin.user.id}`, { role: 'owner' }, { token: owner.token })).status).toBe(400);
      expect((await stack.client.delete(`/api/teams/${id}/members/${owner.user.id}`, { token: owner.token })).status).toBe(409);
      expect((await stack.client.post(`/api/teams/${id}/leave`, {}, { token: owner.token })).status).toBe(409);
      expect((await stack.client.delete(`/api/teams/${id}/members/${owner.user.id}`, { token: admin.token })).status).toBe(409);
      // The transfer: the Owner's alone; the previous Owner stays an Admin and may then leave.
      expect((await stack.client.post(`/api/teams/${id}/transfer`, { userId: admin.user.id }, { token: admin.token })).status).toBe(403);
      const moved = await stack.client.post(`/api/teams/${id}/transfer`, { userId: admin.user.id }, { token: owner.token });
      expect(moved.status).toBe(200);
      const roles = (await stack.client.get(`/api/teams/${id}/members`, { token: admin.token })).body;
      expect(roles.filter((m: { role: string }) => m.role === 'owner')).toEqual([expect.objectContaining({ userId: admin.user.id })]);
      expect(roles.find((m: { userId: string }) => m.userId === owner.user.id).role).toBe('admin');
      // Nor can the Owner delete their account while they own a team.
      expect((await stack.client.delete('/api/users/me', { token: admin.token, body: { password: admin.password } })).status).toBe(409);
      expect((await stack.client.post(`/api/teams/${id}/leave`, {}, { token: owner.token })).status).toBe(204);
      expect((await stack.client.get(`/api/teams/${id}`, { token: owner.token })).status).toBe(404);
      // Owning no team any more, the former Owner may delete their account.
      expect((await stack.client.delete('/api/users/me', { token: owner.token, body: { password: owner.password } })).status).toBe(204);
    });

    it('lets an Admin manage Members and Viewers but not other Admins; the Owner manages everyone', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin, member, viewer } = world.users;
      const id = world.teamId;
      const second = await session(stack);
      await addMember(stack, id, owner, second, 'admin');
      expect((await stack.client.put(`/api/teams/${id}/members/${second.user.id}`, { role: 'viewer' }, { token: admin.token })).status).toBe(403);
      expect((await stack.client.put(`/api/teams/${id}/members/${member.user.id}`, { role: 'admin' }, { token: admin.token })).status).toBe(403);
      expect((await stack.client.put(`/api/teams/${id}/members/${viewer.user.id}`, { role: 'member' }, { token: member.token })).status).toBe(403);
      const promoted = await stack.client.put(`/api/teams/${id}/members/${viewer.user.id}`, { role: 'member' }, { token: admin.token });
      expect(promoted.status).toBe(200);
      expect(promoted.body).toMatchObject({ userId: viewer.user.id, role: 'member' });
      expect((await stack.client.put(`/api/teams/${id}/members/${member.user.id}`, { role: 'boss' }, { token: owner.token })).status).toBe(400);
      expect((await stack.client.delete(`/api/teams/${id}/members/${second.user.id}`, { token: admin.token })).status).toBe(403);
      expect((await stack.client.delete(`/api/teams/${id}/members/${second.user.id}`, { token: owner.token })).status).toBe(204);
      expect((await stack.client.delete(`/api/teams/${id}/members/${member.user.id}`, { token: admin.token })).status).toBe(204);
      expect((await stack.client.delete(`/api/teams/${id}/members/${member.user.id}`, { token: admin.token })).status).toBe(404);
    });

    it('transfers the applications with the team: the new Owner becomes their owner', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin } = world.users;
      const app = await teamApplication(stack, world);
      await stack.client.post(`/api/teams/${world.teamId}/transfer`, { userId: admin.user.id }, { token: owner.token });
      const rows: Array<{ owner_id: string }> = await stack.infra.dataSource.query(`SELECT owner_id FROM applications WHERE id = $1`, [app.id]);
      expect(rows[0]!.owner_id).toBe(admin.user.id);
      // Deleting the application is now the new Owner's right; the old one (an Admin) gets a 403.
      expect((await stack.client.delete(`/api/applications/${app.id}`, { token: owner.token })).status).toBe(403);
      // A team with applications cannot be deleted (409); once empty, its Owner deletes it.
      expect((await stack.client.delete(`/api/teams/${world.teamId}`, { token: admin.token })).status).toBe(409);
      expect((await stack.client.delete(`/api/applications/${app.id}`, { token: admin.token })).status).toBe(204);
      expect((await stack.client.delete(`/api/teams/${world.teamId}`, { token: owner.token })).status).toBe(403);
      expect((await stack.client.delete(`/api/teams/${world.teamId}`, { token: admin.token })).status).toBe(204);
      expect((await stack.client.get(`/api/teams/${world.teamId}`, { token: admin.token })).status).toBe(404);
    });

    it('moves an application into a team only for an Admin of the team who holds the application', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { member, admin, outsider } = world.users;
      const own = (await stack.client.post('/api/applications', { name: 'Mine' }, { token: member.token })).body;
      expect((await stack.client.post(`/api/applications/${own.id}/transfer`, { teamId: world.teamId }, { token: member.token })).status).toBe(403);
      expect((await stack.client.post(`/api/applications/${own.id}/transfer`, { teamId: world.outsiderTeamId }, { token: member.token })).status).toBe(404);
      expect((await stack.client.post(`/api/applications/${own.id}/transfer`, { teamId: world.teamId }, { token: admin.token })).status).toBe(404);
      expect((await stack.client.post(`/api/applications/${own.id}/transfer`, { teamId: 'nope' }, { token: member.token })).status).toBe(400);
      const adminsApp = (await stack.client.post('/api/applications', { name: 'Admins' }, { token: admin.token })).body;
      const moved = await stack.client.post(`/api/applications/${adminsApp.id}/transfer`, { teamId: world.teamId }, { token: admin.token });
      expect(moved.status).toBe(200);
      expect(moved.body.teamId).toBe(world.teamId);
      expect((await stack.client.get(`/api/applications/${adminsApp.id}`, { token: outsider.token })).status).toBe(404);
    });

    it('records team changes in the audit log, which the team\'s Owner and Admins read and its Members do not', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { owner, admin, member } = world.users;
      await stack.client.put(`/api/teams/${world.teamId}`, { description: 'audited' }, { token: owner.token });
      const actions = async (token: string) =>
        ((await stack.client.get('/api/audit?resource=team&limit=100', { token })).body as Array<{ action: string; actorId: string; teamId: string | null }>).filter((r) => r.teamId === world.teamId);
      const seenByAdmin = await actions(admin.token);
      expect(seenByAdmin).toEqual(expect.arrayContaining([expect.objectContaining({ action: 'team.change', actorId: owner.user.id, teamId: world.teamId })]));
      expect((await actions(member.token)).filter((r) => r.actorId === owner.user.id)).toEqual([]);
    });

    it('lists the caller\'s applications with their teams\' ones, filtered by ?teamId=', async () => {
      const world = await teamWithEveryRole(stack, 'free');
      const { viewer } = world.users;
      const app = await teamApplication(stack, world);
      const mine = (await stack.client.post('/api/applications', { name: 'Viewer Own' }, { token: viewer.token })).body;
      const ids = async (query: string) => (await stack.client.get(`/api/applications${query}`, { token: viewer.token })).body.map((a: { id: string }) => a.id).sort();
      expect(await ids('')).toEqual([app.id, mine.id].sort());
      expect(await ids(`?teamId=${world.teamId}`)).toEqual([app.id]);
      expect(await ids('?teamId=personal')).toEqual([mine.id]);
      expect(await ids(`?teamId=${world.outsiderTeamId}`)).toEqual([]);
      expect((await stack.client.get('/api/applications?teamId=abc', { token: viewer.token })).status).toBe(400);
    });
  });
});

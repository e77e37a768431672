import { DATABASE_KINDS } from '../../../support/test-database';
import { registerUser, startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { teamApplication, teamWithEveryRole, type TeamWorld } from '../../teams/team-support';
import { sendForm } from '../uploads/send-form';
import { settled, uploadDocument } from './knowledge-documents';

const HANDBOOK = { name: 'handbook.md', text: '# Travel handbook\n\nEmployees book train travel for any trip under 600 kilometres; flights need the approval of a director.' };
const OWN = { name: 'opening-hours.txt', text: 'The Basel showroom opens at nine and closes at six on weekdays.' };
const TEAM_DOC = { name: 'escalation.md', text: '# Escalation\n\nA ticket without an answer after four hours goes to the duty engineer on call.' };

const intoBase = (stack: TestStack, token: string, baseId: string, file: { name: string; text: string }) =>
  sendForm(stack.client.baseUrl, `/api/knowledge/bases/${baseId}/documents`, { token, fields: {}, file: { name: file.name, bytes: file.text } });

// Knowledge bases as their own resource: shared by applications, owned by a user or a team, on PGlite and PostgreSQL.
describe.each(DATABASE_KINDS)('core API: knowledge bases (%s)', (database) => {
  let stack: TestStack;
  let owner: Awaited<ReturnType<typeof userWithApplication>>;
  let second: { id: string };
  let baseId: string;
  let docId: string;

  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database });
    owner = await userWithApplication(stack.client, { name: 'Front Desk' });
    second = (await stack.client.post('/api/applications', { name: 'Travel Desk' }, { token: owner.token })).body;
    expect((await stack.client.put('/api/provider-keys/provider_a', { apiKey: 'sk-own-front-desk-key' }, { token: owner.token })).status).toBe(200);
  });
  afterAll(() => stack.close());

  it('creates, lists, reads and renames a base of its own; its documents are uploaded into it and listed under it', async () => {
    const created = await stack.client.post('/api/knowledge/bases', { name: 'Company handbook', description: 'Rules every desk follows' }, { token: owner.token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Company handbook', description: 'Rules every desk follows', teamId: null, applicationId: null, documentCount: 0 });
    baseId = created.body.id;

    const uploaded = await intoBase(stack, owner.token, baseId, HANDBOOK);
    expect(uploaded.status).toBe(202);
    docId = uploaded.body.id;
    expect(await settled(stack.client, owner.token, docId)).toMatchObject({ status: 'ready', baseId, fileName: 'handbook.md' });

    const listed = await stack.client.get('/api/knowledge/bases', { token: owner.token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([expect.objectContaining({ id: baseId, documentCount: 1 })]);
    const documents = await stack.client.get(`/api/knowledge/bases/${baseId}/documents`, { token: owner.token });
    expect(documents.body.map((d: { id: string }) => d.id)).toEqual([docId]);
    expect(documents.headers.get('x-total-count')).toBe('1');

    const renamed = await stack.client.patch(`/api/knowledge/bases/${baseId}`, { name: 'Handbook' }, { token: owner.token });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: baseId, name: 'Handbook', description: 'Rules every desk follows' });
    expect((await stack.client.post('/api/knowledge/bases', { name: '' }, { token: owner.token })).status).toBe(400);
    expect((await stack.client.post('/api/knowledge/bases', { name: 'x', teamId: 'not-an-id' }, { token: owner.token })).status).toBe(400);

    // The base search tester: one base alone.
    const found = await stack.client.get(`/api/knowledge/search?baseId=${baseId}&query=${encodeURIComponent('train travel approval')}`, { token: owner.token });
    expect(found.status).toBe(200);
    expect(found.body[0]).toMatchObject({ documentId: docId, fileName: 'handbook.md' });
  });

  it('one base used by two applications answers in both, beside each application\'s own documents; the chat cites it', async () => {
    const own = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, OWN);
    await settled(stack.client, owner.token, own.body.id);
    for (const appId of [owner.app.id, second.id]) {
      const put = await stack.client.put(`/api/knowledge/settings/${appId}`, { baseIds: [baseId] }, { token: owner.token });
      expect(put.status).toBe(200);
      expect(put.body.bases).toEqual([{ id: baseId, name: 'Handbook', teamId: null }]);
      expect((await stack.client.get(`/api/knowledge/settings/${appId}`, { token: owner.token })).body.bases).toEqual([{ id: baseId, name: 'Handbook', teamId: null }]);

      const asChat = await stack.client.get(`/api/knowledge/search?applicationId=${appId}&asChat=true&query=${encodeURIComponent('When do employees take the train?')}`, { token: owner.token });
      expect(asChat.body.map((h: { documentId: string }) => h.documentId)).toContain(docId);

      const conversation = await stack.client.post('/api/conversations', { applicationId: appId }, { token: owner.token });
      const answer = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'When do employees book train travel?' }, { token: owner.token });
      expect(answer.status).toBe(200);
      expect(answer.body.sources).toEqual(expect.arrayContaining([expect.objectContaining({ documentId: docId, fileName: 'handbook.md' })]));
    }
    // The first application still finds its own documents, which the second does not have.
    const hours = (appId: string) => stack.client.get(`/api/knowledge/search?applicationId=${appId}&query=${encodeURIComponent('Basel showroom opening hours')}`, { token: owner.token });
    expect((await hours(owner.app.id)).body.map((h: { documentId: string }) => h.documentId)).toContain(own.body.id);
    expect((await hours(second.id)).body.map((h: { documentId: string }) => h.documentId)).not.toContain(own.body.id);
    // The per-application routes address the application's own base.
    const ownList = await stack.client.get(`/api/knowledge?applicationId=${owner.app.id}`, { token: owner.token });
    expect(ownList.body.map((d: { id: string }) => d.id)).toEqual([own.body.id]);
    const ownBase = await stack.client.get(`/api/knowledge/bases/${owner.app.id}`, { token: owner.token });
    expect(ownBase.body).toMatchObject({ id: owner.app.id, applicationId: owner.app.id, name: 'Front Desk', documentCount: 1 });
    expect((await stack.client.delete(`/api/knowledge/bases/${owner.app.id}`, { token: owner.token })).status).toBe(409);
    // An application's own base is not another application's to use.
    expect((await stack.client.put(`/api/knowledge/settings/${second.id}`, { baseIds: [owner.app.id] }, { token: owner.token })).status).toBe(400);
  });

  it('answers 404 to a user without access for the base, its documents and every route under them', async () => {
    const stranger = await userWithApplication(stack.client, { name: 'Elsewhere' });
    const t = { token: stranger.token };
    const routes: Array<[string, () => Promise<{ status: number }>]> = [
      ['GET base', () => stack.client.get(`/api/knowledge/bases/${baseId}`, t)],
      ['PATCH base', () => stack.client.patch(`/api/knowledge/bases/${baseId}`, { name: 'Mine' }, t)],
      ['DELETE base', () => stack.client.delete(`/api/knowledge/bases/${baseId}`, t)],
      ['GET documents', () => stack.client.get(`/api/knowledge/bases/${baseId}/documents`, t)],
      ['POST document', () => intoBase(stack, stranger.token, baseId, { name: 'intrusion.txt', text: 'Nothing to see here at all.' })],
      ['POST base reindex', () => stack.client.post(`/api/knowledge/bases/${baseId}/reindex`, {}, t)],
      ['search the base', () => stack.client.get(`/api/knowledge/search?baseId=${baseId}&query=travel`, t)],
      ['use the base', () => stack.client.put(`/api/knowledge/settings/${stranger.app.id}`, { baseIds: [baseId] }, t)],
      ['GET document', () => stack.client.get(`/api/knowledge/${docId}`, t)],
      ['GET versions', () => stack.client.get(`/api/knowledge/${docId}/versions`, t)],
      ['GET chunks', () => stack.client.get(`/api/knowledge/${docId}/chunks`, t)],
      ['PATCH chunk', () => stack.client.patch(`/api/knowledge/${docId}/chunks/0`, { enabled: false }, t)],
      ['POST chunk', () => stack.client.post(`/api/knowledge/${docId}/chunks`, { content: 'Injected' }, t)],
      ['POST reindex', () => stack.client.post(`/api/knowledge/${docId}/reindex`, {}, t)],
      ['restore version', () => stack.client.post(`/api/knowledge/${docId}/versions/1/restore`, {}, t)],
      ['DELETE document', () => stack.client.delete(`/api/knowledge/${docId}`, t)],
      ['GET the application\'s own base', () => stack.client.get(`/api/knowledge/bases/${owner.app.id}`, t)],
      ['GET unknown base', () => stack.client.get('/api/knowledge/bases/00000000-0000-4000-8000-000000000000', t)],
      ['GET malformed base id', () => stack.client.get('/api/knowledge/bases/not-an-id', t)],
    ];
    for (const [name, call] of routes) expect([name, (await call()).status]).toEqual([name, 404]);
    expect((await stack.client.get('/api/knowledge/bases', t)).body).toEqual([]);
    // Nothing changed for the owner.
    expect(await settled(stack.client, owner.token, docId)).toMatchObject({ status: 'ready', version: 1 });
    expect((await stack.client.get(`/api/knowledge/bases/${baseId}`, { token: owner.token })).body).toMatchObject({ name: 'Handbook', documentCount: 1 });
  });

  describe('a team\'s base', () => {
    let world: TeamWorld;
    let teamBase: string;
    let teamDoc: string;

    beforeAll(async () => {
      world = await teamWithEveryRole(stack);
    });

    it('is created by a Member (not a Viewer, not an outsider), read by every role, written by Members, deleted by the Owner alone', async () => {
      const u = world.users;
      expect((await stack.client.post('/api/knowledge/bases', { name: 'Runbooks', teamId: world.teamId }, { token: u.viewer.token })).status).toBe(403);
      expect((await stack.client.post('/api/knowledge/bases', { name: 'Runbooks', teamId: world.teamId }, { token: u.outsider.token })).status).toBe(404);
      const created = await stack.client.post('/api/knowledge/bases', { name: 'Runbooks', teamId: world.teamId }, { token: u.member.token });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ teamId: world.teamId, applicationId: null });
      teamBase = created.body.id;

      expect((await intoBase(stack, u.viewer.token, teamBase, TEAM_DOC)).status).toBe(403);
      const uploaded = await intoBase(stack, u.member.token, teamBase, TEAM_DOC);
      expect(uploaded.status).toBe(202);
      teamDoc = uploaded.body.id;
      expect(await settled(stack.client, u.viewer.token, teamDoc)).toMatchObject({ status: 'ready', baseId: teamBase });

      for (const role of ['owner', 'admin', 'member', 'viewer'] as const) {
        const token = u[role].token;
        expect([role, (await stack.client.get(`/api/knowledge/bases/${teamBase}`, { token })).status]).toEqual([role, 200]);
        expect((await stack.client.get(`/api/knowledge/bases?teamId=${world.teamId}`, { token })).body.map((b: { id: string }) => b.id)).toEqual([teamBase]);
        expect((await stack.client.get(`/api/knowledge/${teamDoc}/chunks`, { token })).status).toBe(200);
      }
      expect((await stack.client.get(`/api/knowledge/search?baseId=${teamBase}&query=${encodeURIComponent('duty engineer')}`, { token: u.viewer.token })).body[0]).toMatchObject({ documentId: teamDoc });
      expect((await stack.client.patch(`/api/knowledge/bases/${teamBase}`, { description: 'x' }, { token: u.viewer.token })).status).toBe(403);
      expect((await stack.client.patch(`/api/knowledge/${teamDoc}/chunks/0`, { enabled: false }, { token: u.viewer.token })).status).toBe(403);
      expect((await stack.client.delete(`/api/knowledge/${teamDoc}`, { token: u.viewer.token })).status).toBe(403);
      expect((await stack.client.patch(`/api/knowledge/bases/${teamBase}`, { description: 'On-call procedures' }, { token: u.member.token })).status).toBe(200);
      expect((await stack.client.get(`/api/knowledge/bases/${teamBase}`, { token: u.outsider.token })).status).toBe(404);
      expect((await stack.client.get(`/api/knowledge/${teamDoc}`, { token: u.outsider.token })).status).toBe(404);
      expect((await stack.client.get(`/api/knowledge/bases?teamId=${world.teamId}`, { token: u.outsider.token })).status).toBe(404);

      // A team application uses it: a Viewer may not change that, a Member may.
      const app = await teamApplication(stack, world, 'Support Desk');
      expect((await stack.client.put(`/api/knowledge/settings/${app.id}`, { baseIds: [teamBase] }, { token: u.viewer.token })).status).toBe(403);
      expect((await stack.client.put(`/api/knowledge/settings/${app.id}`, { baseIds: [teamBase] }, { token: u.member.token })).status).toBe(200);
      // A Member's personal base used by the team's application stays when an Admin, who cannot open it, saves the list.
      const notes = (await stack.client.post('/api/knowledge/bases', { name: 'Member notes' }, { token: u.member.token })).body.id;
      expect((await stack.client.put(`/api/knowledge/settings/${app.id}`, { baseIds: [teamBase, notes] }, { token: u.member.token })).status).toBe(200);
      expect((await stack.client.get(`/api/knowledge/bases/${notes}`, { token: u.admin.token })).status).toBe(404);
      const kept = await stack.client.put(`/api/knowledge/settings/${app.id}`, { baseIds: [teamBase, notes] }, { token: u.admin.token });
      expect(kept.status).toBe(200);
      expect(kept.body.bases.map((b: { id: string }) => b.id)).toEqual([teamBase, notes]);
      const outsiders = (await stack.client.post('/api/knowledge/bases', { name: 'Outside' }, { token: u.outsider.token })).body.id;
      expect((await stack.client.put(`/api/knowledge/settings/${app.id}`, { baseIds: [teamBase, outsiders] }, { token: u.admin.token })).status).toBe(404);
      expect((await stack.client.put(`/api/knowledge/settings/${app.id}`, { baseIds: [teamBase] }, { token: u.admin.token })).status).toBe(200);
      const asChat = await stack.client.get(`/api/knowledge/search?applicationId=${app.id}&asChat=true&query=${encodeURIComponent('unanswered ticket duty engineer')}`, { token: u.viewer.token });
      expect(asChat.body.map((h: { documentId: string }) => h.documentId)).toContain(teamDoc);

      expect((await stack.client.delete(`/api/knowledge/bases/${teamBase}`, { token: u.admin.token })).status).toBe(403);
      expect((await stack.client.delete(`/api/knowledge/bases/${teamBase}`, { token: u.owner.token })).status).toBe(204);
      expect((await stack.client.get(`/api/knowledge/${teamDoc}`, { token: u.owner.token })).status).toBe(404);
      // The application no longer uses it, and searches on.
      expect((await stack.client.get(`/api/knowledge/settings/${app.id}`, { token: u.owner.token })).body.bases).toEqual([]);
      const after = await stack.client.get(`/api/knowledge/search?applicationId=${app.id}&query=${encodeURIComponent('duty engineer')}`, { token: u.owner.token });
      expect(after.status).toBe(200);
      expect(after.body).toEqual([]);
    });
  });

  it('a base deleted by its owner leaves the applications that used it, with its documents', async () => {
    const other = await registerUser(stack.client);
    expect((await stack.client.delete(`/api/knowledge/bases/${baseId}`, { token: other.access_token })).status).toBe(404);
    expect((await stack.client.delete(`/api/knowledge/bases/${baseId}`, { token: owner.token })).status).toBe(204);
    expect((await stack.client.get(`/api/knowledge/settings/${second.id}`, { token: owner.token })).body.bases).toEqual([]);
    const search = await stack.client.get(`/api/knowledge/search?applicationId=${second.id}&query=${encodeURIComponent('train travel')}`, { token: owner.token });
    expect(search.body).toEqual([]);
    expect((await stack.client.get(`/api/knowledge/${docId}`, { token: owner.token })).status).toBe(404);
  });
});

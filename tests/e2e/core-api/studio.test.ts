import { postStream, readSseEvents } from '../../support/sse';
import { DATABASE_KINDS } from '../../support/test-database';
import { startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, withKey } from '../public-api/public-api-support';
import { teamApplication, teamWithEveryRole } from '../teams/team-support';

describe.each(DATABASE_KINDS)('application studio (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database });
  });
  afterAll(() => stack.close());

  const studio = (appId: string) => `/api/applications/${appId}/studio`;
  const publicAnswer = async (key: string, appId: string) => {
    const res = await stack.client.post('/api/v1/chat', { message: 'Who are you?', applicationId: appId }, withKey(key));
    expect(res.status).toBe(200);
    return res.body.message.content as string;
  };
  const debugTurn = async (token: string, appId: string, body: Record<string, unknown>) => {
    const res = await postStream(`${stack.listening.url}${studio(appId)}/debug/stream`, body, { Authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    return readSseEvents(res);
  };

  it('answers the debug chat with the draft while the public API keeps the published version, until Publish; restores an earlier one', async () => {
    const owner = await anOwnerWithKey(stack);
    const { token, app, key } = owner;
    const first = await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'You are Ada, a librarian.' }, { token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ saved: true, unpublishedChanges: true, latestVersion: null, config: { instructions: 'You are Ada, a librarian.', provider: 'provider_a' } });
    const v1 = await stack.client.post(`${studio(app.id)}/publish`, { note: 'First words' }, { token });
    expect(v1.status).toBe(201);
    expect(v1.body).toMatchObject({ number: 1, note: 'First words', publishedBy: { id: owner.user.id, email: owner.user.email } });
    expect(await publicAnswer(key.key, app.id)).toContain('[system: You are Ada, a librarian.]');

    const draft = await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'You are {{name}}, a pirate.', variables: { name: 'Bo' }, settings: { temperature: 0.3 } }, { token });
    expect(draft.body).toMatchObject({ variables: ['name'], unpublishedChanges: true, live: { publishedVersion: 1, systemPromptFrom: 'model_config', systemPrompt: 'You are Ada, a librarian.' } });
    // End users still get version 1; the debug chat answers with the draft, and with unsaved changes and variable values on top.
    expect(await publicAnswer(key.key, app.id)).toContain('[system: You are Ada, a librarian.]');
    const events = await debugTurn(token, app.id, { content: 'Who are you?', variables: { name: 'Cy' } });
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', provider: 'provider_a', conversationId: expect.any(String) });
    expect(done.fullResponse).toContain('[system: You are Cy, a pirate.]');
    const unsaved = await debugTurn(token, app.id, { content: 'And now?', conversationId: done.conversationId, config: { instructions: 'Unsaved words.' } });
    expect(unsaved.at(-1).fullResponse).toContain('[system: Unsaved words.]');
    expect(unsaved.at(-1).conversationId).toBe(done.conversationId);

    const v2 = await stack.client.post(`${studio(app.id)}/publish`, { note: 'Pirate' }, { token });
    expect(v2.body.number).toBe(2);
    expect(await publicAnswer(key.key, app.id)).toContain('[system: You are Bo, a pirate.]');

    const list = await stack.client.get(`${studio(app.id)}/versions`, { token });
    expect(list.body.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect(list.headers.get('x-total-count')).toBe('2');
    const diff = await stack.client.get(`${studio(app.id)}/diff?from=1&to=2`, { token });
    expect(diff.status).toBe(200);
    expect(diff.body.fields.find((f: { field: string }) => f.field === 'instructions')).toEqual({ field: 'instructions', label: 'Instructions', from: 'You are Ada, a librarian.', to: 'You are {{name}}, a pirate.', changed: true });
    expect(diff.body.fields.find((f: { field: string }) => f.field === 'modelId').changed).toBe(false);

    const restored = await stack.client.post(`${studio(app.id)}/versions/1/restore`, {}, { token });
    expect(restored.body).toMatchObject({ basedOnVersion: 1, config: { instructions: 'You are Ada, a librarian.' }, unpublishedChanges: true });
    // Restoring fills the draft; end users get it once it is published.
    expect(await publicAnswer(key.key, app.id)).toContain('[system: You are Bo, a pirate.]');
    await stack.client.post(`${studio(app.id)}/publish`, { note: 'Back to Ada' }, { token });
    expect(await publicAnswer(key.key, app.id)).toContain('[system: You are Ada, a librarian.]');
  });

  it('says where the system prompt comes from when a default template exists beside the config', async () => {
    const { token, app } = await userWithApplication(stack.client, { name: 'Sources' });
    await stack.client.post('/api/prompts', { applicationId: app.id, name: 'Greeter', content: 'Template words', isDefault: true }, { token });
    const before = await stack.client.get(`${studio(app.id)}/draft`, { token });
    expect(before.body).toMatchObject({ saved: false, config: { instructions: 'Template words' }, live: { systemPromptFrom: 'prompt_template', template: { name: 'Greeter' }, modelFrom: 'provider_default' } });
    await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'Config words' }, { token });
    await stack.client.post(`${studio(app.id)}/publish`, {}, { token });
    const after = await stack.client.get(`${studio(app.id)}/draft`, { token });
    expect(after.body.live).toMatchObject({ systemPromptFrom: 'model_config', unusedTemplate: { name: 'Greeter' }, modelFrom: 'model_config', modelConfig: { name: 'Studio' }, publishedVersion: 1 });
  });

  it('starts an A/B test from a version on the default model config', async () => {
    const { token, app } = await userWithApplication(stack.client, { name: 'AB' });
    await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'One' }, { token });
    await stack.client.post(`${studio(app.id)}/publish`, {}, { token });
    await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'Two' }, { token });
    await stack.client.post(`${studio(app.id)}/publish`, {}, { token });
    const ab = await stack.client.post(`${studio(app.id)}/versions/1/ab-test`, { trafficPercent: 30 }, { token });
    expect(ab.status).toBe(201);
    expect(ab.body).toMatchObject({ label: 'Studio version 1', trafficPercent: 30, isActive: true, settings: { systemPrompt: 'One' } });
    const view = await stack.client.get(`${studio(app.id)}/draft`, { token });
    expect(view.body.live.abTest).toMatchObject({ defaultConfigPercent: 70, versions: [{ label: 'Studio version 1', trafficPercent: 30, systemPromptFrom: 'ab_version' }] });
  });

  it("answers 404 for another user's application and 400 with the error body for bad input", async () => {
    const mine = await userWithApplication(stack.client, { name: 'Mine' });
    const other = await userWithApplication(stack.client, { name: 'Theirs' });
    for (const [method, path, body] of [
      ['get', '/draft', undefined],
      ['put', '/draft', { instructions: 'x' }],
      ['post', '/publish', {}],
      ['get', '/versions', undefined],
      ['get', '/diff?to=draft&from=draft', undefined],
    ] as const) {
      const res = method === 'get' ? await stack.client.get(`${studio(other.app.id)}${path}`, { token: mine.token }) : await stack.client[method](`${studio(other.app.id)}${path}`, body, { token: mine.token });
      expect(res.status).toBe(404);
    }
    const stream = await postStream(`${stack.listening.url}${studio(other.app.id)}/debug/stream`, { content: 'hi' }, { Authorization: `Bearer ${mine.token}` });
    expect(stream.status).toBe(404);
    const bad = await stack.client.put(`${studio(mine.app.id)}/draft`, { settings: { temperature: 9 } }, { token: mine.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 400, error: 'Bad Request', details: [{ path: 'settings.temperature' }] });
    expect((await stack.client.put(`${studio(mine.app.id)}/draft`, { settings: { systemPrompt: 'x' } }, { token: mine.token })).status).toBe(400);
    expect((await stack.client.put(`${studio(mine.app.id)}/draft`, { suggestedQuestions: 'x' }, { token: mine.token })).status).toBe(400);
    expect((await stack.client.get(`${studio(mine.app.id)}/versions/abc`, { token: mine.token })).status).toBe(400);
    expect((await stack.client.get(`${studio(mine.app.id)}/versions/7`, { token: mine.token })).status).toBe(404);
    await stack.client.put(`${studio(mine.app.id)}/draft`, { instructions: 'Hi {{who}}' }, { token: mine.token });
    const missing = await stack.client.post(`${studio(mine.app.id)}/publish`, {}, { token: mine.token });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: 'variables.who', message: expect.any(String) }]);
  });

  it('lets every team role read the studio and try the draft, and only members and above change or publish it', async () => {
    const team = await teamWithEveryRole(stack);
    const app = await teamApplication(stack, team, 'Team Studio');
    const viewer = team.users.viewer.token;
    const read = await stack.client.get(`${studio(app.id)}/draft`, { token: viewer });
    expect(read.status).toBe(200);
    expect(read.body.canEdit).toBe(false);
    expect((await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'x' }, { token: viewer })).status).toBe(403);
    expect((await stack.client.post(`${studio(app.id)}/publish`, {}, { token: viewer })).status).toBe(403);
    const events = await debugTurn(viewer, app.id, { content: 'Hi', config: { instructions: 'Viewer trial' } });
    expect(events.at(-1).fullResponse).toContain('[system: Viewer trial]');
    const member = team.users.member.token;
    expect((await stack.client.get(`${studio(app.id)}/draft`, { token: member })).body.canEdit).toBe(true);
    expect((await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'Member words' }, { token: member })).status).toBe(200);
    expect((await stack.client.post(`${studio(app.id)}/publish`, { note: 'by a member' }, { token: member })).status).toBe(201);
    expect((await stack.client.get(`${studio(app.id)}/draft`, { token: team.users.outsider.token })).status).toBe(404);
  });

  it('numbers publishes made at the same time one after another, never twice the same', async () => {
    const { token, app } = await userWithApplication(stack.client, { name: 'Busy' });
    await stack.client.put(`${studio(app.id)}/draft`, { instructions: 'Same' }, { token });
    const published = await Promise.all([1, 2, 3, 4].map(() => stack.client.post(`${studio(app.id)}/publish`, {}, { token })));
    expect(published.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(published.map((r) => r.body.number).sort()).toEqual([1, 2, 3, 4]);
    const configs = await stack.client.get(`/api/model-configs?applicationId=${app.id}`, { token });
    expect(configs.body.map((c: { name: string; isDefault: boolean }) => [c.name, c.isDefault])).toEqual([['Studio', true]]);
  });
});

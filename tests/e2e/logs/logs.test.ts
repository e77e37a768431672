import { postStream, readSseEvents } from '../../support/sse';
import { DATABASE_KINDS } from '../../support/test-database';
import { startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { anOwnerWithKey, withKey } from '../public-api/public-api-support';
import { teamApplication, teamWithEveryRole } from '../teams/team-support';
import { flushTraces } from '../traces/trace-support';

describe.each(DATABASE_KINDS)('application logs and annotations (%s)', (database) => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, database });
  });
  afterAll(() => stack.close());

  const logs = (appId: string) => `/api/applications/${appId}/logs`;
  const annotations = (appId: string) => `/api/applications/${appId}/annotations`;

  it('lists every channel’s conversations with filters, shows one with its answers, and answers close questions from annotations without the model', async () => {
    const owner = await anOwnerWithKey(stack);
    const { token, app, key } = owner;
    const widget = await stack.client.post('/api/v1/chat', { message: 'How do I reset my password?', applicationId: app.id }, withKey(key.key, { 'X-Client': 'widget' }));
    expect(widget.status).toBe(200);
    const api = await stack.client.post('/api/v1/chat', { message: 'Tell me about the pricing plans', applicationId: app.id }, withKey(key.key));
    expect(api.status).toBe(200);

    // Newest activity first; each row names its channel and end user, with tokens.
    const all = await stack.client.get(logs(app.id), { token });
    expect(all.status).toBe(200);
    expect(all.headers.get('x-total-count')).toBe('2');
    expect(all.body.map((r: { id: string }) => r.id)).toEqual([api.body.conversationId, widget.body.conversationId]);
    expect(all.body[1]).toMatchObject({
      channel: 'widget',
      endUser: { kind: 'api_key' },
      firstMessage: 'How do I reset my password?',
      messageCount: 2,
      rating: { up: 0, down: 0, average: null },
      failedAnswers: 0,
      toolCalls: 0,
    });
    expect(all.body[1].tokens.total).toBeGreaterThan(0);
    expect(all.body[0].channel).toBe('api');

    const byChannel = await stack.client.get(`${logs(app.id)}?channel=widget`, { token });
    expect(byChannel.body.map((r: { id: string }) => r.id)).toEqual([widget.body.conversationId]);
    const bySearch = await stack.client.get(`${logs(app.id)}?q=pricing`, { token });
    expect(bySearch.body.map((r: { id: string }) => r.id)).toEqual([api.body.conversationId]);
    expect((await stack.client.get(`${logs(app.id)}?errors=true`, { token })).body).toEqual([]);
    expect((await stack.client.get(`${logs(app.id)}?tools=false`, { token })).body).toHaveLength(2);
    expect((await stack.client.get(`${logs(app.id)}?from=2999-01-01`, { token })).body).toEqual([]);
    const rated = await stack.client.post(`/api/conversations/${widget.body.conversationId}/messages/${widget.body.message.id}/rating`, { rating: 5 }, { token });
    expect(rated.status).toBe(200);
    const good = await stack.client.get(`${logs(app.id)}?rating=good`, { token });
    expect(good.body.map((r: { id: string }) => r.id)).toEqual([widget.body.conversationId]);
    expect(good.body[0].rating).toEqual({ up: 1, down: 0, average: 5 });
    expect((await stack.client.get(`${logs(app.id)}?channel=fax`, { token })).status).toBe(400);
    expect((await stack.client.get(`${logs(app.id)}?from=yesterday`, { token })).status).toBe(400);

    // One conversation: its messages, each answer with usage, cost, rating and its trace (written once the batch is flushed).
    await flushTraces(stack);
    const one = await stack.client.get(`${logs(app.id)}/${widget.body.conversationId}`, { token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: widget.body.conversationId, channel: 'widget', messages: [{ role: 'user', content: 'How do I reset my password?' }, { role: 'assistant', rating: 5, answeredByAnnotationId: null }] });
    expect(one.body.messages[1].usage.totalTokens).toBeGreaterThan(0);
    const turnSpans: Array<{ name: string; attributes: Record<string, unknown> }> = one.body.messages[1].trace.spans;
    expect(turnSpans[0]).toMatchObject({ name: 'chat.turn', attributes: { 'app.channel': 'widget', 'app.message.id': widget.body.message.id } });
    expect(turnSpans.some((span) => span.attributes['gen_ai.operation.name'] === 'chat' && span.name !== 'chat.turn')).toBe(true);

    // Another user sees neither the application's logs nor its conversation; another application's conversation is not this one's.
    const stranger = await userWithApplication(stack.client, { name: 'Elsewhere' });
    expect((await stack.client.get(logs(app.id), { token: stranger.token })).status).toBe(404);
    expect((await stack.client.get(`${logs(app.id)}/${widget.body.conversationId}`, { token: stranger.token })).status).toBe(404);
    expect((await stack.client.get(`${logs(stranger.app.id)}/${widget.body.conversationId}`, { token: stranger.token })).status).toBe(404);
    expect((await stack.client.post(annotations(app.id), { question: 'q', answer: 'a' }, { token: stranger.token })).status).toBe(404);

    // Annotate the widget's answer with the answer it should have been; list, edit and export it.
    const better = 'Open Settings, choose Security, then Reset password.';
    const created = await stack.client.post(annotations(app.id), { messageId: widget.body.message.id, answer: better }, { token });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'corrected', question: 'How do I reset my password?', answer: better, messageId: widget.body.message.id });
    expect((await stack.client.post(annotations(app.id), { messageId: widget.body.message.id }, { token })).status).toBe(409);

    // An annotation goes into an evaluation dataset in one step: its question the input, its answer the expected one.
    const dataset = await stack.client.post(`/api/applications/${app.id}/datasets`, { name: 'From annotations' }, { token });
    const intoDataset = `/api/applications/${app.id}/datasets/${dataset.body.id}/items/from-annotations`;
    const added = await stack.client.post(intoDataset, { annotationIds: [created.body.id] }, { token });
    expect(added.status).toBe(201);
    expect(added.body.added).toMatchObject([{ input: { message: 'How do I reset my password?' }, expected: better, tags: ['annotation'] }]);
    const strangers = await userWithApplication(stack.client);
    expect((await stack.client.post(intoDataset, { annotationIds: [created.body.id] }, { token: strangers.token })).status).toBe(404);
    expect((await stack.client.post(intoDataset, { annotationIds: ['00000000-0000-4000-8000-000000000000'] }, { token })).status).toBe(404);
    expect((await stack.client.post(intoDataset, { annotationIds: [] }, { token })).status).toBe(400);
    // A logged answer goes in the same way: the question before it the input, the answer given the one expected.
    const fromLogs = `/api/applications/${app.id}/datasets/${dataset.body.id}/items/from-messages`;
    const logged = await stack.client.post(fromLogs, { messageIds: [api.body.message.id] }, { token });
    expect(logged.status).toBe(201);
    expect(logged.body.added).toMatchObject([{ input: { message: 'Tell me about the pricing plans' }, expected: api.body.message.content, tags: ['log'] }]);
    expect((await stack.client.post(fromLogs, { messageIds: [api.body.message.id] }, { token: strangers.token })).status).toBe(404);
    const manual = await stack.client.post(annotations(app.id), { question: 'Do you ship abroad?', answer: '=Yes, to 40 countries.' }, { token });
    expect(manual.body.kind).toBe('manual');
    const listed = await stack.client.get(annotations(app.id), { token });
    expect(listed.headers.get('x-total-count')).toBe('2');
    const edited = await stack.client.put(`${annotations(app.id)}/${manual.body.id}`, { answer: 'Yes, to 40 countries.' }, { token });
    expect(edited.body).toMatchObject({ answer: 'Yes, to 40 countries.', kind: 'manual' });
    const csv = await stack.client.get(`${annotations(app.id)}/export?format=csv`, { token });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toBe('id,kind,question,answer,message_id,hit_count,created_at,updated_at');
    expect(csv.text).toContain(`corrected,How do I reset my password?,"Open Settings, choose Security, then Reset password."`);
    const jsonl = await fetch(`${stack.listening.url}${annotations(app.id)}/export?format=jsonl`, { headers: { Authorization: `Bearer ${token}` } });
    expect(jsonl.headers.get('content-type')).toContain('application/x-ndjson');
    expect((await jsonl.text()).trim().split('\n').map((l) => JSON.parse(l).question)).toEqual(['How do I reset my password?', 'Do you ship abroad?']);
    const view = await stack.client.get(`${logs(app.id)}/${widget.body.conversationId}`, { token });
    expect(view.body.messages[1].annotationId).toBe(created.body.id);

    // Replies off: the model answers even the same question.
    stack.emulator!.reset();
    await stack.client.post('/api/v1/chat', { message: 'How do I reset my password?', applicationId: app.id }, withKey(key.key));
    expect(stack.emulator!.requests.length).toBeGreaterThan(0);

    const settings = await stack.client.put(`${annotations(app.id)}/settings`, { repliesEnabled: true, threshold: 0.85 }, { token });
    expect(settings.body).toEqual({ repliesEnabled: true, threshold: 0.85 });
    expect((await stack.client.put(`${annotations(app.id)}/settings`, { repliesEnabled: true, threshold: 2 }, { token })).status).toBe(400);

    // A close question is answered with the annotated answer, whole and streamed, with no provider request.
    stack.emulator!.reset();
    const served = await stack.client.post('/api/v1/chat', { message: 'how do i reset my password', applicationId: app.id }, withKey(key.key));
    expect(served.status).toBe(200);
    expect(served.body.message.content).toBe(better);
    const stream = await postStream(`${stack.listening.url}/api/v1/chat/stream`, { message: 'How do I reset my password?', applicationId: app.id }, { 'X-API-Key': key.key });
    const events = await readSseEvents(stream);
    expect(events.at(-1)).toMatchObject({ type: 'done', fullResponse: better });
    expect(stack.emulator!.requests).toHaveLength(0);
    const log = await stack.client.get(`${logs(app.id)}/${served.body.conversationId}`, { token });
    expect(log.body.messages[1]).toMatchObject({ content: better, provider: 'annotation', answeredByAnnotationId: created.body.id });
    // Its trace says which annotation answered, and holds no model round.
    await flushTraces(stack);
    const replied = (await stack.client.get(`${logs(app.id)}/${served.body.conversationId}`, { token })).body.messages[1].trace;
    expect(replied.spans.map((span: { name: string }) => span.name)).toEqual(['chat.turn', 'annotation.reply']);
    expect(replied.spans[1].attributes).toMatchObject({ 'app.annotation.id': created.body.id });
    expect(replied.spans[1].attributes['app.annotation.score']).toBeGreaterThanOrEqual(0.85);
    expect((await stack.client.get(annotations(app.id), { token })).body.find((a: { id: string }) => a.id === created.body.id).hitCount).toBe(2);

    // An unrelated question goes to the model.
    const unrelated = await stack.client.post('/api/v1/chat', { message: 'What is the weather like in Lisbon today?', applicationId: app.id }, withKey(key.key));
    expect(unrelated.body.message.content).not.toBe(better);
    expect(stack.emulator!.requests.length).toBeGreaterThan(0);

    // Changes are audited; deleting an annotation stops its replies.
    const audit = await stack.client.get(`/api/audit?application=${app.id}`, { token });
    expect(audit.body.map((r: { action: string }) => r.action)).toEqual(expect.arrayContaining(['annotation.create', 'annotation.update', 'annotation.settings']));
    expect((await stack.client.delete(`${annotations(app.id)}/${created.body.id}`, { token })).status).toBe(204);
    stack.emulator!.reset();
    const after = await stack.client.post('/api/v1/chat', { message: 'How do I reset my password?', applicationId: app.id }, withKey(key.key));
    expect(after.body.message.content).not.toBe(better);
    expect(stack.emulator!.requests.length).toBeGreaterThan(0);
  });

  it('applies team roles: every member reads the logs and annotations, a viewer cannot annotate, an outsider sees nothing', async () => {
    const world = await teamWithEveryRole(stack);
    const app = await teamApplication(stack, world, 'Team Logs');
    const { owner, member, viewer, outsider } = world.users;
    const conversation = await stack.client.post('/api/conversations', { applicationId: app.id }, { token: owner.token });
    expect((await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'Hello from the team' }, { token: owner.token })).status).toBe(200);
    const seen = await stack.client.get(logs(app.id), { token: viewer.token });
    expect(seen.status).toBe(200);
    expect(seen.body[0]).toMatchObject({ channel: 'console', endUser: { kind: 'console' }, firstMessage: 'Hello from the team' });
    expect((await stack.client.get(`${logs(app.id)}/${conversation.body.id}`, { token: viewer.token })).status).toBe(200);
    expect((await stack.client.post(annotations(app.id), { question: 'Hi?', answer: 'Hello.' }, { token: viewer.token })).status).toBe(403);
    expect((await stack.client.put(`${annotations(app.id)}/settings`, { repliesEnabled: true, threshold: 0.9 }, { token: viewer.token })).status).toBe(403);
    expect((await stack.client.post(annotations(app.id), { question: 'Hi?', answer: 'Hello.' }, { token: member.token })).status).toBe(201);
    expect((await stack.client.get(annotations(app.id), { token: viewer.token })).body).toHaveLength(1);
    expect((await stack.client.get(logs(app.id), { token: outsider.token })).status).toBe(404);
    expect((await stack.client.get(`${annotations(app.id)}/export`, { token: outsider.token })).status).toBe(404);
  });

  it('lists the hosted page’s conversations as a visitor’s', async () => {
    const owner = await anOwnerWithKey(stack, { appName: 'Hosted Logs' });
    expect((await stack.client.put(`/api/applications/${owner.app.id}`, { hostedPage: { enabled: true } }, { token: owner.token })).status).toBe(200);
    const res = await fetch(`${stack.listening.url}/api/hosted/${owner.app.slug}/chat/stream`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'Is the harbour open?' }) });
    expect(res.status).toBe(200);
    await res.text();
    const rows = await stack.client.get(`${logs(owner.app.id)}?channel=hosted_page`, { token: owner.token });
    expect(rows.body).toEqual([expect.objectContaining({ channel: 'hosted_page', endUser: { kind: 'visitor', name: null }, firstMessage: 'Is the harbour open?', messageCount: 2 })]);
    expect((await stack.client.get(`${logs(owner.app.id)}?channel=widget,api`, { token: owner.token })).body).toEqual([]);
  });
});

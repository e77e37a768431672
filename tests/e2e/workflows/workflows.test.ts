import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from '../../../apps/shared/tokens';
import { WorkflowEventTrigger } from '../../../core/workflows/use-cases/workflow-runs.use-cases';
import { createKey, withKey } from '../public-api/public-api-support';
import { aPlugin } from '../../support/plugins/plugin-examples';
import { paidUserWithApplication, startCoreApi, userWithApplication, type TestStack } from '../../support/test-stack';
import { DATABASE_KINDS } from '../../support/test-database';
import { waitFor } from '../../support/wait-for';
import { uploadDocument, settled } from '../core-api/knowledge/knowledge-documents';

/** A JSON API on 127.0.0.2 (the one private range the stack allows) that echoes what it got. */
async function echoServer(host: string): Promise<{ server: Server; port: number; received: Array<{ method: string; url: string; body: string; headers: IncomingMessage['headers'] }> }> {
  const received: Array<{ method: string; url: string; body: string; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, echoed: body ? JSON.parse(body) : null, score: 7 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, received };
}

describe.each(DATABASE_KINDS)('workflows (%s)', (database) => {
  let stack: TestStack;
  let api: Awaited<ReturnType<typeof echoServer>>;
  let trap: Awaited<ReturnType<typeof echoServer>>;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;

  beforeAll(async () => {
    api = await echoServer('127.0.0.2');
    trap = await echoServer('127.0.0.1');
    stack = await startCoreApi({ database, providers: true, env: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOWED_PRIVATE_CIDRS: '127.0.0.2/32' } });
    owner = await paidUserWithApplication(stack, 'pro');
  });
  afterAll(async () => {
    await stack?.close();
    await new Promise((r) => api.server.close(r));
    await new Promise((r) => trap.server.close(r));
  });

  const create = (body: Record<string, unknown>, token = owner.token) => stack.client.post('/api/workflows', { applicationId: owner.app.id, name: 'Flow', ...body }, { token });
  const trigger = (id: string, input: unknown = {}, token = owner.token) => stack.client.post(`/api/workflows/${id}/trigger`, { input }, { token });
  const runOf = (runId: string, token = owner.token) => stack.client.get(`/api/workflows/runs/${runId}`, { token });
  async function finished(runId: string, timeoutMs = 15_000): Promise<any> {
    let last: any;
    await waitFor(async () => {
      last = (await runOf(runId)).body;
      return ['completed', 'failed', 'cancelled'].includes(last.status);
    }, timeoutMs);
    return last;
  }
  async function runToEnd(steps: unknown[], input: unknown = {}, extra: Record<string, unknown> = {}) {
    const wf = await create({ steps, ...extra });
    expect([wf.status, wf.body.message]).toEqual([201, undefined]);
    const started = await trigger(wf.body.id, input);
    expect(started.status).toBe(202);
    return finished(started.body.runId);
  }

  describe('saving', () => {
    it('refuses graphs that cannot run, with a 400 naming the step', async () => {
      const cases: Array<[unknown[], string, RegExp, Record<string, unknown>?]> = [
        [[{ id: 'a', kind: 'template', text: 'x', next: 'b' }, { id: 'b', kind: 'template', text: 'y', next: 'a' }], 'steps.a', /step "a" is on a cycle/],
        [[{ id: 'a', kind: 'template', text: '{{steps.nope.output.text}}' }], 'steps.a', /names step "nope", which does not exist/],
        [[{ id: 'a', kind: 'template', text: '{{steps.b.output.text}}' }, { id: 'b', kind: 'template', text: 'y' }], 'steps.a', /step "b", which never runs before it/],
        [[{ id: 'a', kind: 'template', text: 'x', next: 'ghost' }], 'steps.a.next', /next names step "ghost"/],
        [[{ id: 'a', kind: 'teleport' }], 'steps[0].kind', /kind must be one of/],
        [[{ id: 'a', kind: 'http', method: 'GET', url: 'https://api.example.com/x' }], 'steps.a.url', /host api.example.com is not in allowedHosts/],
        [[{ id: 'a', kind: 'condition', expression: 'input.constructor', then: null, else: null }], 'steps.a.expression', /may not read "constructor"/],
        [[{ id: 'a', kind: 'condition', expression: '$eval("1")', then: null, else: null }], 'steps.a.expression', /may not call \$eval/],
        [[{ id: 'a', kind: 'condition', expression: '($f := function($x){ $f($x) }; $f(1))', then: null, else: null }], 'steps.a.expression', /may not use/],
        [[{ id: 'a', kind: 'condition', expression: 'input.x >', then: null, else: null }], 'steps.a.expression', /not valid JSONata/],
        [[{ id: 'a', kind: 'wait' }], 'steps[0].ms', /ms is required/],
        [[{ id: 'a', kind: 'template', text: 'x' }], 'trigger.schedule.cron', /trigger.schedule/, { trigger: { schedule: { cron: 'not a cron' } } }],
      ];
      for (const [steps, path, message, extra] of cases) {
        const res = await create({ steps, ...(extra ?? {}) });
        expect([res.status, res.body.details?.[0]?.path]).toEqual([400, path]);
        expect(res.body.message).toMatch(message);
      }
      const list = await stack.client.get(`/api/workflows?applicationId=${owner.app.id}`, { token: owner.token });
      expect(list.body).toEqual([]);
    });

    it('creates, reads, versions, lists and deletes, and hides other owners\' workflows', async () => {
      const wf = await create({ steps: [{ id: 'a', kind: 'template', text: 'hello' }] });
      expect(wf.status).toBe(201);
      expect(wf.body).toMatchObject({ version: 1, paused: false, steps: [{ id: 'a', kind: 'template', text: 'hello' }], limits: { maxSteps: 50 } });
      const renamed = await stack.client.put(`/api/workflows/${wf.body.id}`, { name: 'Renamed' }, { token: owner.token });
      expect(renamed.body).toMatchObject({ name: 'Renamed', version: 1 });
      const changed = await stack.client.put(`/api/workflows/${wf.body.id}`, { steps: [{ id: 'a', kind: 'template', text: 'bye' }] }, { token: owner.token });
      expect(changed.body).toMatchObject({ version: 2 });
      const stranger = await userWithApplication(stack.client);
      for (const res of [
        await stack.client.get(`/api/workflows/${wf.body.id}`, { token: stranger.token }),
        await stack.client.post(`/api/workflows/${wf.body.id}/trigger`, { input: {} }, { token: stranger.token }),
        await stack.client.delete(`/api/workflows/${wf.body.id}`, { token: stranger.token }),
        await stack.client.post('/api/workflows', { applicationId: owner.app.id, name: 'x', steps: [{ id: 'a', kind: 'template', text: 'x' }] }, { token: stranger.token }),
      ]) expect(res.status).toBe(404);
      expect((await stack.client.delete(`/api/workflows/${wf.body.id}`, { token: owner.token })).status).toBe(204);
      expect((await stack.client.get(`/api/workflows/${wf.body.id}`, { token: owner.token })).status).toBe(404);
    });
  });

  describe('running', () => {
    it('runs template, http, condition, llm, knowledge, webhook, wait and plugin steps, with references between them', async () => {
      const doc = await uploadDocument(stack.client, owner.token, { applicationId: owner.app.id }, { name: 'refunds.md', text: 'Refunds are paid back within 30 days of the return.' });
      expect((await settled(stack.client, owner.token, doc.body.id)).status).toBe('ready');
      const plugin = (await stack.client.post('/api/plugins', aPlugin(`definePlugin({ endpoints: [{ method: 'POST', path: '/double', handler: (req) => ({ body: { doubled: req.body.n * 2 } }) }] })`), { token: owner.token })).body;
      const installed = (await stack.client.post(`/api/applications/${owner.app.id}/plugins`, { pluginId: plugin.id }, { token: owner.token })).body;
      expect((await stack.client.put(`/api/applications/${owner.app.id}/plugins/${installed.id}/activate`, undefined, { token: owner.token })).status).toBe(200);

      const tokensBefore = (await stack.client.get('/api/billing/usage', { token: owner.token })).body.usage.tokensUsed as number;
      const run = await runToEnd(
        [
          { id: 'greet', kind: 'template', text: 'Hello {{input.name}}' },
          { id: 'call', kind: 'http', method: 'POST', url: `http://127.0.0.2:${api.port}/score`, headers: { authorization: 'Bearer s3cret' }, body: { greeting: '{{steps.greet.output.text}}', n: '{{input.n}}' } },
          { id: 'gate', kind: 'condition', expression: 'steps.call.output.status = 200 and steps.call.output.body.score > 5', then: 'ask', else: null },
          { id: 'ask', kind: 'llm', prompt: 'Say something about {{steps.greet.output.text}}', provider: 'provider_a' },
          { id: 'search', kind: 'knowledge', query: 'When are refunds paid?' },
          { id: 'announce', kind: 'webhook', data: { answer: '{{steps.ask.output.text}}', n: '{{input.n}}' } },
          { id: 'pause', kind: 'wait', ms: 200 },
          { id: 'double', kind: 'plugin', pluginId: plugin.id, method: 'POST', path: '/double', body: { n: '{{steps.call.output.body.echoed.n}}' } },
        ],
        { name: 'Ada', n: 21 },
        { allowedHosts: ['127.0.0.2'] },
      );
      expect([run.status, run.error]).toEqual(['completed', null]);
      const step = (id: string) => run.steps.find((s: { stepId: string }) => s.stepId === id);
      expect(run.steps.map((s: { stepId: string }) => s.stepId)).toEqual(['greet', 'call', 'gate', 'ask', 'search', 'announce', 'pause', 'double']);
      expect(step('greet').output).toEqual({ text: 'Hello Ada' });
      expect(JSON.parse(api.received.at(-1)!.body)).toEqual({ greeting: 'Hello Ada', n: 21 });
      // The secret header went out but is not recorded with the step.
      expect(api.received.at(-1)!.headers.authorization).toBe('Bearer s3cret');
      expect(step('call').input.headers.authorization).toBe('[hidden]');
      expect(step('gate').output).toEqual({ value: true, passed: true });
      expect(step('ask').output.text.length).toBeGreaterThan(0);
      expect(step('ask').tokens).toBeGreaterThan(0);
      expect(run.tokensUsed).toBe(step('ask').tokens);
      expect(step('search').output.results[0].fileName).toBe('refunds.md');
      expect(step('announce').output).toEqual({ type: 'workflow.event', data: { answer: step('ask').output.text, n: 21 } });
      expect(step('pause').durationMs).toBeGreaterThanOrEqual(0);
      expect(new Date(step('double').startedAt).getTime() - new Date(step('announce').finishedAt).getTime()).toBeGreaterThanOrEqual(150);
      expect(step('double').output).toEqual({ status: 200, body: { doubled: 42 } });
      expect(run.output).toEqual(step('double').output);
      for (const s of run.steps) expect(s).toMatchObject({ status: 'completed', attempts: 1, error: null });
      // The llm step counted against the owner's usage like a chat turn.
      const usage = await stack.client.get('/api/billing/usage', { token: owner.token });
      expect(usage.body.usage.tokensUsed - tokensBefore).toBe(step('ask').tokens);
    });

    it('keeps secrets sealed: sent in http headers, never shown, never recorded', async () => {
      const wf = await create({
        allowedHosts: ['127.0.0.2'],
        secrets: { CRM_TOKEN: 'tok_very_secret_1234' },
        steps: [{ id: 'crm', kind: 'http', method: 'GET', url: `http://127.0.0.2:${api.port}/crm`, headers: { 'x-crm': 'Token {{secrets.CRM_TOKEN}}' } }],
      });
      expect(wf.status).toBe(201);
      expect(wf.body.secrets).toEqual(['CRM_TOKEN']);
      expect(JSON.stringify(wf.body)).not.toContain('tok_very_secret_1234');
      const started = await trigger(wf.body.id);
      const run = await finished(started.body.runId);
      expect(run.status).toBe('completed');
      expect(api.received.at(-1)!.headers['x-crm']).toBe('Token tok_very_secret_1234');
      expect(run.steps[0].input.headers['x-crm']).toBe('[hidden]');
      expect(JSON.stringify(run)).not.toContain('tok_very_secret_1234');
      expect(JSON.stringify((await stack.client.get(`/api/workflows/${wf.body.id}`, { token: owner.token })).body)).not.toContain('tok_very_secret_1234');
      // A referenced secret cannot be removed; secrets are for http headers only, and must exist.
      const removed = await stack.client.put(`/api/workflows/${wf.body.id}`, { secrets: { CRM_TOKEN: null } }, { token: owner.token });
      expect([removed.status, removed.body.message]).toEqual([400, expect.stringMatching(/names secret "CRM_TOKEN", which the workflow does not have/)]);
      const inText = await create({ secrets: { A: 'x' }, steps: [{ id: 't', kind: 'template', text: '{{secrets.A}}' }] });
      expect([inText.status, inText.body.message]).toEqual([400, expect.stringMatching(/only in the headers of http steps/)]);
      const rotated = await stack.client.put(`/api/workflows/${wf.body.id}`, { secrets: { CRM_TOKEN: 'tok_rotated_5678' } }, { token: owner.token });
      expect(rotated.body.secrets).toEqual(['CRM_TOKEN']);
      await finished((await trigger(wf.body.id)).body.runId);
      expect(api.received.at(-1)!.headers['x-crm']).toBe('Token tok_rotated_5678');
    });

    it('branches on a condition and ends where the branch ends', async () => {
      const steps = [
        { id: 'check', kind: 'condition', expression: 'input.amount > 100', then: 'big', else: 'small' },
        { id: 'big', kind: 'template', text: 'big {{input.amount}}', next: null },
        { id: 'small', kind: 'template', text: 'small {{input.amount}}' },
      ];
      const big = await runToEnd(steps, { amount: 500 });
      expect(big.steps.map((s: { stepId: string }) => s.stepId)).toEqual(['check', 'big']);
      expect(big.output).toEqual({ text: 'big 500' });
      const small = await runToEnd(steps, { amount: 5 });
      expect(small.steps.map((s: { stepId: string }) => s.stepId)).toEqual(['check', 'small']);
      expect(small.output).toEqual({ text: 'small 5' });
    });

    it('refuses a trigger without the input its steps read, with a 400 naming the field, and starts no run', async () => {
      const wf = (await create({ steps: [{ id: 'greet', kind: 'template', text: 'Hello {{input.customer.name}}' }] })).body;
      for (const input of [{}, { customer: {} }, { customer: 'Ada' }]) {
        const res = await trigger(wf.id, input);
        expect([input, res.status, res.body.details]).toEqual([input, 400, [{ path: 'input.customer.name', message: 'input.customer.name is required: step "greet" reads {{input.customer.name}}' }]]);
      }
      const bare = await stack.client.post(`/api/workflows/${wf.id}/trigger`, {}, { token: owner.token });
      expect([bare.status, bare.body.details?.[0]?.path]).toEqual([400, 'input.customer.name']);
      const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
      const byApi = await stack.client.post(`/api/v1/workflows/${wf.id}/run`, { input: { customer: {} }, wait: true }, withKey(key.key));
      expect([byApi.status, byApi.body.details?.[0]?.path]).toEqual([400, 'input.customer.name']);
      expect((await stack.client.get(`/api/workflows/${wf.id}/runs`, { token: owner.token })).body).toHaveLength(0);
      expect((await finished((await trigger(wf.id, { customer: { name: 'Ada' } })).body.runId)).output).toEqual({ text: 'Hello Ada' });
    });

    it('fails a run past its limits with the reason', async () => {
      const loop = [
        { id: 'tick', kind: 'template', text: 'tick' },
        { id: 'again', kind: 'condition', expression: 'true', then: 'tick', else: null, maxIterations: 3 },
      ];
      const looped = await runToEnd(loop);
      expect(looped.status).toBe('failed');
      expect(looped.error).toMatch(/loop at step "again" reached its limit of 3 iterations/);
      const steps = await runToEnd(loop, {}, { limits: { maxSteps: 4 } });
      expect(steps.error).toMatch(/limit of 4 steps/);
      expect(steps.stepsDone).toBe(4);
      const tokens = await runToEnd([{ id: 'ask', kind: 'llm', prompt: 'Tell me a long story', provider: 'provider_a' }, { id: 'more', kind: 'template', text: 'x' }], {}, { limits: { maxTokens: 1 } });
      expect(tokens.status).toBe('failed');
      expect(tokens.error).toMatch(/used \d+ tokens, past its limit of 1/);
      const slow = await runToEnd([{ id: 'nap', kind: 'wait', ms: 1500 }, { id: 'after', kind: 'template', text: 'x' }], {}, { limits: { timeoutMs: 500 } });
      expect(slow.status).toBe('failed');
      expect(slow.error).toMatch(/time limit of 500 ms/);
    });

    it('refuses an http step to a private address, connecting nowhere', async () => {
      const before = trap.received.length;
      const run = await runToEnd([{ id: 'peek', kind: 'http', method: 'GET', url: `http://127.0.0.1:${trap.port}/admin`, retry: { attempts: 3, backoffMs: 10 } }], {}, { allowedHosts: ['127.0.0.1'] });
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/private or reserved address/);
      // Not retried: the refusal is permanent.
      expect(run.steps[0]).toMatchObject({ status: 'failed', attempts: 1 });
      const viaName = await runToEnd([{ id: 'peek', kind: 'http', method: 'GET', url: `http://localhost:${trap.port}/admin` }], {}, { allowedHosts: ['localhost'] });
      expect(viaName.status).toBe('failed');
      expect(trap.received.length).toBe(before);
    });

    it('retries a failing step with backoff', async () => {
      const run = await runToEnd([{ id: 'down', kind: 'http', method: 'GET', url: 'http://127.0.0.2:1/closed', retry: { attempts: 3, backoffMs: 20 } }], {}, { allowedHosts: ['127.0.0.2'] });
      expect(run.status).toBe('failed');
      expect(run.steps[0].attempts).toBe(3);
      expect(run.steps[0].durationMs).toBeGreaterThanOrEqual(60);
    });

    it('queues triggers while paused and starts them in order on resume; cancels a run', async () => {
      const wf = (await create({ steps: [{ id: 'echo', kind: 'template', text: '#{{input.n}}' }] })).body;
      expect((await stack.client.post(`/api/workflows/${wf.id}/pause`, {}, { token: owner.token })).body.paused).toBe(true);
      const ids: string[] = [];
      for (let n = 1; n <= 4; n++) {
        const res = await trigger(wf.id, { n });
        expect(res.body.status).toBe('queued');
        ids.push(res.body.runId);
      }
      await new Promise((r) => setTimeout(r, 300));
      expect((await runOf(ids[0]!)).body.status).toBe('queued');
      const cancelled = await stack.client.post(`/api/workflows/runs/${ids[3]}/cancel`, {}, { token: owner.token });
      expect(cancelled.body.status).toBe('cancelled');
      expect((await stack.client.post(`/api/workflows/runs/${ids[3]}/cancel`, {}, { token: owner.token })).status).toBe(409);
      const resumed = await stack.client.post(`/api/workflows/${wf.id}/resume`, {}, { token: owner.token });
      expect(resumed.body).toMatchObject({ paused: false, released: 3 });
      const runs = [];
      for (const id of ids.slice(0, 3)) runs.push(await finished(id));
      expect(runs.map((r) => r.output.text)).toEqual(['#1', '#2', '#3']);
      const starts = runs.map((r) => new Date(r.startedAt).getTime());
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      expect((await runOf(ids[3]!)).body.steps).toEqual([]);
      const listed = await stack.client.get(`/api/workflows/${wf.id}/runs`, { token: owner.token });
      expect(listed.body.map((r: { id: string }) => r.id)).toEqual([...ids].reverse());
    });

    it('runs by API key, waiting for the output or answering 202 at once', async () => {
      const key = await createKey(stack.client, owner.token, { applicationId: owner.app.id });
      const wf = (await create({ steps: [{ id: 'hi', kind: 'template', text: 'hi {{input.who}}' }] })).body;
      const waited = await stack.client.post(`/api/v1/workflows/${wf.id}/run`, { input: { who: 'api' }, wait: true }, withKey(key.key));
      expect(waited.status).toBe(200);
      expect(waited.body).toMatchObject({ status: 'completed', trigger: 'api', output: { text: 'hi api' } });
      const queued = await stack.client.post(`/api/v1/workflows/${wf.id}/run`, { input: { who: 'later' } }, withKey(key.key));
      expect(queued.status).toBe(202);
      expect((await finished(queued.body.id)).output).toEqual({ text: 'hi later' });
      expect((await stack.client.post(`/api/v1/workflows/${wf.id}/run`, { input: {} }, withKey('nope'))).status).toBe(401);
      const other = await paidUserWithApplication(stack);
      const otherKey = await createKey(stack.client, other.token, { applicationId: other.app.id });
      expect((await stack.client.post(`/api/v1/workflows/${wf.id}/run`, { input: {} }, withKey(otherKey.key))).status).toBe(404);
    });

    it('starts runs on a schedule and on a platform event', async () => {
      const scheduled = (await create({ steps: [{ id: 'tick', kind: 'template', text: 'at {{input.scheduledAt}}' }], trigger: { schedule: { cron: '* * * * * *' } } })).body;
      await waitFor(async () => (await stack.client.get(`/api/workflows/${scheduled.id}/runs`, { token: owner.token })).body.length >= 1, 5000);
      const runs = (await stack.client.get(`/api/workflows/${scheduled.id}/runs`, { token: owner.token })).body;
      expect(runs[0].trigger).toBe('schedule');
      await stack.client.put(`/api/workflows/${scheduled.id}`, { trigger: null }, { token: owner.token });
      const onEvent = (await create({ steps: [{ id: 'seen', kind: 'template', text: '{{input.event.type}} {{input.event.data.conversationId}}' }], trigger: { event: 'conversation.started' } })).body;
      const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
      expect(conversation.status).toBe(201);
      await waitFor(async () => (await stack.client.get(`/api/workflows/${onEvent.id}/runs`, { token: owner.token })).body.length >= 1, 10_000);
      const [eventRun] = (await stack.client.get(`/api/workflows/${onEvent.id}/runs`, { token: owner.token })).body;
      const ended = await finished(eventRun.id);
      expect(ended.output).toEqual({ text: `conversation.started ${conversation.body.id}` });
      // The same event delivered again (at least once, maybe on another instance) starts nothing more.
      const event = ended.input.event;
      await resolve(stack.core.container, WorkflowEventTrigger).handle({ ...event, ownerId: owner.user.id, applicationId: owner.app.id });
      expect((await stack.client.get(`/api/workflows/${onEvent.id}/runs`, { token: owner.token })).body).toHaveLength(1);
    });
  });
});

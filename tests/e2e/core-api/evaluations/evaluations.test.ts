import { parse } from 'csv-parse/sync';
import { startEmulator, type Emulator } from '../../../support/emulator/emulator';
import { paidUserWithApplication, startCoreApi, userWithApplication, type TestStack } from '../../../support/test-stack';
import { teamApplication, teamWithEveryRole } from '../../teams/team-support';
import { sendForm } from '../uploads/send-form';
import { answerTo, csvOf, finished, importCsv, inputOf, twoVersions } from './evaluation-support';

const JUDGE_REPLY = '{"score": 4, "reasoning": "Accurate and complete."}';

describe('evaluations over HTTP: datasets, runs, comparison and the CI gate', () => {
  let stack: TestStack;
  let judge: Emulator;
  let owner: Awaited<ReturnType<typeof paidUserWithApplication>>;
  let versions: Awaited<ReturnType<typeof twoVersions>>;
  let datasetId: string;
  let runId: string;

  beforeAll(async () => {
    // The judge's provider (provider_b) is a second emulator that grades every answer 4 of 5.
    judge = await startEmulator();
    judge.behaviour.reply = JUDGE_REPLY;
    stack = await startCoreApi({ providers: true, engine: 'in-process', env: { PROVIDER_B_BASE_URL: judge.baseUrls.provider_b } });
    owner = await paidUserWithApplication(stack);
    versions = await twoVersions(stack.client, owner.token, owner.app.id);
  });
  afterAll(async () => {
    await stack.close();
    await judge.close();
  });

  const base = () => `/api/applications/${owner.app.id}`;
  const chatRequests = () => stack.emulator!.requests.filter((r) => r.provider === 'provider_a' && r.method === 'POST');

  it('imports a CSV of 20 items as a new dataset version, and exports it back', async () => {
    const created = await stack.client.post(`${base()}/datasets`, { name: 'JSON answers' }, { token: owner.token });
    expect(created.status).toBe(201);
    datasetId = created.body.id;
    const imported = await importCsv(stack.client, owner.token, owner.app.id, datasetId, csvOf());
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ version: 2, itemCount: 20 });
    const got = await stack.client.get(`${base()}/datasets/${datasetId}`, { token: owner.token });
    expect(got.body.items[0]).toMatchObject({ input: { message: inputOf(1) }, expected: answerTo(inputOf(1)), tags: ['short'] });
    const exported = await stack.client.get(`${base()}/datasets/${datasetId}/export?format=csv`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toContain('JSON-answers-v2.csv');
    expect(exported.text.split('\r\n')[1]).toBe(`"{""n"": 1}","[system: Be exact.] Echo: {""n"": 1}",short,,`);
  });

  it('runs the dataset against two versions with five evaluators: per-item scores, aggregates, and the items whose verdict changed', async () => {
    const started = await stack.client.post(
      `${base()}/evaluations`,
      {
        datasetId,
        targets: [
          { kind: 'config_version', versionId: versions.full },
          { kind: 'config_version', versionId: versions.short },
        ],
        evaluators: [
          { type: 'exact', caseSensitive: true },
          { type: 'contains', mode: 'all', values: ['Echo', '"n"'] },
          { type: 'regex', pattern: '^\\[system: Be exact\\.\\] Echo: \\{' },
          { type: 'json_schema', schema: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } },
          { type: 'judge', provider: 'provider_b', model: 'claude-3-5-sonnet-20241022', rubric: 'Is the answer the JSON the question holds?', scaleMin: 1, scaleMax: 5, passScore: 3 },
        ],
        concurrency: 4,
      },
      { token: owner.token },
    );
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'running', total: 40, datasetVersion: 2 });
    runId = started.body.id;
    const run = await finished(stack.client, `${base()}/evaluations/${runId}`, { token: owner.token });

    expect(run.status).toBe('completed');
    const [full, short] = run.targets;
    expect(full).toMatchObject({ label: 'v1 · full', finished: 20, passed: 20, passRate: 1 });
    expect(short).toMatchObject({ finished: 20, passed: 14, passRate: 0.7 });
    // Wilson 95% interval of 14 of 20.
    expect(short.passRateInterval.low).toBeCloseTo(0.4810, 3);
    expect(short.passRateInterval.high).toBeCloseTo(0.8545, 3);
    expect(short.evaluators.find((e: any) => e.name === 'JSON Schema')).toMatchObject({ passRate: 0.7 });
    expect(full.evaluators.find((e: any) => e.name === 'Judge')).toMatchObject({ mean: 0.75, passRate: 1 });
    // Each item answered once per target, through the real SDK, and graded once by the judge.
    expect(chatRequests()).toHaveLength(40);
    expect(judge.requests.filter((r) => r.method === 'POST')).toHaveLength(40);

    const results = (await stack.client.get(`${base()}/evaluations/${runId}/results`, { token: owner.token })).body;
    expect(results).toHaveLength(40);
    const long = results.find((r: any) => r.seq === 15 && r.target === 1);
    expect(long).toMatchObject({ state: 'done', passed: false, expected: answerTo(inputOf(15)), conversationId: expect.any(String), messageId: expect.any(String) });
    expect(long.answer).toBe('[system: Be exact.] Echo: {"n": 15, ');
    expect(long.scores.map((s: any) => [s.evaluator, s.passed])).toEqual([
      ['Exact match', false],
      ['Contains', true],
      ['Pattern', true],
      ['JSON Schema', false],
      ['Judge', true],
    ]);
    expect(long.scores[4].reason).toBe('4 of 5: Accurate and complete.');
    expect(long.promptTokens).toBeGreaterThan(0);
    expect(long.latencyMs).toEqual(expect.any(Number));

    const compared = await stack.client.get(`${base()}/evaluations/compare?runA=${runId}&targetA=0&targetB=1`, { token: owner.token });
    expect(compared.status).toBe(200);
    expect(compared.body).toMatchObject({ compared: 20, regressions: 6, improvements: 0 });
    expect(compared.body.changed.map((c: any) => c.seq)).toEqual([15, 16, 17, 18, 19, 20]);
    expect(compared.body.changed[0]).toMatchObject({ a: { passed: true }, b: { passed: false }, input: { message: inputOf(15) } });
  });

  it('exports the results per item, target and evaluator as CSV and JSON', async () => {
    const csv = await stack.client.get(`${base()}/evaluations/${runId}/export?format=csv`, { token: owner.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain(`${runId.slice(0, 8)}.csv`);
    const table = parse(csv.text, { columns: true }) as Array<Record<string, string>>;
    // 20 items × 2 targets × 5 evaluators, in item then target order.
    expect(table).toHaveLength(200);
    expect(Object.keys(table[0]!)).toEqual(['item', 'input', 'expected', 'target', 'state', 'answer', 'evaluator', 'type', 'score', 'passed', 'reason', 'latencyMs', 'promptTokens', 'completionTokens', 'cost', 'error']);
    const long = table.filter((r) => r.item === '15' && r.target === 'v2 · short');
    expect(long.map((r) => [r.evaluator, r.passed, r.score])).toEqual([
      ['Exact match', 'false', '0'],
      ['Contains', 'true', '1'],
      ['Pattern', 'true', '1'],
      ['JSON Schema', 'false', '0'],
      ['Judge', 'true', '0.75'],
    ]);
    expect(long[0]).toMatchObject({ input: inputOf(15), expected: answerTo(inputOf(15)), answer: '[system: Be exact.] Echo: {"n": 15, ', state: 'done' });
    expect(long[4]!.reason).toBe('4 of 5: Accurate and complete.');

    const json = await stack.client.get(`${base()}/evaluations/${runId}/export?format=json`, { token: owner.token });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ runId, status: 'completed', datasetVersion: 2 });
    expect(json.body.rows).toHaveLength(200);
    expect(json.body.rows[0]).toMatchObject({ item: 1, target: 'v1 · full', evaluator: 'Exact match', score: 1, passed: true, input: inputOf(1) });
    const bad = await stack.client.get(`${base()}/evaluations/${runId}/export?format=xlsx`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['format']);
  });

  it('gates a change from CI with an API key: pass or fail against a pass-rate threshold', async () => {
    const key = await stack.client.post('/api/api-keys', { name: 'CI', applicationId: owner.app.id }, { token: owner.token });
    expect(key.status).toBe(201);
    const headers = { 'X-API-Key': key.body.key as string };
    const gate = async (versionId: string) => {
      const started = await stack.client.post(`${base()}/evaluations`, { datasetId, targets: [{ kind: 'config_version', versionId }], evaluators: [{ type: 'json_schema', schema: { type: 'object' } }], passThreshold: 0.9 }, { headers });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ trigger: 'api', verdict: 'pending' });
      return (await finished(stack.client, `${base()}/evaluations/${started.body.id}`, { headers })).verdict;
    };
    expect(await gate(versions.full)).toBe('pass');
    expect(await gate(versions.short)).toBe('fail');

    // A key of another application, or none, reads nothing here.
    const other = await stack.client.post('/api/applications', { name: 'Other' }, { token: owner.token });
    const otherKey = await stack.client.post('/api/api-keys', { name: 'Other CI', applicationId: other.body.id }, { token: owner.token });
    expect((await stack.client.get(`${base()}/evaluations/${runId}`, { headers: { 'X-API-Key': otherKey.body.key } })).status).toBe(404);
    expect((await stack.client.get(`${base()}/evaluations/${runId}`)).status).toBe(401);
    // Results and the comparison stay with the console's session.
    expect((await stack.client.get(`${base()}/evaluations/${runId}/results`, { headers })).status).toBe(401);
  });

  it("answers 404 for another user's datasets and runs, on every route", async () => {
    const stranger = await userWithApplication(stack.client, { name: 'Stranger' });
    const token = stranger.token;
    const statuses = [
      (await stack.client.get(`${base()}/datasets`, { token })).status,
      (await stack.client.get(`${base()}/datasets/${datasetId}`, { token })).status,
      (await stack.client.post(`${base()}/datasets/${datasetId}/items`, { items: [{ input: { message: 'x' } }] }, { token })).status,
      (await stack.client.delete(`${base()}/datasets/${datasetId}`, { token })).status,
      (await stack.client.get(`${base()}/evaluations/${runId}`, { token })).status,
      (await stack.client.get(`${base()}/evaluations/${runId}/results`, { token })).status,
      (await stack.client.get(`${base()}/evaluations/${runId}/export?format=json`, { token })).status,
      (await stack.client.post(`${base()}/evaluations/${runId}/cancel`, undefined, { token })).status,
      (await stack.client.post(`${base()}/evaluations`, { datasetId, targets: [{ kind: 'studio_draft' }], evaluators: [{ type: 'json' }] }, { token })).status,
      // Their own application cannot reach the owner's dataset either.
      (await stack.client.get(`/api/applications/${stranger.app.id}/datasets/${datasetId}`, { token })).status,
      (await stack.client.post(`/api/applications/${stranger.app.id}/evaluations`, { datasetId, targets: [{ kind: 'studio_draft' }], evaluators: [{ type: 'json' }] }, { token })).status,
    ];
    expect(statuses).toEqual(new Array(statuses.length).fill(404));
  });

  it('refuses hostile input: a catastrophic pattern cannot stall the process, and large files are refused with a clear 4xx', async () => {
    // A backtracking engine takes exponential time on (a+)+$ against "aaa…ab"; RE2 answers in linear time.
    const evil = await stack.client.post(`${base()}/datasets`, { name: 'Evil' }, { token: owner.token });
    await stack.client.post(`${base()}/datasets/${evil.body.id}/items`, { items: [{ input: { message: `${'a'.repeat(5_000)}b` } }] }, { token: owner.token });
    const started = await stack.client.post(
      `${base()}/evaluations`,
      { datasetId: evil.body.id, targets: [{ kind: 'studio_draft' }], evaluators: [{ type: 'regex', pattern: '(a+)+$' }] },
      { token: owner.token },
    );
    expect(started.status).toBe(202);
    const run = await finished(stack.client, `${base()}/evaluations/${started.body.id}`, { token: owner.token });
    expect(run).toMatchObject({ status: 'completed', targets: [{ finished: 1, passed: 0 }] });
    // Constructs that need backtracking are refused when the run starts.
    const lookahead = await stack.client.post(`${base()}/evaluations`, { datasetId, targets: [{ kind: 'studio_draft' }], evaluators: [{ type: 'regex', pattern: '(?=a)a' }] }, { token: owner.token });
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.details[0].path).toBe('evaluators[0].pattern');

    const rows = await importCsv(stack.client, owner.token, owner.app.id, datasetId, `input\n${'q\n'.repeat(100_000)}`);
    expect(rows.status).toBe(413);
    expect(rows.body.message).toMatch(/more than \d+ rows/);
    const big = await importCsv(stack.client, owner.token, owner.app.id, datasetId, new Uint8Array(50 * 1024 * 1024).fill(0x61));
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/MB import limit|MB upload limit/);
    const bad = await importCsv(stack.client, owner.token, owner.app.id, datasetId, 'question\n"unclosed\n');
    expect(bad.status).toBe(400);
    const noInput = await sendForm(stack.client.baseUrl, `${base()}/datasets/${datasetId}/import`, { token: owner.token, file: { name: 'x.jsonl', bytes: '{"expected": "no input"}\n' } });
    expect(noInput.status).toBe(400);
    expect(noInput.body.message).toMatch(/^Row 1: input.message is required/);
    // Nothing of the refused imports was added.
    expect((await stack.client.get(`${base()}/datasets/${datasetId}`, { token: owner.token })).body).toMatchObject({ version: 2, itemCount: 20 });
  });

  it("keeps the judge to the run's own item and answer: another application's data never reaches its prompt", async () => {
    const other = await stack.client.post('/api/applications', { name: 'Private' }, { token: owner.token });
    const secret = 'ZEBRA-7731 payroll figures';
    const conv = await stack.client.post('/api/conversations', { applicationId: other.body.id }, { token: owner.token });
    expect(conv.status).toBe(201);
    expect((await stack.client.post(`/api/conversations/${conv.body.id}/messages`, { content: secret }, { token: owner.token })).status).toBe(200);
    judge.requests.length = 0;
    const started = await stack.client.post(
      `${base()}/evaluations`,
      {
        datasetId,
        targets: [{ kind: 'config_version', versionId: versions.full }],
        evaluators: [{ type: 'judge', provider: 'provider_b', model: 'claude-3-5-sonnet-20241022', rubric: `Quote {{conversation:${conv.body.id}}} and {{application.${other.body.id}}} in full.`, scaleMin: 1, scaleMax: 5 }],
      },
      { token: owner.token },
    );
    await finished(stack.client, `${base()}/evaluations/${started.body.id}`, { token: owner.token });
    expect(judge.requests.length).toBe(20);
    for (const r of judge.requests) {
      const sent = JSON.stringify(r.body);
      expect(sent).not.toContain('ZEBRA-7731');
      expect(sent).toContain(`{{conversation:${conv.body.id}}}`);
    }
  });

  it('applies team roles: a Viewer reads datasets and runs, a Member changes them, an outsider sees nothing', async () => {
    const world = await teamWithEveryRole(stack, 'pro');
    const app = await teamApplication(stack, world, 'Team evals');
    const path = `/api/applications/${app.id}`;
    const { owner: o, member, viewer, outsider } = world.users;
    const dataset = await stack.client.post(`${path}/datasets`, { name: 'Team set' }, { token: o.token });
    expect(dataset.status).toBe(201);
    const add = (token: string) => stack.client.post(`${path}/datasets/${dataset.body.id}/items`, { items: [{ input: { message: 'Hello' }, expected: 'Echo: Hello' }] }, { token });
    expect((await add(member.token)).status).toBe(201);
    expect((await add(viewer.token)).status).toBe(403);
    expect((await add(outsider.token)).status).toBe(404);
    expect((await stack.client.get(`${path}/datasets/${dataset.body.id}`, { token: viewer.token })).body.itemCount).toBe(1);
    const start = (token: string) => stack.client.post(`${path}/evaluations`, { datasetId: dataset.body.id, targets: [{ kind: 'studio_draft' }], evaluators: [{ type: 'contains', values: ['Hello'] }, { type: 'similarity', threshold: 0.9 }] }, { token });
    expect((await start(viewer.token)).status).toBe(403);
    const run = await start(member.token);
    expect(run.status).toBe(202);
    const done = await finished(stack.client, `${path}/evaluations/${run.body.id}`, { token: viewer.token });
    // The answer echoes the question, so it is the expected answer: similarity 1 on the platform's local embeddings.
    expect(done.targets[0]).toMatchObject({ passed: 1, evaluators: [{ name: 'Contains', mean: 1 }, { name: 'Similarity', passRate: 1 }] });
    expect(done.targets[0].evaluators[1].mean).toBeCloseTo(1, 5);
    expect((await stack.client.get(`${path}/evaluations/${run.body.id}`, { token: outsider.token })).status).toBe(404);
  });

  it("counts against the plan like chat: a Free plan without its own key stops at the first answer, with the plan's reason", async () => {
    const free = await userWithApplication(stack.client, { name: 'Free' });
    const path = `/api/applications/${free.app.id}`;
    const dataset = await stack.client.post(`${path}/datasets`, { name: 'Free set' }, { token: free.token });
    await stack.client.post(`${path}/datasets/${dataset.body.id}/items`, { items: [{ input: { message: 'One' } }, { input: { message: 'Two' } }] }, { token: free.token });
    const before = chatRequests().length;
    const run = await stack.client.post(`${path}/evaluations`, { datasetId: dataset.body.id, targets: [{ kind: 'studio_draft' }], evaluators: [{ type: 'json' }], concurrency: 1 }, { token: free.token });
    const done = await finished(stack.client, `${path}/evaluations/${run.body.id}`, { token: free.token });
    expect(done).toMatchObject({ status: 'failed', error: expect.stringMatching(/key/i) });
    expect(chatRequests().length).toBe(before);
    const results = (await stack.client.get(`${path}/evaluations/${run.body.id}/results`, { token: free.token })).body;
    expect(results.map((r: any) => r.state)).toEqual(['failed', 'cancelled']);
  });

  it('cancels a run: what is left is not answered', async () => {
    stack.emulator!.behaviour.delayMs = 200;
    const started = await stack.client.post(`${base()}/evaluations`, { datasetId, targets: [{ kind: 'config_version', versionId: versions.full }], evaluators: [{ type: 'json' }], concurrency: 1 }, { token: owner.token });
    const cancelled = await stack.client.post(`${base()}/evaluations/${started.body.id}/cancel`, undefined, { token: owner.token });
    stack.emulator!.behaviour.delayMs = 0;
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const results = (await stack.client.get(`${base()}/evaluations/${started.body.id}/results`, { token: owner.token })).body;
    expect(results.filter((r: any) => r.state === 'cancelled').length).toBeGreaterThanOrEqual(19);
  });
});

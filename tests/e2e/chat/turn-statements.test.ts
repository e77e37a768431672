import { waitFor } from '../../support/wait-for';
import { paidUserWithApplication, startCoreApi, type TestStack } from '../../support/test-stack';

/** What runs now and then whatever the load: the sweeps and the embedded database's upkeep. */
const PERIODIC = [/webhook_deliveries/, /workflow_runs/, /evaluation_runs/, /usage_holders/, /usage_holds h LEFT JOIN/, /^ANALYZE/, /pg_relation_size/, /experiments WHERE status = 'running' OR/, /^SELECT DISTINCT experiment_id FROM live_answer_scores/];

/**
 * How many statements a chat turn sends to the database, as `npm start` runs it (the core API with its engine
 * in-process on the embedded database, a Pro owner on the platform key, no feature of the application in use):
 * the turn's own (the quota's reservation and settlement, the user's message with its event, the answer with its
 * event) and what it causes in the background (the event dispatcher's claims, the subscribers'). Counted at the
 * database session's runner, as `npm run bench:turn` counts them; a count that grows is work added to every turn.
 */
describe('statements per chat turn (pglite, engine in-process)', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startCoreApi({ providers: true, engine: 'in-process' });
  }, 180_000);
  afterAll(() => stack?.close());

  it('holds at six per turn once warm: two for the quota, two for the turn, two for the event dispatcher', async () => {
    const owner = await paidUserWithApplication(stack, 'pro');
    const conversation = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    expect(conversation.status).toBe(201);
    const turn = async () => {
      const res = await stack.client.post(`/api/conversations/${conversation.body.id}/messages`, { content: 'hi', provider: 'provider_a', model: 'gpt-4o-mini' }, { token: owner.token });
      expect(res.status).toBe(200);
    };
    const undispatched = async () =>
      Number((await stack.infra.dataSource.query(`SELECT count(*) AS n FROM event_outbox WHERE dispatched_at IS NULL AND claimed_until IS NULL`))[0].n);
    for (let i = 0; i < 5; i++) await turn(); // caches and prepared statements warm, as in a server in use
    await waitFor(async () => (await undispatched()) === 0, 10_000);

    const pool = (stack.infra.dataSource.driver as unknown as { master: { runner: { run: (sql: string, ...rest: unknown[]) => unknown } } }).master;
    const seen: string[] = [];
    const run = pool.runner.run.bind(pool.runner);
    pool.runner.run = (sql: string, ...rest: unknown[]) => {
      seen.push(sql.replace(/\s+/g, ' ').trim());
      return run(sql, ...rest);
    };
    const turns = 20;
    const started = Date.now();
    try {
      for (let i = 0; i < turns; i++) await turn();
      // The last turn's events handed over (each claim is counted; the wait's own reads are not the turns').
      pool.runner.run = run;
      await waitFor(async () => (await undispatched()) === 0, 10_000);
      pool.runner.run = (sql: string, ...rest: unknown[]) => {
        seen.push(sql.replace(/\s+/g, ' ').trim());
        return run(sql, ...rest);
      };
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      pool.runner.run = run;
    }
    const seconds = Math.ceil((Date.now() - started) / 1000);
    const counted = seen.filter((sql) => !PERIODIC.some((p) => p.test(sql)));
    const of = (pattern: RegExp) => counted.filter((sql) => pattern.test(sql)).length;

    const quota = of(/^WITH old AS \(SELECT user_id, period_start, messages_used, tokens_used, tokens_reserved FROM usage_counters/);
    // The dispatcher's (the turn's own statements write their events to the outbox too, and are not these).
    const outbox = of(/^(WITH marked AS \( )?UPDATE event_outbox/);
    // The conversation and its owner are cached between turns; the cache's time to live may end once in the run.
    const lookups = of(/FROM conversations c JOIN applications a/);
    expect(quota).toBe(2 * turns);
    // The usage-threshold watcher reads no counters (the ledger's own writes tell them), and the A/B tests'
    // subscriber reads no experiments for an application without one.
    expect(of(/^SELECT tokens_used, tokens_reserved, overage_tokens, own_key_tokens, messages_used FROM usage_counters/)).toBe(0);
    expect(of(/FROM experiments/)).toBe(0);
    // One claim per dispatcher run (two runs a turn: the message received, then answered), each marking the run
    // before; the sweep's runs once a second.
    expect(outbox).toBeLessThanOrEqual(2 * turns + seconds + 1);
    expect(lookups).toBeLessThanOrEqual(1);
    // The rest: the user's message with its event and the answer with its, one statement each; the traces'
    // batched insert at most once per turn.
    const rest = counted.length - quota - outbox - lookups;
    expect(rest).toBeGreaterThanOrEqual(2 * turns);
    expect(rest).toBeLessThanOrEqual(3 * turns);
    expect(counted.length).toBeLessThanOrEqual(7 * turns + seconds + 1);
  });
});

import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { TypeOrmApplicationRepository } from '../adapters/persistence/applications/type-orm-application.repository';
import { TypeOrmAnalyticsStore } from '../adapters/persistence/analytics/type-orm-analytics.store';
import { openDatabase } from '../adapters/persistence/data-source';
import { pgliteThreadSetting } from '../apps/shared/config';
import { catalogPrices } from '../core/ai/domain/model-catalog';
import { AnalyticsRecorder } from '../core/analytics/use-cases/analytics-recorder';
import { GetAnalyticsUseCase } from '../core/analytics/use-cases/get-analytics.use-case';
import type { Actor } from '../core/shared/actor';

/**
 * `npm run bench:analytics`: the four analytics reads of one application holding BENCH_MESSAGES messages
 * (100,000 by default: BENCH_MESSAGES / 10 conversations of 10 messages over 30 days, three sources,
 * three providers, own and platform keys, one answer in 50 rated). The rollup is filled the way the
 * core API fills it: every message recorded by the AnalyticsRecorder, written by its flush. Each read
 * runs BENCH_RUNS times (after 3 warm-ups), on the embedded PGlite (or BENCH_DATABASE_URL).
 */
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PER_CONVERSATION = 10;
const DAYS = 30;
const DAY_MS = 86_400_000;

const SOURCES = ['dashboard', 'widget', 'api'] as const;
const MODELS = [
  ['provider_a', 'gpt-4o-mini'],
  ['provider_b', 'claude-3-5-haiku-20241022'],
  ['provider_c', 'gemini-2.0-flash'],
] as const;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main() {
  const database = await openDatabase(
    process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL, schema: `bench_${randomUUID().slice(0, 8)}` } : { pgliteThread: pgliteThreadSetting() },
  );
  const db = database.dataSource;
  try {
    const [user] = await db.query(`INSERT INTO users (email, password_hash, display_name) VALUES ($1, 'x', 'Bench') RETURNING id`, [`bench-${randomUUID()}@example.com`]);
    const [app] = await db.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Bench', $2) RETURNING id`, [user.id, `bench-${randomUUID().slice(0, 12)}`]);
    const conversations = Math.ceil(MESSAGES / PER_CONVERSATION);
    const end = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) + DAY_MS - 1;
    const start = end + 1 - DAYS * DAY_MS;

    let t = performance.now();
    // Conversations spread evenly over the 30 days, sources in turn; 10 messages each, alternating roles.
    await db.query(
      `INSERT INTO conversations (application_id, title, source, message_count, created_at, updated_at)
       SELECT $1, 'Bench ' || i, (ARRAY['dashboard','widget','api'])[1 + i % 3], $2,
              to_timestamp(($3::float8 + i * $4::float8) / 1000), to_timestamp(($3::float8 + i * $4::float8) / 1000) + interval '3 minutes'
         FROM generate_series(0, $5 - 1) AS i`,
      [app.id, PER_CONVERSATION, start, (DAYS * DAY_MS) / conversations, conversations],
    );
    await db.query(
      `INSERT INTO messages (conversation_id, role, content, provider, model, prompt_tokens, completion_tokens, total_tokens, rating, created_at)
       SELECT c.id, CASE WHEN k % 2 = 0 THEN 'user' ELSE 'assistant' END, 'Bench message ' || k,
              CASE WHEN k % 2 = 1 THEN 'provider_a' END, CASE WHEN k % 2 = 1 THEN 'gpt-4o-mini' END,
              CASE WHEN k % 2 = 1 THEN 120 END, CASE WHEN k % 2 = 1 THEN 80 END, CASE WHEN k % 2 = 1 THEN 200 END,
              CASE WHEN k % 2 = 1 AND (hashtext(c.id::text) + k) % 50 = 0 THEN 1 + abs(hashtext(c.id::text)) % 5 END,
              c.created_at + k * interval '15 seconds'
         FROM conversations c CROSS JOIN generate_series(0, $2 - 1) AS k
        WHERE c.application_id = $1`,
      [app.id, PER_CONVERSATION],
    );
    await db.query(`ANALYZE conversations`);
    await db.query(`ANALYZE messages`);
    const seedMs = performance.now() - t;

    // The rollup as the core API builds it: every turn recorded in memory, written by one flush.
    let now = new Date(start);
    const store = new TypeOrmAnalyticsStore(db);
    const recorder = new AnalyticsRecorder({ store, clock: { now: () => now } });
    let events = 0;
    for (let i = 0; i < conversations; i++) {
      now = new Date(start + (i * DAYS * DAY_MS) / conversations);
      const [provider, model] = MODELS[i % MODELS.length]!;
      const slice = { applicationId: app.id as string, source: SOURCES[i % 3]!, provider, model, keyKind: i % 4 === 0 ? ('own' as const) : ('platform' as const) };
      for (let k = 0; k < PER_CONVERSATION / 2; k++) {
        recorder.record({ type: 'message_sent', ...slice });
        recorder.record({ type: 'message_received', ...slice, promptTokens: 120, completionTokens: 80 });
        events += 2;
        if (slice.source !== 'dashboard') {
          recorder.record({ type: 'api_call', ...slice });
          events++;
        }
      }
    }
    const slices = recorder.pendingSlices;
    t = performance.now();
    await recorder.flush();
    const flushMs = performance.now() - t;
    const [{ n: rollupRows }] = await db.query(`SELECT count(*) AS n FROM analytics_daily`);
    const [{ n: messageRows }] = await db.query(`SELECT count(*) AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.application_id = $1`, [app.id]);

    const analytics = new GetAnalyticsUseCase({
      store,
      applications: new TypeOrmApplicationRepository(db),
      recorder,
      prices: catalogPrices(),
      clock: { now: () => new Date() },
    });
    const actor: Actor = { userId: user.id, role: 'developer' };
    const query = { applicationId: app.id };
    const reads = {
      overview: () => analytics.overview(query, actor),
      usage: () => analytics.usage(query, actor),
      conversations: () => analytics.conversations(query, actor),
      costs: () => analytics.costs(query, actor),
      'overview, all applications': () => analytics.overview({}, actor),
      // For comparison, what the rollup saves: the overview's message and token sums read from the messages themselves.
      'without rollup: from messages': () =>
        db.query(
          `SELECT (m.created_at AT TIME ZONE 'UTC')::date AS day, c.source, m.provider, m.model, count(*) FILTER (WHERE m.role = 'user') AS sent,
                  count(*) FILTER (WHERE m.role = 'assistant') AS received, sum(m.prompt_tokens) AS prompt, sum(m.completion_tokens) AS completion
             FROM conversations c JOIN messages m ON m.conversation_id = c.id
            WHERE c.application_id = $1 AND m.created_at >= $2
            GROUP BY 1, 2, 3, 4`,
          [app.id, new Date(start)],
        ),
    };
    const check = await analytics.overview(query, actor);
    console.log(`\nanalytics at ${Number(messageRows).toLocaleString('en-US')} messages in ${conversations.toLocaleString('en-US')} conversations over ${DAYS} days (${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
    console.log(`seeded in ${(seedMs / 1000).toFixed(1)} s; rollup: ${slices} slices from ${events.toLocaleString('en-US')} recorded events, one flush of ${flushMs.toFixed(1)} ms, ${rollupRows} rows`);
    console.log(`overview totals: ${check.totals.conversations} conversations, ${check.totals.messages} messages, ${check.totals.totalTokens} tokens, $${check.totals.estimatedCostUsd}`);
    console.log('read'.padEnd(30) + 'median ms'.padStart(12) + 'p95 ms'.padStart(10) + 'max ms'.padStart(10));
    for (const [name, run] of Object.entries(reads)) {
      for (let i = 0; i < 3; i++) await run();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = performance.now();
        await run();
        times.push(performance.now() - s);
      }
      times.sort((a, b) => a - b);
      console.log(name.padEnd(30) + percentile(times, 50).toFixed(1).padStart(12) + percentile(times, 95).toFixed(1).padStart(10) + times.at(-1)!.toFixed(1).padStart(10));
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

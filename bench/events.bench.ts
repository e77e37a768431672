import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { TypeOrmUsageLedger } from '../adapters/persistence/billing/type-orm-usage-ledger';
import { TypeOrmConversationRepository } from '../adapters/persistence/conversations/type-orm-conversation.repository';
import { openDatabase } from '../adapters/persistence/data-source';
import { pgliteThreadSetting } from '../apps/shared/config';

/**
 * `npm run bench:events`: what writing a chat turn's events adds to the turn, at one client. A turn's own
 * statements here are those of a paid turn: the quota reservation, the user's message stored with the
 * history read (`beginTurn`), then after the provider's wait the answer stored (`addMessage`) and the
 * settlement. With events, `beginTurn` writes `message.received` and `addMessage` writes
 * `message.completed` in the same statements (`announce`), as the engine does. Turns without and with
 * events alternate, `BENCH_TURNS` times each, on the embedded PGlite (or `BENCH_DATABASE_URL`).
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 300);
/** The provider's answer time between a turn's first statements and its last, as in bench:chat. */
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);

async function main() {
  const database = await openDatabase(
    process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL, schema: `bench_${randomUUID().slice(0, 8)}` } : { pgliteThread: pgliteThreadSetting() },
  );
  const db = database.dataSource;
  try {
    const [user] = await db.query(`INSERT INTO users (email, password_hash, display_name) VALUES ($1, 'x', 'Bench') RETURNING id`, [`bench-${randomUUID()}@example.com`]);
    const [app] = await db.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Bench', $2) RETURNING id`, [user.id, `bench-${randomUUID()}`]);
    const ledger = new TypeOrmUsageLedger(db);
    await ledger.renew();
    const conversations = new TypeOrmConversationRepository(db);
    const period = { start: new Date(Date.now() - 86_400_000), end: new Date(Date.now() + 29 * 86_400_000) };
    const quiet = (await conversations.create({ applicationId: app.id, title: 'no events', source: 'api' })).id;
    const told = (await conversations.create({ applicationId: app.id, title: 'events', source: 'api' })).id;
    const providerWait = () => new Promise((r) => setTimeout(r, DELAY_MS));
    /** A turn's time in its own statements (the provider's wait between them not counted). */
    async function timedTurn(events: boolean): Promise<number> {
      const announce = events ? { ownerId: user.id as string, source: 'api' as const } : undefined;
      const conversationId = events ? told : quiet;
      let t = performance.now();
      const held = await ledger.reserve({ userId: user.id, period, tokens: 100, tokenLimit: null, messageLimit: null });
      await conversations.beginTurn(conversationId, 'a question', 100, 40_000, announce);
      let spent = performance.now() - t;
      await providerWait();
      t = performance.now();
      await conversations.addMessage({
        conversationId, role: 'assistant', content: 'an answer', status: 'complete', provider: 'provider_a', model: 'gpt-4o-mini',
        usage: { promptTokens: 5, completionTokens: 7, totalTokens: 12 }, latencyMs: DELAY_MS, ...(announce ? { announce } : {}),
      });
      await ledger.settle({ userId: user.id, period, reservedTokens: 100, ...(held.ok && held.holdId ? { holdId: held.holdId } : {}), usedTokens: 60, ok: true, ownKey: false, includedTokens: null });
      spent += performance.now() - t;
      return spent;
    }
    const without: number[] = [];
    const withEvents: number[] = [];
    for (let i = 0; i < TURNS + 50; i++) {
      const a = await timedTurn(false);
      const b = await timedTurn(true);
      if (i >= 50) {
        without.push(a);
        withEvents.push(b);
      }
    }
    const p = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * q)]!;
    const kind = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : `PGlite (PGLITE_THREAD=${pgliteThreadSetting() ? 'on' : 'off'})`;
    console.log(`Events bench: ${TURNS} turns of each kind at one client on ${kind}, provider wait ${DELAY_MS} ms (not counted), node ${process.version}`);
    console.log(`a turn's four statements                  p50 ms   p90 ms   p99 ms`);
    const line = (name: string, xs: number[]) => console.log(`${name.padEnd(40)} ${p(xs, 0.5).toFixed(3).padStart(6)}   ${p(xs, 0.9).toFixed(3).padStart(6)}   ${p(xs, 0.99).toFixed(3).padStart(6)}`);
    line('no events', without);
    line('2 events in the turn\'s own statements', withEvents);
    console.log(`writing the events adds ${(p(withEvents, 0.5) - p(without, 0.5)).toFixed(3)} ms at p50 to a turn (target < 0.3 ms)`);
  } finally {
    if (process.env.BENCH_DATABASE_URL) {
      const schema = (db.options as { schema?: string }).schema;
      if (schema) await db.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => undefined);
    }
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

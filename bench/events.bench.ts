import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { SqlEventPublisher } from '../adapters/persistence/events/sql-event-outbox';
import { SqlUnitOfWork } from '../adapters/persistence/events/sql-unit-of-work';
import { TypeOrmUsageLedger } from '../adapters/persistence/billing/type-orm-usage-ledger';
import { openDatabase } from '../adapters/persistence/data-source';
import { pgliteThreadSetting } from '../apps/shared/config';
import { systemClock } from '../core/shared/clock.port';
import type { NewDomainEvent } from '../core/events/domain/domain-event';

/**
 * `npm run bench:events`: what publishing a chat turn's events adds to the turn, at one client. A turn's
 * own statements here are its quota reservation and settlement, with the provider's wait between them;
 * `ChatTurnRunner` starts the outbox insert of `message.received` and `message.completed` once the turn
 * settled and does not wait for it. Turns without events, with them, and with them awaited alternate,
 * `BENCH_TURNS` times each, on the embedded PGlite (or `BENCH_DATABASE_URL`).
 */
const TURNS = Number(process.env.BENCH_TURNS ?? 300);
/** The provider's answer time between a turn's reservation and its settlement, as in bench:chat. */
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 20);

async function main() {
  const database = await openDatabase(
    process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL, schema: `bench_${randomUUID().slice(0, 8)}` } : { pgliteThread: pgliteThreadSetting() },
  );
  const db = database.dataSource;
  try {
    const [user] = await db.query(`INSERT INTO users (email, password_hash, display_name) VALUES ($1, 'x', 'Bench') RETURNING id`, [`bench-${randomUUID()}@example.com`]);
    const ledger = new TypeOrmUsageLedger(db);
    const period = { start: new Date(Date.now() - 86_400_000), end: new Date(Date.now() + 29 * 86_400_000) };
    const publisher = new SqlEventPublisher({ db, clock: systemClock, unitOfWork: new SqlUnitOfWork(db), wake: () => undefined });
    const eventsOfTurn = (): NewDomainEvent[] => {
      const ids = { applicationId: user.id, conversationId: randomUUID() };
      return [
        { type: 'message.received', ownerId: user.id, applicationId: user.id, data: { ...ids, messageId: null, source: 'api' } },
        { type: 'message.completed', ownerId: user.id, applicationId: user.id, data: { ...ids, messageId: randomUUID(), provider: 'provider_a', model: 'gpt-4o-mini', usage: { promptTokens: 5, completionTokens: 7, totalTokens: 12 }, latencyMs: 20, interrupted: false } },
      ];
    };
    const reserve = () => ledger.reserve({ userId: user.id, period, tokens: 100, tokenLimit: null, messageLimit: null });
    const settle = () => ledger.settle({ userId: user.id, period, reservedTokens: 100, usedTokens: 60, ok: true, ownKey: false, includedTokens: null });
    const providerWait = () => new Promise((r) => setTimeout(r, DELAY_MS));
    const inFlight = new Set<Promise<void>>();
    /** A turn's time in its own statements (the provider's wait between them not counted). */
    async function timedTurn(events: 'none' | 'after' | 'awaited'): Promise<number> {
      let t = performance.now();
      await reserve();
      let spent = performance.now() - t;
      await providerWait();
      t = performance.now();
      if (events === 'awaited') await Promise.all([settle(), publisher.publish(...eventsOfTurn())]);
      else await settle();
      spent += performance.now() - t;
      if (events === 'after') {
        // As ChatTurnRunner: written once the turn settled, not awaited by it.
        const write = publisher.publish(...eventsOfTurn()).finally(() => inFlight.delete(write));
        inFlight.add(write);
      }
      return spent;
    }
    const without: number[] = [];
    const withEvents: number[] = [];
    const awaited: number[] = [];
    for (let i = 0; i < TURNS + 50; i++) {
      const a = await timedTurn('none');
      const b = await timedTurn('after');
      const c = await timedTurn('awaited');
      if (i >= 50) {
        without.push(a);
        withEvents.push(b);
        awaited.push(c);
      }
    }
    await Promise.all([...inFlight]);
    const p = (xs: number[], q: number) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length * q)]!;
    const kind = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : `PGlite (PGLITE_THREAD=${pgliteThreadSetting() ? 'on' : 'off'})`;
    console.log(`Events bench: ${TURNS} turns of each kind at one client on ${kind}, provider wait ${DELAY_MS} ms (not counted), node ${process.version}`);
    console.log(`a turn's reservation and settlement     p50 ms   p90 ms   p99 ms`);
    const line = (name: string, xs: number[]) => console.log(`${name.padEnd(38)} ${p(xs, 0.5).toFixed(3).padStart(6)}   ${p(xs, 0.9).toFixed(3).padStart(6)}   ${p(xs, 0.99).toFixed(3).padStart(6)}`);
    line('no events', without);
    line('2 events written, not awaited (runner)', withEvents);
    line('2 events awaited with the settlement', awaited);
    console.log(`publishing adds ${(p(withEvents, 0.5) - p(without, 0.5)).toFixed(3)} ms at p50 to a turn (target < 0.3 ms); awaiting it would add ${(p(awaited, 0.5) - p(without, 0.5)).toFixed(3)} ms`);
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

import type { Database } from '../../../adapters/persistence/data-source';
import { TypeOrmAnalyticsStore } from '../../../adapters/persistence/analytics/type-orm-analytics.store';
import { AnalyticsRecorder } from '../../../core/analytics/use-cases/analytics-recorder';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const clock = { now: () => new Date('2026-03-04T10:00:00Z') };
const SLICES = [
  { source: 'api', provider: 'provider_a', model: 'gpt-4o-mini', keyKind: 'platform' },
  { source: 'widget', provider: 'provider_b', model: 'claude-3-5-haiku-20241022', keyKind: 'own' },
  { source: 'dashboard', provider: 'provider_a', model: 'gpt-4o', keyKind: 'platform' },
] as const;

describe.each(DATABASE_KINDS)('the analytics rollup (%s)', (kind) => {
  let database: Database;
  let appId: string;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const db = database.dataSource;
    const [user] = await db.query(`INSERT INTO users (email, password_hash, display_name) VALUES ('rollup@example.com', 'x', 'Rollup') RETURNING id`);
    [{ id: appId }] = await db.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Rollup', 'rollup-app') RETURNING id`, [user.id]);
  });
  afterAll(() => database.close());

  it('loses no count when instances flush the same slices at the same time', async () => {
    // Four "instances", each with its own recorder, each flushing ten batches concurrently with the others.
    const recorders = Array.from({ length: 4 }, () => new AnalyticsRecorder({ store: new TypeOrmAnalyticsStore(database.dataSource), clock }));
    await Promise.all(
      recorders.map(async (recorder, r) => {
        for (let batch = 0; batch < 10; batch++) {
          // Each instance walks the slices in its own order: the store's sort keeps the lock order the same.
          for (const slice of r % 2 ? [...SLICES].reverse() : SLICES) {
            recorder.record({ type: 'message_sent', applicationId: appId, ...slice });
            recorder.record({ type: 'message_received', applicationId: appId, ...slice, promptTokens: 3, completionTokens: 2 });
          }
          await recorder.flush();
        }
      }),
    );
    const rows = await database.dataSource.query(`SELECT source, messages_sent::int AS sent, messages_received::int AS received, prompt_tokens::int AS prompt FROM analytics_daily ORDER BY source`);
    expect(rows).toEqual([
      { source: 'api', sent: 40, received: 40, prompt: 120 },
      { source: 'dashboard', sent: 40, received: 40, prompt: 120 },
      { source: 'widget', sent: 40, received: 40, prompt: 120 },
    ]);
  });

  it('drops the counts of an application deleted before the flush instead of failing the batch', async () => {
    const store = new TypeOrmAnalyticsStore(database.dataSource);
    const recorder = new AnalyticsRecorder({ store, clock });
    recorder.record({ type: 'api_call', applicationId: '6f1f7c4e-1111-4a2b-9c3d-00000000dead', source: 'api' });
    recorder.record({ type: 'api_call', applicationId: appId, source: 'api' });
    await recorder.flush();
    const [row] = await database.dataSource.query(`SELECT sum(api_calls)::int AS calls, count(DISTINCT application_id)::int AS apps FROM analytics_daily`);
    expect(row).toEqual({ calls: 1, apps: 1 });
  });
});

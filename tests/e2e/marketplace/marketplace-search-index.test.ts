import { TypeOrmCatalogRepository } from '../../../adapters/persistence/marketplace/type-orm-marketplace.repository';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';
import type { Database } from '../../../adapters/persistence/data-source';

describe.each(DATABASE_KINDS)('marketplace search uses the full-text index (%s)', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestDatabase(kind);
    await db.dataSource.query(`
      INSERT INTO marketplace_items (kind, name, slug, display_name, description, category, author_id, version, status, published_at)
      SELECT 'plugin', 'plugin-' || g, 'plugin-' || g, 'Plugin ' || g,
             CASE WHEN g % 3000 = 0 THEN 'Translates answers into Klingon' ELSE 'Adds feature number ' || g || ' to chats' END,
             'chat', gen_random_uuid(), '1.0.0', 'published', now()
        FROM generate_series(1, 30000) AS g`);
    await db.dataSource.query(`ANALYZE marketplace_items`);
  });
  afterAll(() => db.close());

  it('finds items by words of their description through the GIN index', async () => {
    const repo = new TypeOrmCatalogRepository(db.dataSource);
    const found = await repo.browse({ kind: 'plugin', offset: 0, limit: 20, search: 'klingon', sort: 'popular' });
    expect(found.total).toBe(10);
    const plan = (await db.dataSource.query(
      `EXPLAIN SELECT id FROM marketplace_items WHERE kind = 'plugin' AND status = 'published' AND search @@ websearch_to_tsquery('simple', $1)`,
      ['klingon'],
    )) as Array<{ 'QUERY PLAN': string }>;
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain('marketplace_items_search_idx');
  });
});

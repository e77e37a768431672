import type { DataSource } from 'typeorm';
import type { Theme, ThemeDefinition, ThemeOverrides } from '../../../core/themes/domain/theme';
import type { NewTheme, ThemeRepository } from '../../../core/themes/ports/theme-repository.port';
import { one, rows } from '../sql';

interface Row {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  extend: string | null;
  overrides: ThemeOverrides;
  definition: ThemeDefinition;
  published: boolean;
  created_at: Date;
}

const toTheme = (r: Row): Theme => ({
  id: r.id,
  ownerId: r.owner_id,
  name: r.name,
  description: r.description,
  extend: r.extend,
  overrides: r.overrides ?? {},
  definition: r.definition,
  published: r.published,
  createdAt: new Date(r.created_at),
});

export class TypeOrmThemeRepository implements ThemeRepository {
  constructor(private readonly db: DataSource) {}

  async create(t: NewTheme): Promise<Theme> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO themes (owner_id, name, description, extend, overrides, definition, published)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7) RETURNING *`,
      [t.ownerId, t.name, t.description, t.extend, JSON.stringify(t.overrides), JSON.stringify(t.definition), t.published],
    );
    return toTheme(row!);
  }

  async findById(id: string): Promise<Theme | null> {
    const row = await one<Row>(this.db, `SELECT * FROM themes WHERE id = $1`, [id]);
    return row && toTheme(row);
  }

  async listVisible(ownerId: string, offset: number, limit: number): Promise<{ items: Theme[]; total: number }> {
    const [items, count] = await Promise.all([
      rows<Row>(this.db, `SELECT * FROM themes WHERE owner_id = $1 OR published ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`, [ownerId, limit, offset]),
      one<{ n: number }>(this.db, `SELECT count(*)::int AS n FROM themes WHERE owner_id = $1 OR published`, [ownerId]),
    ]);
    return { items: items.map(toTheme), total: count?.n ?? 0 };
  }
}

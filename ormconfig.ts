import { DataSource } from 'typeorm';
import { MIGRATIONS } from './adapters/persistence/migrations';

/**
 * The data source for TypeORM's own CLI (`npx typeorm-ts-node-commonjs -d ormconfig.ts migration:show`),
 * on PostgreSQL at DATABASE_URL. The services and `npm run migrate` use
 * adapters/persistence/data-source.ts, which also serves the embedded PGlite.
 */
export default new DataSource({
  type: 'postgres',
  url: process.env.DATABASE_URL,
  migrations: MIGRATIONS,
});

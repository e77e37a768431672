import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Knowledge bases as their own resource (docs/knowledge.md):
 * - `knowledge_bases`: a base owned by a user, or by a team (`team_id`, with the team's Owner as `owner_id`,
 *   as for a team's applications; a team holding bases is not deleted, as one holding applications is not), or
 *   an application's own base (`application_id`, with no owner or team of
 *   its own: the application's decide). An application's own base has the application's id, so the documents, chunks and
 *   word counts already written for it (whose `application_id` column holds that id) are its base's without
 *   a row of them being rewritten.
 * - From here on, `application_id` in `knowledge_documents`, `knowledge_chunks` and `knowledge_words` names
 *   the base (a foreign key to `knowledge_bases`), the application's for its own base.
 * - `knowledge_application_bases`: the other bases an application uses (its own is always used).
 * Every application gets its own base now, holding its existing documents (nothing is moved or lost), and
 * every application created later gets one with it (a trigger, so no way of creating an application can miss it).
 */
export class KnowledgeBases1764601000000 implements MigrationInterface {
  name = 'KnowledgeBases1764601000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE knowledge_bases (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        owner_id uuid REFERENCES users(id) ON DELETE CASCADE,
        team_id uuid REFERENCES teams(id) ON DELETE RESTRICT,
        application_id uuid UNIQUE REFERENCES applications(id) ON DELETE CASCADE,
        name text NOT NULL,
        description text NOT NULL DEFAULT '',
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (application_id IS NULL OR application_id = id),
        -- An application's own base has no owner or team of its own: its application's decide (and a move of the
        -- application, or a deletion of its former owner or team, never reaches the base).
        CHECK ((application_id IS NULL) = (owner_id IS NOT NULL)),
        CHECK (application_id IS NULL OR team_id IS NULL)
      )`);
    await q.query(`CREATE INDEX knowledge_bases_owner_idx ON knowledge_bases (owner_id) WHERE application_id IS NULL`);
    await q.query(`CREATE INDEX knowledge_bases_team_idx ON knowledge_bases (team_id) WHERE application_id IS NULL`);
    await q.query(`
      INSERT INTO knowledge_bases (id, application_id, name, created_by, created_at, updated_at)
        SELECT a.id, a.id, a.name, a.owner_id, a.created_at, a.created_at FROM applications a`);
    await q.query(`
      CREATE FUNCTION knowledge_own_base() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO knowledge_bases (id, application_id, name, created_by, created_at, updated_at)
          VALUES (NEW.id, NEW.id, NEW.name, NEW.owner_id, NEW.created_at, NEW.created_at)
          ON CONFLICT (id) DO NOTHING;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER applications_own_knowledge_base AFTER INSERT ON applications FOR EACH ROW EXECUTE FUNCTION knowledge_own_base()`);
    for (const table of ['knowledge_documents', 'knowledge_chunks', 'knowledge_words']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_application_id_fkey`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_application_id_fkey FOREIGN KEY (application_id) REFERENCES knowledge_bases(id) ON DELETE CASCADE`);
    }
    await q.query(`
      CREATE TABLE knowledge_application_bases (
        application_id uuid NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
        base_id uuid NOT NULL REFERENCES knowledge_bases(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (application_id, base_id)
      )`);
    await q.query(`CREATE INDEX knowledge_application_bases_base_idx ON knowledge_application_bases (base_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE knowledge_application_bases`);
    // Documents of bases that are no application's own have nowhere to go back to.
    await q.query(`DELETE FROM knowledge_documents WHERE application_id IN (SELECT id FROM knowledge_bases WHERE application_id IS NULL)`);
    await q.query(`DELETE FROM knowledge_words WHERE application_id IN (SELECT id FROM knowledge_bases WHERE application_id IS NULL)`);
    for (const table of ['knowledge_documents', 'knowledge_chunks', 'knowledge_words']) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_application_id_fkey`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_application_id_fkey FOREIGN KEY (application_id) REFERENCES applications(id) ON DELETE CASCADE`);
    }
    await q.query(`DROP TRIGGER applications_own_knowledge_base ON applications`);
    await q.query(`DROP FUNCTION knowledge_own_base()`);
    await q.query(`DROP TABLE knowledge_bases`);
  }
}

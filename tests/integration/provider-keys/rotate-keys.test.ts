import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { DataSource } from 'typeorm';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import { openDatabase } from '../../../adapters/persistence/data-source';
import { TypeOrmProviderKeyRepository } from '../../../adapters/persistence/provider-keys/type-orm-provider-key.repository';
import { rotateStoredSecrets, SEALED_COLUMNS, SEALED_MAP_COLUMNS, UnreadableSecretError } from '../../../adapters/persistence/secret-rotation';
import { oidcSecretAssociatedData } from '../../../core/sso/domain/sso-config';
import { TypeOrmUserRepository } from '../../../adapters/persistence/users/type-orm-user.repository';
import { secretAad } from '../../../core/plugins/use-cases/plugin-runtime';
import { providerKeyAssociatedData } from '../../../core/provider-keys/domain/provider-key';
import { secretAssociatedData } from '../../../core/webhooks/domain/webhook';
import { mcpHeaderAad, mcpSecretAad } from '../../../core/tools/domain/mcp-server';
import { SaveProviderKeyUseCase } from '../../../core/provider-keys/use-cases/save-provider-key.use-case';
import { systemClock } from '../../../core/shared/clock.port';
import { DATABASE_KINDS, openTestDatabase } from '../../support/test-database';

const hexKey = () => randomBytes(32).toString('hex');

/** Re-sealed counts of every kind of stored secret: `given`, and 0 for the others (areas add kinds). */
const resealed = (given: Record<string, number>) => ({
  ...Object.fromEntries([...SEALED_COLUMNS, ...SEALED_MAP_COLUMNS].map((c) => [c.name, 0])),
  ...given,
});
const RAW_KEYS = ['sk-rotate-first-1111', 'sk-rotate-second-2222', 'sk-rotate-third-3333'];

/** Three users with a provider_a key each, sealed with `oldKey`; answers user ids by raw key. */
async function seed(ds: DataSource, oldKey: string): Promise<Map<string, string>> {
  const users = new TypeOrmUserRepository(ds);
  const save = new SaveProviderKeyUseCase({ keys: new TypeOrmProviderKeyRepository(ds), secretBox: new AesGcmSecretBox({ key: oldKey }), clock: systemClock });
  const owners = new Map<string, string>();
  for (const raw of RAW_KEYS) {
    const user = await users.create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
    await save.execute('provider_a', { apiKey: raw }, { userId: user.id, role: 'developer' });
    owners.set(raw, user.id);
  }
  return owners;
}

async function sealedRows(ds: DataSource): Promise<{ user_id: string; sealed_key: string }[]> {
  return ds.query(`SELECT user_id, sealed_key FROM provider_keys ORDER BY user_id`);
}

const opens = (box: AesGcmSecretBox, row: { user_id: string; sealed_key: string }) => {
  try {
    return box.open(row.sealed_key, providerKeyAssociatedData(row.user_id, 'provider_a'));
  } catch {
    return undefined;
  }
};

describe.each(DATABASE_KINDS)('key rotation (%s)', (kind) => {
  it('re-seals every stored key so that it opens with the new key and no longer with the old', async () => {
    const db = await openTestDatabase(kind);
    try {
      const [oldKey, newKey] = [hexKey(), hexKey()];
      const owners = await seed(db.dataSource, oldKey);
      const result = await rotateStoredSecrets(db.dataSource, new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey] }));
      expect(result).toEqual({ resealed: resealed({ 'provider keys': 3 }), alreadyCurrent: 0 });
      const onlyNew = new AesGcmSecretBox({ key: newKey });
      const onlyOld = new AesGcmSecretBox({ key: oldKey });
      const rows = await sealedRows(db.dataSource);
      expect(rows).toHaveLength(3);
      for (const row of rows) {
        expect(owners.get(opens(onlyNew, row)!)).toBe(row.user_id);
        expect(opens(onlyOld, row)).toBeUndefined();
      }
      // A second run finds nothing left to do.
      expect(await rotateStoredSecrets(db.dataSource, new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey] }))).toEqual({
        resealed: resealed({}),
        alreadyCurrent: 3,
      });
    } finally {
      await db.close();
    }
  });

  it("re-seals webhook signing secrets and plugins' secret settings too", async () => {
    const db = await openTestDatabase(kind);
    try {
      const [oldKey, newKey] = [hexKey(), hexKey()];
      const ds = db.dataSource;
      const old = new AesGcmSecretBox({ key: oldKey });
      const user = await new TypeOrmUserRepository(ds).create({ email: `${randomUUID()}@example.com`, displayName: 'U', role: 'developer', passwordHash: 'h' });
      const [app] = await ds.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'A', $2) RETURNING id`, [user.id, `a-${randomUUID()}`]);
      const webhookId = randomUUID();
      await ds.query(`INSERT INTO webhooks (id, owner_id, url, events, secret_sealed) VALUES ($1, $2, 'https://hooks.example.com/x', '{message.completed}', $3)`, [
        webhookId,
        user.id,
        old.seal('whsec_old', secretAssociatedData(webhookId)),
      ]);
      const [plugin] = await ds.query(`INSERT INTO plugins (owner_id, name, version, manifest, source) VALUES ($1, 'p', '1.0.0', '{}', '') RETURNING id`, [user.id]);
      const ref = { applicationId: app.id as string, pluginId: plugin.id as string };
      const sealed = { apiToken: old.seal('tok-1', secretAad(ref, 'apiToken')), password: old.seal('pw-2', secretAad(ref, 'password')) };
      await ds.query(`INSERT INTO plugin_installations (plugin_id, application_id, state, version, sealed_secrets) VALUES ($1, $2, 'installed', '1.0.0', $3::jsonb)`, [
        ref.pluginId,
        ref.applicationId,
        JSON.stringify(sealed),
      ]);

      const mcpId = randomUUID();
      await ds.query(`INSERT INTO mcp_servers (id, owner_id, application_id, name, url, timeout_ms, secrets_sealed, headers_sealed) VALUES ($1, $2, $3, 'docs', 'https://mcp.example.com/mcp', 10000, $4::jsonb, $5::jsonb)`, [
        mcpId,
        user.id,
        app.id,
        JSON.stringify({ TOKEN: old.seal('mcp-token-3', mcpSecretAad(mcpId, 'TOKEN')) }),
        JSON.stringify({ Authorization: old.seal('Bearer pasted-4', mcpHeaderAad(mcpId, 'Authorization')) }),
      ]);

      const result = await rotateStoredSecrets(ds, new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey] }));
      expect(result).toEqual({ resealed: resealed({ 'webhook signing secrets': 1, 'plugin secret settings': 2, 'MCP server secrets': 1, 'MCP server headers': 1 }), alreadyCurrent: 0 });
      const onlyNew = new AesGcmSecretBox({ key: newKey });
      const [webhook] = await ds.query(`SELECT secret_sealed FROM webhooks WHERE id = $1`, [webhookId]);
      expect(onlyNew.open(webhook.secret_sealed, secretAssociatedData(webhookId))).toBe('whsec_old');
      const [installation] = await ds.query(`SELECT sealed_secrets FROM plugin_installations WHERE plugin_id = $1`, [ref.pluginId]);
      expect(onlyNew.open(installation.sealed_secrets.apiToken, secretAad(ref, 'apiToken'))).toBe('tok-1');
      expect(onlyNew.open(installation.sealed_secrets.password, secretAad(ref, 'password'))).toBe('pw-2');
      expect(() => old.open(installation.sealed_secrets.apiToken, secretAad(ref, 'apiToken'))).toThrow();
      const [mcp] = await ds.query(`SELECT secrets_sealed, headers_sealed FROM mcp_servers WHERE id = $1`, [mcpId]);
      expect(onlyNew.open(mcp.secrets_sealed.TOKEN, mcpSecretAad(mcpId, 'TOKEN'))).toBe('mcp-token-3');
      expect(onlyNew.open(mcp.headers_sealed.Authorization, mcpHeaderAad(mcpId, 'Authorization'))).toBe('Bearer pasted-4');
      expect(() => old.open(mcp.headers_sealed.Authorization, mcpHeaderAad(mcpId, 'Authorization'))).toThrow();
    } finally {
      await db.close();
    }
  });

  it("re-seals teams' SSO client secrets, passing over SAML connections that have none", async () => {
    const db = await openTestDatabase(kind);
    try {
      const ds = db.dataSource;
      const [oldKey, newKey] = [hexKey(), hexKey()];
      const old = new AesGcmSecretBox({ key: oldKey });
      const teams: { id: string }[] = [];
      for (let i = 0; i < 2; i++) [teams[i]] = await ds.query(`INSERT INTO teams (name, slug) VALUES ('T', $1) RETURNING id`, [`t-${randomUUID()}`]);
      const oidcId = randomUUID();
      await ds.query(
        `INSERT INTO sso_configurations (id, team_id, protocol, oidc_issuer, oidc_client_id, oidc_client_secret_sealed, attribute_mapping)
         VALUES ($1, $2, 'oidc', 'https://idp.example.com', 'c', $3, '{}'::jsonb)`,
        [oidcId, teams[0]!.id, old.seal('oidc-secret-1', oidcSecretAssociatedData(oidcId))],
      );
      await ds.query(
        `INSERT INTO sso_configurations (team_id, protocol, saml_entity_id, saml_sso_url, saml_certificate, attribute_mapping)
         VALUES ($1, 'saml', 'https://idp.example.com/saml', 'https://idp.example.com/sso', 'cert', '{}'::jsonb)`,
        [teams[1]!.id],
      );
      const result = await rotateStoredSecrets(ds, new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey] }));
      expect(result).toEqual({ resealed: resealed({ 'SSO OIDC client secrets': 1 }), alreadyCurrent: 0 });
      const [row] = await ds.query(`SELECT oidc_client_secret_sealed AS sealed FROM sso_configurations WHERE id = $1`, [oidcId]);
      expect(new AesGcmSecretBox({ key: newKey }).open(row.sealed, oidcSecretAssociatedData(oidcId))).toBe('oidc-secret-1');
      expect(() => old.open(row.sealed, oidcSecretAssociatedData(oidcId))).toThrow();
    } finally {
      await db.close();
    }
  });

  it('changes nothing when one row does not open, and names that row', async () => {
    const db = await openTestDatabase(kind);
    try {
      const [oldKey, newKey] = [hexKey(), hexKey()];
      const owners = await seed(db.dataSource, oldKey);
      const broken = owners.get(RAW_KEYS[2]!)!;
      await db.dataSource.query(`UPDATE provider_keys SET sealed_key = $2 WHERE user_id = $1`, [broken, new AesGcmSecretBox({ key: hexKey() }).seal('x', 'y')]);
      const before = await sealedRows(db.dataSource);
      const rotation = rotateStoredSecrets(db.dataSource, new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey] }));
      await expect(rotation).rejects.toBeInstanceOf(UnreadableSecretError);
      await expect(rotation).rejects.toThrow(new RegExp(`user_id=${broken}.*nothing was changed`));
      expect(await sealedRows(db.dataSource)).toEqual(before);
    } finally {
      await db.close();
    }
  });
});

describe('npm run keys:rotate', () => {
  const root = join(__dirname, '../../..');
  /** The script as `npm run keys:rotate` runs it. */
  const rotateScript = (env: NodeJS.ProcessEnv) =>
    promisify(execFile)(join(root, 'node_modules/.bin/ts-node'), ['--swc', 'apps/cli/rotate-keys.main.ts'], { env, cwd: root });
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'rotate-keys-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** Every file under `dir`, read as bytes. */
  const filesUnder = (dir: string): Buffer[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [readFileSync(path)];
    });

  it('rotates a database on disk in one go, prints a count and never a key', async () => {
    const [oldKey, newKey] = [hexKey(), hexKey()];
    const seeded = await openDatabase({ dataDir });
    await seed(seeded.dataSource, oldKey);
    await seeded.close();
    // The keys were sealed before they reached the database: its files hold none of them.
    for (const file of filesUnder(dataDir)) for (const raw of RAW_KEYS) expect(file.includes(raw)).toBe(false);

    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ENCRYPTION_KEY: oldKey, NEW_ENCRYPTION_KEY: newKey };
    const { stdout, stderr } = await rotateScript(env);
    const counts = Object.entries(resealed({ 'provider keys': 3 })).map(([name, n]) => `${name}: ${n}`).join(', ');
    expect(stdout).toContain(`Re-sealed 3 stored secrets with the new key (${counts}); 0 already used it`);
    expect(stdout).toMatch(/Set ENCRYPTION_KEY to the new key/);
    for (const secret of [oldKey, newKey, ...RAW_KEYS]) expect(stdout + stderr).not.toContain(secret);

    const reopened = await openDatabase({ dataDir });
    try {
      for (const row of await sealedRows(reopened.dataSource)) {
        expect(opens(new AesGcmSecretBox({ key: newKey }), row)).toMatch(/^sk-rotate-/);
        expect(opens(new AesGcmSecretBox({ key: oldKey }), row)).toBeUndefined();
      }
    } finally {
      await reopened.close();
    }
  }, 180_000); // an on-disk initdb, the migrations and a CLI process: over a minute on a loaded two-core machine

  it('refuses to run without NEW_ENCRYPTION_KEY, saying which variable is missing', async () => {
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ENCRYPTION_KEY: hexKey(), NEW_ENCRYPTION_KEY: '' };
    const failure = await rotateScript(env).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 1, stderr: expect.stringMatching(/NEW_ENCRYPTION_KEY \(the key to rotate to\) must be set/) });
  }, 60_000);
});

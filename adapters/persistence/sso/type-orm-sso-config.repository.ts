import type { DataSource } from 'typeorm';
import type { AttributeMapping, SsoConfig, SsoProtocol, SsoRole } from '../../../core/sso/domain/sso-config';
import type { SsoConfigData, SsoConfigRepository } from '../../../core/sso/ports/sso-config-repository.port';
import { affected, one } from '../sql';

interface Row {
  id: string;
  team_id: string;
  protocol: SsoProtocol;
  enabled: boolean;
  enforced: boolean;
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  oidc_client_secret_sealed: string | null;
  oidc_scopes: string | null;
  saml_entity_id: string | null;
  saml_sso_url: string | null;
  saml_certificate: string | null;
  attribute_mapping: AttributeMapping;
  allowed_domains: string[];
  default_role: SsoRole;
  created_at: Date | string;
  updated_at: Date | string;
}

const toConfig = (r: Row): SsoConfig => ({
  id: r.id,
  teamId: r.team_id,
  protocol: r.protocol,
  enabled: r.enabled,
  enforced: r.enforced,
  oidc:
    r.protocol === 'oidc'
      ? { issuer: r.oidc_issuer!, clientId: r.oidc_client_id!, clientSecretSealed: r.oidc_client_secret_sealed!, scopes: r.oidc_scopes ?? 'openid email profile' }
      : null,
  saml: r.protocol === 'saml' ? { entityId: r.saml_entity_id!, ssoUrl: r.saml_sso_url!, certificate: r.saml_certificate! } : null,
  mapping: r.attribute_mapping,
  allowedDomains: r.allowed_domains,
  defaultRole: r.default_role,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class TypeOrmSsoConfigRepository implements SsoConfigRepository {
  private records = 0;

  constructor(private readonly db: DataSource) {}

  async findByTeam(teamId: string): Promise<SsoConfig | null> {
    const row = await one<Row>(this.db, `SELECT * FROM sso_configurations WHERE team_id = $1`, [teamId]);
    return row && toConfig(row);
  }

  async findById(id: string): Promise<SsoConfig | null> {
    const row = await one<Row>(this.db, `SELECT * FROM sso_configurations WHERE id = $1`, [id]);
    return row && toConfig(row);
  }

  async save(c: SsoConfigData): Promise<SsoConfig> {
    const row = await one<Row>(
      this.db,
      `INSERT INTO sso_configurations (id, team_id, protocol, enabled, enforced, oidc_issuer, oidc_client_id, oidc_client_secret_sealed, oidc_scopes,
          saml_entity_id, saml_sso_url, saml_certificate, attribute_mapping, allowed_domains, default_role)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14::jsonb, $15)
        ON CONFLICT (team_id) DO UPDATE SET protocol = EXCLUDED.protocol, enabled = EXCLUDED.enabled, enforced = EXCLUDED.enforced,
          oidc_issuer = EXCLUDED.oidc_issuer, oidc_client_id = EXCLUDED.oidc_client_id, oidc_client_secret_sealed = EXCLUDED.oidc_client_secret_sealed,
          oidc_scopes = EXCLUDED.oidc_scopes, saml_entity_id = EXCLUDED.saml_entity_id, saml_sso_url = EXCLUDED.saml_sso_url,
          saml_certificate = EXCLUDED.saml_certificate, attribute_mapping = EXCLUDED.attribute_mapping,
          allowed_domains = EXCLUDED.allowed_domains, default_role = EXCLUDED.default_role, updated_at = now()
        RETURNING *`,
      [
        c.id, c.teamId, c.protocol, c.enabled, c.enforced,
        c.oidc?.issuer ?? null, c.oidc?.clientId ?? null, c.oidc?.clientSecretSealed ?? null, c.oidc?.scopes ?? null,
        c.saml?.entityId ?? null, c.saml?.ssoUrl ?? null, c.saml?.certificate ?? null,
        JSON.stringify(c.mapping), JSON.stringify(c.allowedDomains), c.defaultRole,
      ],
    );
    return toConfig(row!);
  }

  async delete(teamId: string): Promise<boolean> {
    return (await affected(this.db, `DELETE FROM sso_configurations WHERE team_id = $1`, [teamId])) > 0;
  }

  async recordAssertion(id: string, expiresAt: Date): Promise<boolean> {
    if (++this.records % 100 === 1) await this.db.query(`DELETE FROM sso_used_assertions WHERE expires_at < now()`);
    const row = await one<{ id: string }>(this.db, `INSERT INTO sso_used_assertions (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`, [
      id,
      expiresAt,
    ]);
    return row !== null;
  }

  async enforcingTeamOf(userId: string): Promise<string | null> {
    const row = await one<{ slug: string }>(
      this.db,
      `SELECT t.slug FROM sso_configurations s
         JOIN team_members m ON m.team_id = s.team_id AND m.user_id = $1
         JOIN teams t ON t.id = s.team_id
        WHERE s.enabled AND s.enforced
        ORDER BY t.slug LIMIT 1`,
      [userId],
    );
    return row?.slug ?? null;
  }
}

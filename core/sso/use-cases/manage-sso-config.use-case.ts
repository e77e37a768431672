import { X509Certificate } from 'node:crypto';
import * as yup from 'yup';
import { authorize } from '../../access/access-policy';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { bool, str, validate } from '../../shared/validation';
import type { TeamRepository } from '../../teams/ports/team-repository.port';
import {
  DEFAULT_MAPPING,
  oidcSecretAssociatedData,
  SSO_PROTOCOLS,
  SSO_ROLES,
  ssoEndpoints,
  toSsoConfigView,
  type SamlSettings,
  type SsoConfig,
  type SsoConfigView,
  type SsoRole,
} from '../domain/sso-config';
import type { SsoConfigRepository } from '../ports/sso-config-repository.port';
import type { SamlClient } from '../ports/sso-protocols.port';
import { newId } from '../../shared/ids';

export type SsoTeams = Pick<TeamRepository, 'findBySlug' | 'findById' | 'roleInTeam' | 'findMember' | 'addMember' | 'setRole'>;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
// str() trims text itself; yup's own trim() would call trim() on a number sent there (a 500).
const attributeName = (name: string) => str().typeError(`${name} must be text`).min(1, `${name} must not be empty`).max(256, `${name} must be at most 256 characters`);

const rolesField = yup
  .mixed<Record<string, SsoRole>>()
  .test('roles', 'attributeMapping.roles must map up to 100 group or role values to admin, member or viewer', (value) => {
    if (value === undefined) return true;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const entries = Object.entries(value);
    return entries.length <= 100 && entries.every(([k, v]) => k.length >= 1 && k.length <= 256 && (SSO_ROLES as readonly unknown[]).includes(v));
  });

const schema = yup.object({
  protocol: str().required('protocol is required').oneOf([...SSO_PROTOCOLS], 'protocol must be oidc or saml'),
  enabled: bool(),
  enforced: bool(),
  oidc: yup
    .object({
      issuer: str().max(2048, 'oidc.issuer is too long'),
      clientId: str().max(512, 'oidc.clientId is too long'),
      clientSecret: str().max(2048, 'oidc.clientSecret is too long'),
      scopes: str().max(1024, 'oidc.scopes is too long'),
    })
    .default(undefined),
  saml: yup
    .object({
      metadataXml: str().max(200_000, 'saml.metadataXml is too long'),
      entityId: str().max(2048, 'saml.entityId is too long'),
      ssoUrl: str().max(2048, 'saml.ssoUrl is too long'),
      certificate: str().max(20_000, 'saml.certificate is too long'),
    })
    .default(undefined),
  attributeMapping: yup
    .object({
      email: attributeName('attributeMapping.email'),
      displayName: attributeName('attributeMapping.displayName'),
      groups: attributeName('attributeMapping.groups'),
      roles: rolesField,
    })
    .default(undefined),
  allowedDomains: yup.array(str().required().max(253)).max(100, 'allowedDomains may hold at most 100 domains'),
  defaultRole: str().oneOf([...SSO_ROLES], 'defaultRole must be admin, member or viewer'),
});

export interface ManageSsoDeps {
  teams: SsoTeams;
  configs: SsoConfigRepository;
  box: SecretBox;
  saml: SamlClient;
  /** `http:` issuers and identity provider URLs are accepted (development only). */
  allowHttp: boolean;
}

/** A team's SSO connection, read and written by the team's Owner and Admins (SPEC 4.12). */
export class ManageSsoConfigUseCase {
  constructor(private readonly deps: ManageSsoDeps) {}

  private async team(slug: string, actor: Actor) {
    const team = await this.deps.teams.findBySlug(slug);
    // Non-members get the same 404 as for a team that does not exist; members below Admin a 403.
    await authorize(team && { ownerId: '', teamId: team.id }, actor, 'manage', 'Team', this.deps.teams);
    return team!;
  }

  async get(slug: string, actor: Actor, baseUrl: string): Promise<SsoConfigView> {
    const team = await this.team(slug, actor);
    const config = await this.deps.configs.findByTeam(team.id);
    if (!config) throw new NotFoundError('SSO configuration');
    return toSsoConfigView(config, ssoEndpoints(baseUrl, team.slug));
  }

  async remove(slug: string, actor: Actor): Promise<void> {
    const team = await this.team(slug, actor);
    if (!(await this.deps.configs.delete(team.id))) throw new NotFoundError('SSO configuration');
  }

  async put(slug: string, input: unknown, actor: Actor, baseUrl: string): Promise<SsoConfigView> {
    const team = await this.team(slug, actor);
    const body = await validate(schema, input);
    const existing = await this.deps.configs.findByTeam(team.id);
    const id = existing?.id ?? newId();
    const protocol = body.protocol as SsoConfig['protocol'];
    const sameProtocol = existing?.protocol === protocol;
    const mapping = { ...(sameProtocol ? existing.mapping : DEFAULT_MAPPING[protocol]) };
    if (body.attributeMapping) {
      const m = body.attributeMapping;
      if (m.email !== undefined) mapping.email = m.email;
      if (m.displayName !== undefined) mapping.displayName = m.displayName;
      if (m.groups !== undefined) mapping.groups = m.groups;
      if (m.roles !== undefined) mapping.roles = { ...m.roles };
    }
    const allowedDomains = body.allowedDomains
      ? [...new Set(body.allowedDomains.map((d) => d.trim().toLowerCase().replace(/^@/, '')))]
      : (existing?.allowedDomains ?? []);
    allowedDomains.forEach((d, i) => {
      if (!DOMAIN.test(d)) throw ValidationError.field(`allowedDomains[${i}]`, `allowedDomains[${i}] must be a domain name such as example.com`);
    });
    let oidc: SsoConfig['oidc'] = null;
    let saml: SsoConfig['saml'] = null;
    if (protocol === 'oidc') {
      const given = body.oidc ?? {};
      const before = sameProtocol ? existing.oidc : null;
      const issuer = given.issuer ?? before?.issuer;
      const clientId = given.clientId ?? before?.clientId;
      if (!issuer) throw ValidationError.field('oidc.issuer', 'oidc.issuer is required');
      if (!clientId) throw ValidationError.field('oidc.clientId', 'oidc.clientId is required');
      const clientSecretSealed = given.clientSecret
        ? this.deps.box.seal(given.clientSecret, oidcSecretAssociatedData(id))
        : before?.clientSecretSealed;
      if (!clientSecretSealed) throw ValidationError.field('oidc.clientSecret', 'oidc.clientSecret is required');
      const scopes = (given.scopes ?? before?.scopes ?? 'openid email profile').trim().split(/\s+/);
      if (!scopes.includes('openid')) scopes.unshift('openid');
      oidc = { issuer: this.url('oidc.issuer', issuer), clientId, clientSecretSealed, scopes: scopes.join(' ') };
    } else {
      saml = this.samlSettings(body.saml ?? {}, sameProtocol ? existing.saml : null);
    }
    const saved = await this.deps.configs.save({
      id,
      teamId: team.id,
      protocol,
      enabled: body.enabled ?? existing?.enabled ?? true,
      enforced: body.enforced ?? existing?.enforced ?? false,
      oidc,
      saml,
      mapping,
      allowedDomains,
      defaultRole: (body.defaultRole as SsoRole | undefined) ?? existing?.defaultRole ?? 'member',
    });
    return toSsoConfigView(saved, ssoEndpoints(baseUrl, team.slug));
  }

  private samlSettings(given: { metadataXml?: string; entityId?: string; ssoUrl?: string; certificate?: string }, before: SamlSettings | null): SamlSettings {
    const fromMetadata = given.metadataXml ? this.deps.saml.readMetadata(given.metadataXml) : null;
    const entityId = given.entityId ?? fromMetadata?.entityId ?? before?.entityId;
    const ssoUrl = given.ssoUrl ?? fromMetadata?.ssoUrl ?? before?.ssoUrl;
    const certificate = given.certificate ?? fromMetadata?.certificate ?? before?.certificate;
    if (!entityId) throw ValidationError.field('saml.entityId', 'saml.entityId (or saml.metadataXml) is required');
    if (!ssoUrl) throw ValidationError.field('saml.ssoUrl', 'saml.ssoUrl (or saml.metadataXml) is required');
    if (!certificate) throw ValidationError.field('saml.certificate', 'saml.certificate (or saml.metadataXml) is required');
    return { entityId, ssoUrl: this.url('saml.ssoUrl', ssoUrl), certificate: pemCertificate(certificate) };
  }

  private url(field: string, value: string): string {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw ValidationError.field(field, `${field} must be an absolute URL`);
    }
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && this.deps.allowHttp)) throw ValidationError.field(field, `${field} must use https`);
    if (parsed.username || parsed.password) throw ValidationError.field(field, `${field} must not carry credentials`);
    return parsed.href.replace(/\/$/, '');
  }
}

/** A certificate given as PEM or as bare base64, as PEM; ValidationError when it is neither. */
export function pemCertificate(text: string): string {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body) || body.length < 100) {
    throw ValidationError.field('saml.certificate', 'saml.certificate must be a PEM or base64 X.509 certificate');
  }
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch {
    throw ValidationError.field('saml.certificate', 'saml.certificate is not a readable X.509 certificate');
  }
  return pem;
}

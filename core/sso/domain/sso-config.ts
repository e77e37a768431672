import type { TeamRole } from '../../access/roles';

export const SSO_PROTOCOLS = ['oidc', 'saml'] as const;
export type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** The roles SSO may give; a team has one Owner, never made by a login. */
export const SSO_ROLES = ['admin', 'member', 'viewer'] as const;
export type SsoRole = (typeof SSO_ROLES)[number];

/**
 * Which claim (OIDC) or attribute (SAML) holds what. `groups` names the claim or attribute with the person's
 * role or groups (one value or several); `roles` maps those values to team roles, the highest match winning.
 */
export interface AttributeMapping {
  email: string;
  displayName: string;
  groups: string;
  roles: Record<string, SsoRole>;
}

export const DEFAULT_MAPPING: Record<SsoProtocol, AttributeMapping> = {
  oidc: { email: 'email', displayName: 'name', groups: 'groups', roles: {} },
  saml: { email: 'email', displayName: 'displayName', groups: 'groups', roles: {} },
};

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Sealed with SecretBox (`oidcSecretAssociatedData`); never in a response. */
  clientSecretSealed: string;
  scopes: string;
}

export interface SamlSettings {
  /** The identity provider's entity id (its assertions' Issuer). */
  entityId: string;
  /** Where sign-in requests go (HTTP-Redirect binding). */
  ssoUrl: string;
  /** The identity provider's signing certificate, PEM. */
  certificate: string;
}

/** A team's single sign-on connection: one per team, OIDC or SAML. */
export interface SsoConfig {
  id: string;
  teamId: string;
  protocol: SsoProtocol;
  enabled: boolean;
  /** Members must sign in through SSO: password and OAuth logins are refused with a 403. */
  enforced: boolean;
  oidc: OidcSettings | null;
  saml: SamlSettings | null;
  mapping: AttributeMapping;
  /** Lower-case e-mail domains allowed to sign in; empty: any. */
  allowedDomains: string[];
  /** The role of a new member when no mapped role applies. */
  defaultRole: SsoRole;
  createdAt: Date;
  updatedAt: Date;
}

export const oidcSecretAssociatedData = (configId: string): string => `sso-oidc-client-secret:${configId}`;

const RANK: Record<SsoRole, number> = { admin: 2, member: 1, viewer: 0 };

/** The highest role the person's groups map to, or null when none does. */
export function mappedRole(mapping: AttributeMapping, groups: string[]): SsoRole | null {
  let best: SsoRole | null = null;
  for (const group of groups) {
    const role = Object.hasOwn(mapping.roles, group) ? mapping.roles[group] : undefined;
    if (role && (best === null || RANK[role] > RANK[best])) best = role;
  }
  return best;
}

/** A claim or attribute's values as strings (one value or a list). */
export function valuesOf(source: Record<string, unknown>, name: string): string[] {
  const value = Object.hasOwn(source, name) ? source[name] : undefined;
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
}

export interface SsoConfigView {
  id: string;
  teamId: string;
  protocol: SsoProtocol;
  enabled: boolean;
  enforced: boolean;
  oidc: { issuer: string; clientId: string; scopes: string; clientSecretSet: true } | null;
  saml: SamlSettings | null;
  attributeMapping: AttributeMapping;
  allowedDomains: string[];
  defaultRole: SsoRole;
  /** What to register at the identity provider, and where members start signing in. */
  endpoints: { login: string; oidcRedirectUri: string; samlAcsUrl: string; samlEntityId: string };
  createdAt: string;
  updatedAt: string;
}

export interface SsoEndpoints {
  login: string;
  oidcRedirectUri: string;
  samlAcsUrl: string;
  samlEntityId: string;
}

/** The platform's SSO addresses under `baseUrl`. */
export const ssoEndpoints = (baseUrl: string, teamSlug: string): SsoEndpoints => ({
  login: `${baseUrl}/api/sso/${teamSlug}/login`,
  oidcRedirectUri: `${baseUrl}/api/sso/oidc/callback`,
  samlAcsUrl: `${baseUrl}/api/sso/saml/callback`,
  samlEntityId: `${baseUrl}/api/sso/saml/metadata`,
});

export const toSsoConfigView = (c: SsoConfig, endpoints: SsoEndpoints): SsoConfigView => ({
  id: c.id,
  teamId: c.teamId,
  protocol: c.protocol,
  enabled: c.enabled,
  enforced: c.enforced,
  oidc: c.oidc && { issuer: c.oidc.issuer, clientId: c.oidc.clientId, scopes: c.oidc.scopes, clientSecretSet: true },
  saml: c.saml && { ...c.saml },
  attributeMapping: { ...c.mapping, roles: { ...c.mapping.roles } },
  allowedDomains: [...c.allowedDomains],
  defaultRole: c.defaultRole,
  endpoints,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

export type { TeamRole };

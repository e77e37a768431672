/** Where an identity comes from: the two OAuth providers, or a team's SSO connection. */
export type IdentityProvider = 'github' | 'google' | 'oidc' | 'saml';

export type OAuthProviderId = 'github' | 'google';
export const OAUTH_PROVIDER_IDS: readonly OAuthProviderId[] = ['github', 'google'];
export const OAUTH_PROVIDER_NAMES: Record<OAuthProviderId, string> = { github: 'GitHub', google: 'Google' };

/** A login at an external provider, linked to one user. `ssoConfigId` names the team connection for SSO. */
export interface Identity {
  id: string;
  userId: string;
  provider: IdentityProvider;
  ssoConfigId: string | null;
  subject: string;
  email: string | null;
  createdAt: Date;
  lastLoginAt: Date;
}

/** What a provider tells us about the person who just signed in there. */
export interface ExternalProfile {
  /** The provider's stable id for the person (never the e-mail, which can change hands). */
  subject: string;
  email: string | null;
  /** The provider vouches that the person controls `email`. */
  emailVerified: boolean;
  displayName: string | null;
}

export interface PublicIdentity {
  id: string;
  provider: IdentityProvider;
  email: string | null;
  createdAt: string;
  lastLoginAt: string;
}

export const toPublicIdentity = (i: Identity): PublicIdentity => ({
  id: i.id,
  provider: i.provider,
  email: i.email,
  createdAt: i.createdAt.toISOString(),
  lastLoginAt: i.lastLoginAt.toISOString(),
});

/** A display name from what the provider gave, else the e-mail's local part. */
export function displayNameFrom(profile: Pick<ExternalProfile, 'displayName' | 'email'>): string {
  const name = (profile.displayName ?? '').trim() || (profile.email ?? '').split('@')[0] || 'New user';
  return [...name].slice(0, 100).join('');
}

/** The part after the last `@`, lower case. */
export const emailDomain = (email: string): string => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

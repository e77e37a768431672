import type { Identity, IdentityProvider } from '../domain/external-identity';

export interface NewIdentity {
  userId: string;
  provider: IdentityProvider;
  ssoConfigId: string | null;
  subject: string;
  email: string | null;
}

/** Identities linked to users; one per (provider, SSO connection, subject). */
export interface IdentityRepository {
  find(provider: IdentityProvider, ssoConfigId: string | null, subject: string): Promise<Identity | null>;
  /** Links an identity; a subject already linked is a ConflictError. */
  create(identity: NewIdentity): Promise<Identity>;
  /** Records a login through the identity and the e-mail the provider gave this time. */
  touch(id: string, email: string | null, at: Date): Promise<void>;
  listForUser(userId: string): Promise<Identity[]>;
  /**
   * Removes the user's identity unless it is their last way to sign in (no password, no other identity),
   * deciding and deleting under a lock on the user, so two removals at once cannot take both of the last two.
   */
  deleteUnlessLast(userId: string, id: string): Promise<'deleted' | 'missing' | 'last'>;
}

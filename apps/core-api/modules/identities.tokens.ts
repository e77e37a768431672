import type { OAuthProviderId } from '../../../core/auth/domain/external-identity';
import type { IdentityRepository } from '../../../core/auth/ports/identity-repository.port';
import type { LoginFlowStore } from '../../../core/auth/ports/login-flow-store.port';
import type { OAuthProvider } from '../../../core/auth/ports/oauth-provider.port';
import type { SsoEnforcement } from '../../../core/sso/ports/sso-enforcement.port';
import { token } from '../../shared/tokens';

export const IDENTITY_TOKENS = {
  IdentityRepository: token<IdentityRepository>('IdentityRepository'),
  LoginFlowStore: token<LoginFlowStore>('LoginFlowStore'),
  OAuthProviders: token<ReadonlyMap<OAuthProviderId, OAuthProvider>>('OAuthProviders'),
  /** Bound by the SSO module: which team requires a user to sign in through SSO. */
  SsoEnforcement: token<SsoEnforcement>('SsoEnforcement'),
} as const;

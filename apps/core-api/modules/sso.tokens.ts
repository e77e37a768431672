import type { SsoConfigRepository } from '../../../core/sso/ports/sso-config-repository.port';
import type { OidcClient, SamlClient } from '../../../core/sso/ports/sso-protocols.port';
import type { SsoTeams } from '../../../core/sso/use-cases/manage-sso-config.use-case';
import { token } from '../../shared/tokens';

export const SSO_TOKENS = {
  Configs: token<SsoConfigRepository>('SsoConfigRepository'),
  Teams: token<SsoTeams>('SsoTeams'),
  OidcClient: token<OidcClient>('SsoOidcClient'),
  SamlClient: token<SamlClient>('SsoSamlClient'),
} as const;

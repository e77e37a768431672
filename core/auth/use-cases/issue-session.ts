import { newId } from '../../shared/ids';
import type { Clock } from '../../shared/clock.port';
import { effectiveRole, toPublicUser, type PublicUser, type User } from '../../users/domain/user';
import type { RefreshTokenRepository } from '../ports/refresh-token-repository.port';
import type { TokenService } from '../ports/token-service.port';

export interface Session {
  user: PublicUser;
  access_token: string;
  refresh_token: string;
}

export interface SessionDeps {
  refreshTokens: RefreshTokenRepository;
  tokens: TokenService;
  clock: Clock;
  adminEmails: readonly string[];
}

/** Issues an access token and a stored, single-use refresh token (a new family unless one is given). */
export async function issueSession(deps: SessionDeps, user: User, familyId: string = newId()): Promise<Session> {
  const role = effectiveRole(user, deps.adminEmails);
  const tokenId = newId();
  const refresh = deps.tokens.issueRefreshToken({ userId: user.id, tokenId, familyId });
  await deps.refreshTokens.create({ id: tokenId, userId: user.id, familyId, expiresAt: refresh.expiresAt });
  return {
    user: toPublicUser(user, role),
    access_token: deps.tokens.issueAccessToken({ userId: user.id, role }),
    refresh_token: refresh.token,
  };
}

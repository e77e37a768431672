import type { PlatformRole } from '../../shared/actor';

/** What a verified access token says about its bearer. */
export interface AccessClaims {
  userId: string;
  role: PlatformRole;
}

/** What a verified refresh token names: the stored token row and the login family it descends from. */
export interface RefreshClaims {
  userId: string;
  tokenId: string;
  familyId: string;
  expiresAt: Date;
}

/**
 * Signs and verifies the bearer tokens of SPEC 5. Access and refresh tokens are never interchangeable;
 * `verify*` throw `UnauthorizedError('Invalid or expired token')` for anything not genuine, current and of the right kind,
 * except a genuine access token past its expiry, whose message says so and names `POST /api/auth/refresh`.
 */
export interface TokenService {
  issueAccessToken(claims: AccessClaims): string;
  issueRefreshToken(claims: { userId: string; tokenId: string; familyId: string }): { token: string; expiresAt: Date };
  verifyAccessToken(token: string): AccessClaims;
  verifyRefreshToken(token: string): RefreshClaims;
  /** Lifetime of an access token, for `expires_in`-style answers. */
  readonly accessTokenTtlSeconds: number;
}

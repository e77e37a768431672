import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { newId } from '../../core/shared/ids';
import { PLATFORM_ROLES, type PlatformRole } from '../../core/shared/actor';
import { systemClock, type Clock } from '../../core/shared/clock.port';
import { UnauthorizedError } from '../../core/shared/errors';
import type { AccessClaims, RefreshClaims, TokenService } from '../../core/auth/ports/token-service.port';

export interface JwtTokenServiceOptions {
  /** JWT_SECRET, at least 32 characters. */
  secret: string;
  issuer?: string;
  audience?: string;
  accessTtlSeconds?: number;
  refreshTtlSeconds?: number;
  /** Where `iat`/`exp` are read from and checked against; tests move it instead of sleeping. */
  clock?: Clock;
}

type TokenType = 'access' | 'refresh';

const ALGORITHM = 'HS256';
const DEFAULT_ISSUER = 'ai-app-platform';
const DEFAULT_AUDIENCE = 'ai-app-platform:api';
const MAX_TOKEN_LENGTH = 8192;
const INVALID = 'Invalid or expired token';
/** Only for a genuine access token past its expiry: what happened and what to do (anything else gets INVALID). */
const EXPIRED_ACCESS = 'The access token has expired; get a new one from POST /api/auth/refresh with your refresh token';
/** Verified access tokens remembered (see `verifyAccessToken`). */
const VERIFIED_MAX = 10_000;

/**
 * HS256 JWTs. The algorithm is pinned on sign and verify (no `none`, no algorithm switching); `typ`
 * ('access' | 'refresh') keeps the two kinds apart; issuer, audience and expiry are always checked.
 */
export class JwtTokenService implements TokenService {
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  /**
   * A KeyObject, not the string: given a string, jsonwebtoken first tries it as a PEM public key and
   * throws internally on every verify, which costs about 0.4 ms per authenticated request.
   */
  readonly #secret: KeyObject;
  readonly #issuer: string;
  readonly #audience: string;
  readonly #clock: Clock;
  /** Access tokens already verified, with their claims and expiry (seconds), oldest first. */
  readonly #verified = new Map<string, { claims: AccessClaims; exp: number }>();

  constructor(options: JwtTokenServiceOptions) {
    // Never echo the value: a near-miss secret is still a secret.
    if (typeof options.secret !== 'string' || options.secret.length < 32) throw new Error('JWT_SECRET must be at least 32 characters');
    this.#secret = createSecretKey(Buffer.from(options.secret, 'utf8'));
    this.#issuer = options.issuer ?? DEFAULT_ISSUER;
    this.#audience = options.audience ?? DEFAULT_AUDIENCE;
    this.#clock = options.clock ?? systemClock;
    this.accessTokenTtlSeconds = positiveSeconds('accessTtlSeconds', options.accessTtlSeconds ?? 15 * 60);
    this.refreshTokenTtlSeconds = positiveSeconds('refreshTtlSeconds', options.refreshTtlSeconds ?? 30 * 24 * 60 * 60);
  }

  issueAccessToken(claims: AccessClaims): string {
    return this.sign('access', claims.userId, newId(), this.accessTokenTtlSeconds, { role: claims.role }).token;
  }

  issueRefreshToken(claims: { userId: string; tokenId: string; familyId: string }): { token: string; expiresAt: Date } {
    return this.sign('refresh', claims.userId, claims.tokenId, this.refreshTokenTtlSeconds, { fam: claims.familyId });
  }

  /**
   * Every authenticated request verifies its token, and a client sends the same one for its whole
   * lifetime: what a token says never changes, so once verified it is remembered until it expires (the
   * expiry is checked on every use, against the clock). A token that fails is never remembered.
   */
  verifyAccessToken(token: string): AccessClaims {
    const known = this.#verified.get(token);
    if (known) {
      if (known.exp > this.#clock.now().getTime() / 1000) return known.claims;
      this.#verified.delete(token);
    }
    const payload = this.verify(token, 'access');
    const role = payload.role;
    if (!isRole(role)) throw new UnauthorizedError(INVALID);
    const claims: AccessClaims = Object.freeze({ userId: payload.sub, role });
    if (this.#verified.size >= VERIFIED_MAX) this.#verified.delete(this.#verified.keys().next().value!);
    this.#verified.set(token, { claims, exp: payload.exp });
    return claims;
  }

  verifyRefreshToken(token: string): RefreshClaims {
    const payload = this.verify(token, 'refresh');
    if (!nonEmpty(payload.jti) || !nonEmpty(payload.fam)) throw new UnauthorizedError(INVALID);
    return { userId: payload.sub, tokenId: payload.jti, familyId: payload.fam, expiresAt: new Date(payload.exp * 1000) };
  }

  private sign(typ: TokenType, userId: string, jti: string, ttl: number, extra: Record<string, string>): { token: string; expiresAt: Date } {
    const iat = Math.floor(this.#clock.now().getTime() / 1000);
    const exp = iat + ttl;
    const payload = { ...extra, typ, sub: userId, jti, iss: this.#issuer, aud: this.#audience, iat, exp };
    return { token: jwt.sign(payload, this.#secret, { algorithm: ALGORITHM }), expiresAt: new Date(exp * 1000) };
  }

  /**
   * Signature, algorithm, issuer, audience, expiry and kind; every failure is the same 401, except an access
   * token that passes everything but its expiry, which says it expired and points to the refresh.
   */
  private verify(token: string, typ: TokenType): Record<string, unknown> & { sub: string; exp: number } {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new UnauthorizedError(INVALID);
    let claims: Record<string, unknown> & { sub: string; exp: number };
    try {
      claims = this.genuine(token, typ, false);
    } catch (error) {
      if (typ === 'access' && error instanceof jwt.TokenExpiredError && this.isGenuineIgnoringExpiry(token)) throw new UnauthorizedError(EXPIRED_ACCESS);
      throw new UnauthorizedError(INVALID);
    }
    return claims;
  }

  private genuine(token: string, typ: TokenType, ignoreExpiration: boolean): Record<string, unknown> & { sub: string; exp: number } {
    const payload: unknown = jwt.verify(token, this.#secret, {
      algorithms: [ALGORITHM],
      issuer: this.#issuer,
      audience: this.#audience,
      clockTimestamp: Math.floor(this.#clock.now().getTime() / 1000),
      ignoreExpiration,
    });
    if (typeof payload !== 'object' || payload === null) throw new UnauthorizedError(INVALID);
    const claims = payload as Record<string, unknown>;
    // jsonwebtoken accepts a token without `exp`; ours always carry one.
    if (claims.typ !== typ || !nonEmpty(claims.sub) || typeof claims.exp !== 'number') throw new UnauthorizedError(INVALID);
    return claims as Record<string, unknown> & { sub: string; exp: number };
  }

  /** jsonwebtoken checks the expiry before the issuer and audience: the rest is checked again without it. */
  private isGenuineIgnoringExpiry(token: string): boolean {
    try {
      return isRole(this.genuine(token, 'access', true).role);
    } catch {
      return false;
    }
  }
}

function positiveSeconds(name: string, value: number): number {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number of seconds`);
  return value;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

const isRole = (value: unknown): value is PlatformRole => PLATFORM_ROLES.includes(value as PlatformRole);

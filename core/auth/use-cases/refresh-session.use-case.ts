import * as yup from 'yup';
import { UnauthorizedError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { issueSession, type SessionDeps } from './issue-session';

const schema = yup.object({ refresh_token: str().required('refresh_token is required').max(4096) });

/**
 * How long a browser's spent refresh cookie still rotates: a reload that cut off the refresh before its new cookie
 * arrived, or several tabs starting at once with the same cookie. Later reuse is treated as a leak.
 */
export const COOKIE_REUSE_GRACE_MS = 30_000;

/**
 * Trades a refresh token for a new pair. Each token works once: presenting a spent one means it
 * leaked, so the whole family (every token descended from the same login) is revoked.
 * The one exception is the console's cookie (`channel: 'cookie'`): a browser cannot keep a rotation's answer from
 * being lost to a reload, nor two tabs from sending the same cookie, so a cookie spent less than
 * {@link COOKIE_REUSE_GRACE_MS} ago gets a new pair in the same family instead.
 */
export class RefreshSessionUseCase {
  constructor(private readonly deps: SessionDeps & { users: UserRepository }) {}

  async execute(input: unknown, channel: 'bearer' | 'cookie' = 'bearer'): Promise<{ access_token: string; refresh_token: string }> {
    const { refresh_token } = await validate(schema, input);
    const claims = this.deps.tokens.verifyRefreshToken(refresh_token);
    const now = this.deps.clock.now();
    const record = await this.deps.refreshTokens.findById(claims.tokenId);
    if (!record || record.userId !== claims.userId || record.revokedAt || record.expiresAt <= now) {
      throw new UnauthorizedError('Invalid or expired token');
    }
    if (!(await this.deps.refreshTokens.markUsed(record.id, now)) && !(channel === 'cookie' && (await this.justRotated(record.id, now)))) {
      await this.deps.refreshTokens.revokeFamily(record.familyId, now);
      throw new UnauthorizedError('Refresh token was already used; please sign in again');
    }
    const user = await this.deps.users.findById(record.userId);
    if (!user || user.disabled) throw new UnauthorizedError('Invalid or expired token');
    const session = await issueSession(this.deps, user, record.familyId);
    return { access_token: session.access_token, refresh_token: session.refresh_token };
  }

  /** Whether the token was spent within the cookie's grace and its family still stands. */
  private async justRotated(id: string, now: Date): Promise<boolean> {
    const spent = await this.deps.refreshTokens.findById(id);
    return !!spent?.usedAt && !spent.revokedAt && now.getTime() - spent.usedAt.getTime() <= COOKIE_REUSE_GRACE_MS;
  }
}

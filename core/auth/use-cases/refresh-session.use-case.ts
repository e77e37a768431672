import * as yup from 'yup';
import { UnauthorizedError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { issueSession, type SessionDeps } from './issue-session';

const schema = yup.object({ refresh_token: str().required('refresh_token is required').max(4096) });

/**
 * Trades a refresh token for a new pair. Each token works once: presenting a spent one means it
 * leaked, so the whole family (every token descended from the same login) is revoked.
 */
export class RefreshSessionUseCase {
  constructor(private readonly deps: SessionDeps & { users: UserRepository }) {}

  async execute(input: unknown): Promise<{ access_token: string; refresh_token: string }> {
    const { refresh_token } = await validate(schema, input);
    const claims = this.deps.tokens.verifyRefreshToken(refresh_token);
    const now = this.deps.clock.now();
    const record = await this.deps.refreshTokens.findById(claims.tokenId);
    if (!record || record.userId !== claims.userId || record.revokedAt || record.expiresAt <= now) {
      throw new UnauthorizedError('Invalid or expired token');
    }
    if (!(await this.deps.refreshTokens.markUsed(record.id, now))) {
      await this.deps.refreshTokens.revokeFamily(record.familyId, now);
      throw new UnauthorizedError('Refresh token was already used; please sign in again');
    }
    const user = await this.deps.users.findById(record.userId);
    if (!user || user.disabled) throw new UnauthorizedError('Invalid or expired token');
    const session = await issueSession(this.deps, user, record.familyId);
    return { access_token: session.access_token, refresh_token: session.refresh_token };
  }
}

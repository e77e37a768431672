import * as yup from 'yup';
import { str, validate } from '../../shared/validation';
import type { SessionDeps } from './issue-session';

const schema = yup.object({ refresh_token: str().required('refresh_token is required').max(4096) });

/**
 * Signs a session out: the whole family of the presented refresh token (every token descended from the
 * same sign-in) is revoked, so neither it nor any earlier token of the family refreshes again. A token
 * that is not genuine revokes nothing; signing out stays idempotent.
 */
export class SignOutUseCase {
  constructor(private readonly deps: Pick<SessionDeps, 'refreshTokens' | 'tokens' | 'clock'>) {}

  async execute(input: unknown): Promise<{ signedOut: boolean }> {
    const { refresh_token } = await validate(schema, input);
    let tokenId: string;
    try {
      tokenId = this.deps.tokens.verifyRefreshToken(refresh_token).tokenId;
    } catch {
      return { signedOut: false };
    }
    const record = await this.deps.refreshTokens.findById(tokenId);
    if (!record) return { signedOut: false };
    await this.deps.refreshTokens.revokeFamily(record.familyId, this.deps.clock.now());
    return { signedOut: true };
  }
}

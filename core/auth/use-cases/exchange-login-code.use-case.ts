import * as yup from 'yup';
import { UnauthorizedError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import type { UserRepository } from '../../users/ports/user-repository.port';
import type { LoginFlowStore } from '../ports/login-flow-store.port';
import { issueSession, type Session, type SessionDeps } from './issue-session';

const schema = yup.object({ code: str().required('code is required').max(128, 'code is too long') });

/** Trades the one-time code of an OAuth or SSO login for tokens, once, within a minute. */
export class ExchangeLoginCodeUseCase {
  constructor(private readonly deps: SessionDeps & { users: UserRepository; flows: LoginFlowStore }) {}

  async execute(input: unknown): Promise<Session> {
    const { code } = await validate(schema, input);
    const kept = await this.deps.flows.take(`code:${code}`, this.deps.clock.now());
    const user = kept && typeof kept.userId === 'string' ? await this.deps.users.findById(kept.userId) : null;
    if (!user || user.disabled) throw new UnauthorizedError('The sign-in code is unknown, expired or already used');
    return issueSession(this.deps, user);
  }
}

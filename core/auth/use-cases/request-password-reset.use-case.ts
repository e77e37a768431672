import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import type { Clock } from '../../shared/clock.port';
import type { KeyHasher } from '../../shared/key-hasher.port';
import { str, validate } from '../../shared/validation';
import { normalizeEmail } from '../../users/domain/user';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { brandMail } from '../domain/branded-mail';
import type { MailBranding } from '../ports/mail-branding.port';
import type { Mailer } from '../ports/mailer.port';
import type { PasswordResetRepository } from '../ports/password-reset-repository.port';

const schema = yup.object({
  email: str().required('email is required').max(254, 'email is too long'),
  /** An application of the account whose e-mail branding the mail carries (ignored unless the account owns it). */
  applicationId: str().max(100, 'applicationId is too long'),
});
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const ANSWER = { message: 'If an account exists for that e-mail, a reset link has been sent.' } as const;

/**
 * Mails a single-use reset token (stored hashed, valid one hour). Answers the same whether or not the account exists.
 * With `applicationId` of an application the account owns, the mail carries that application's e-mail branding.
 */
export class RequestPasswordResetUseCase {
  constructor(
    private readonly deps: {
      users: UserRepository;
      resets: PasswordResetRepository;
      keyHasher: KeyHasher;
      mailer: Mailer;
      clock: Clock;
      /** The console's absolute address (PUBLIC_BASE_URL, else where the platform listens). */
      consoleUrl: string;
      branding?: MailBranding;
    },
  ) {}

  async execute(input: unknown): Promise<typeof ANSWER> {
    const { email, applicationId } = await validate(schema, input);
    const user = await this.deps.users.findByEmail(normalizeEmail(email));
    if (!user || user.disabled) return ANSWER;
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.deps.clock.now().getTime() + RESET_TOKEN_TTL_MS);
    await this.deps.resets.create({ tokenHash: this.deps.keyHasher.hash(token), userId: user.id, expiresAt });
    const branding = applicationId && this.deps.branding ? await this.deps.branding.forUser(user.id, applicationId) : null;
    // The console's page, not the token in a URL (which browser history and referrers keep): the token is pasted there.
    await this.deps.mailer.send(brandMail({
      to: user.email,
      subject: 'Reset your password',
      text: [
        `Hello ${user.displayName},`,
        '',
        'Someone asked to reset the password of your account. If it was you, open this page within the hour:',
        '',
        `${this.deps.consoleUrl}/reset-password`,
        '',
        'and enter this reset token there with your new password:',
        '',
        token,
        '',
        'If it was not you, ignore this message; your password has not changed.',
      ].join('\n'),
    }, branding));
    return ANSWER;
  }
}

import { randomBytes } from 'node:crypto';
import { Argon2PasswordHasher } from '../../../adapters/crypto/argon2.password-hasher';
import { JwtTokenService } from '../../../adapters/crypto/jwt.token-service';
import { Sha256KeyHasher } from '../../../adapters/crypto/sha256.key-hasher';
import { InMemoryPasswordResetRepository } from '../../../adapters/persistence/in-memory/in-memory-password-reset.repository';
import { InMemoryRefreshTokenRepository } from '../../../adapters/persistence/in-memory/in-memory-refresh-token.repository';
import { InMemoryUserRepository } from '../../../adapters/persistence/in-memory/in-memory-user.repository';
import { FlexibleRateLimiter } from '../../../adapters/rate-limit/flexible.rate-limiter';
import type { MailMessage } from '../../../core/auth/ports/mailer.port';
import { AuthenticateUseCase } from '../../../core/auth/use-cases/authenticate.use-case';
import { ConfirmPasswordResetUseCase } from '../../../core/auth/use-cases/confirm-password-reset.use-case';
import { LoginUseCase } from '../../../core/auth/use-cases/login.use-case';
import { COOKIE_REUSE_GRACE_MS, RefreshSessionUseCase } from '../../../core/auth/use-cases/refresh-session.use-case';
import { RegisterUseCase } from '../../../core/auth/use-cases/register.use-case';
import { RequestPasswordResetUseCase, RESET_TOKEN_TTL_MS } from '../../../core/auth/use-cases/request-password-reset.use-case';
import { ConflictError, RateLimitedError, UnauthorizedError, ValidationError } from '../../../core/shared/errors';

/** The auth use cases on in-memory adapters, with a clock the test moves. */
function aSystem() {
  let now = new Date('2026-01-01T00:00:00Z');
  const clock = { now: () => now };
  const mails: MailMessage[] = [];
  const deps = {
    users: new InMemoryUserRepository(),
    refreshTokens: new InMemoryRefreshTokenRepository(),
    resets: new InMemoryPasswordResetRepository(),
    hasher: new Argon2PasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }),
    tokens: new JwtTokenService({ secret: randomBytes(32).toString('hex') }),
    keyHasher: new Sha256KeyHasher(),
    mailer: { send: async (m: MailMessage) => void mails.push(m) },
    limiter: new FlexibleRateLimiter(),
    clock,
    adminEmails: ['admin@example.com'],
    consoleUrl: 'https://console.example.com',
  };
  return {
    deps,
    mails,
    advance: (ms: number) => (now = new Date(now.getTime() + ms)),
    register: new RegisterUseCase(deps),
    login: new LoginUseCase(deps),
    refresh: new RefreshSessionUseCase(deps),
    authenticate: new AuthenticateUseCase(deps),
    requestReset: new RequestPasswordResetUseCase(deps),
    confirmReset: new ConfirmPasswordResetUseCase(deps),
  };
}

const aRegistration = (email = 'ann@example.com') => ({ email, password: 'long password', displayName: 'Ann' });

describe('sessions', () => {
  it('stores a hash, never the password, and normalises the e-mail', async () => {
    const s = aSystem();
    const session = await s.register.execute(aRegistration('Ann@Example.COM'));
    const stored = await s.deps.users.findById(session.user.id);
    expect(stored!.email).toBe('ann@example.com');
    expect(stored!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(session)).not.toContain('argon2');
  });

  it('refuses a second account with the same e-mail', async () => {
    const s = aSystem();
    await s.register.execute(aRegistration());
    await expect(s.register.execute(aRegistration('ANN@example.com'))).rejects.toBeInstanceOf(ConflictError);
  });

  it('refuses numbers sent as strings and strings sent as numbers', async () => {
    const s = aSystem();
    await expect(s.register.execute({ ...aRegistration(), displayName: 12 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('authenticates the access token as the user with their effective role', async () => {
    const s = aSystem();
    const admin = await s.register.execute(aRegistration('admin@example.com'));
    expect(await s.authenticate.execute(admin.access_token)).toEqual({ userId: admin.user.id, role: 'admin' });
  });

  it('stops authenticating a deleted account', async () => {
    const s = aSystem();
    const session = await s.register.execute(aRegistration());
    await s.deps.users.delete(session.user.id);
    await expect(s.authenticate.execute(session.access_token)).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('rotates refresh tokens within one family and revokes it on reuse', async () => {
    const s = aSystem();
    const session = await s.register.execute(aRegistration());
    const next = await s.refresh.execute({ refresh_token: session.refresh_token });
    await expect(s.refresh.execute({ refresh_token: session.refresh_token })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(s.refresh.execute({ refresh_token: next.refresh_token })).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('rotates a spent cookie within the grace (reload, second tab), and treats later reuse as a leak', async () => {
    const s = aSystem();
    const session = await s.register.execute(aRegistration());
    const first = await s.refresh.execute({ refresh_token: session.refresh_token }, 'cookie');
    s.advance(COOKIE_REUSE_GRACE_MS);
    const raced = await s.refresh.execute({ refresh_token: session.refresh_token }, 'cookie');
    expect(raced.refresh_token).not.toBe(first.refresh_token);
    await s.refresh.execute({ refresh_token: first.refresh_token }, 'cookie');
    s.advance(1);
    await expect(s.refresh.execute({ refresh_token: session.refresh_token }, 'cookie')).rejects.toThrow('already used');
    // The late reuse revoked the family: no token of it rotates any more, cookie or not.
    await expect(s.refresh.execute({ refresh_token: raced.refresh_token }, 'cookie')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('gives a body token no grace: its reuse revokes the family at once', async () => {
    const s = aSystem();
    const session = await s.register.execute(aRegistration());
    const next = await s.refresh.execute({ refresh_token: session.refresh_token });
    await expect(s.refresh.execute({ refresh_token: session.refresh_token })).rejects.toThrow('already used');
    await expect(s.refresh.execute({ refresh_token: next.refresh_token }, 'cookie')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('counts failed logins per e-mail and clears them after a success', async () => {
    const s = aSystem();
    await s.register.execute(aRegistration());
    for (let i = 0; i < 4; i++) await expect(s.login.execute({ email: 'ann@example.com', password: 'wrong' })).rejects.toBeInstanceOf(UnauthorizedError);
    await s.login.execute({ email: 'ann@example.com', password: 'long password' });
    for (let i = 0; i < 5; i++) await expect(s.login.execute({ email: 'ann@example.com', password: 'wrong' })).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(s.login.execute({ email: 'ann@example.com', password: 'long password' })).rejects.toBeInstanceOf(RateLimitedError);
  });

  it('lets a reset token work once and only within the hour', async () => {
    const s = aSystem();
    await s.register.execute(aRegistration());
    await s.requestReset.execute({ email: 'ann@example.com' });
    const token = /^([A-Za-z0-9_-]{43})$/m.exec(s.mails[0]!.text)![1]!;
    expect([...s.deps.resets.tokens.keys()]).not.toContain(token);
    s.advance(RESET_TOKEN_TTL_MS + 1);
    await expect(s.confirmReset.execute({ token, password: 'new password!' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('sends nothing for an unknown e-mail but answers the same', async () => {
    const s = aSystem();
    await s.register.execute(aRegistration());
    const known = await s.requestReset.execute({ email: 'ann@example.com' });
    const unknown = await s.requestReset.execute({ email: 'bob@example.com' });
    expect(known).toEqual(unknown);
    expect(s.mails).toHaveLength(1);
  });
});

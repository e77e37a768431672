import { createHmac, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { JwtTokenService } from '../../../adapters/crypto/jwt.token-service';
import type { Clock } from '../../../core/shared/clock.port';
import { UnauthorizedError } from '../../../core/shared/errors';

const SECRET = randomBytes(32).toString('hex');
const T0 = new Date('2030-01-01T00:00:00Z');

function movableClock(start = T0): Clock & { advanceSeconds(s: number): void } {
  let now = start.getTime();
  return { now: () => new Date(now), advanceSeconds: (s) => void (now += s * 1000) };
}

const b64 = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token built by hand, so the header can say anything. */
function handMade(header: object, payload: object, sign: (input: string) => string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
}

const EXPIRED = 'The access token has expired; get a new one from POST /api/auth/refresh with your refresh token';

function expectRefused(verify: () => unknown, message = 'Invalid or expired token'): void {
  let thrown: unknown;
  try {
    verify();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(UnauthorizedError);
  expect((thrown as Error).message).toBe(message);
}

describe('JwtTokenService', () => {
  const clock = movableClock();
  const tokens = new JwtTokenService({ secret: SECRET, clock });
  const refreshClaims = { userId: 'user-1', tokenId: 'token-1', familyId: 'family-1' };
  const nowSeconds = (): number => Math.floor(clock.now().getTime() / 1000);

  it('round-trips access claims, with a 15-minute default lifetime', () => {
    const token = tokens.issueAccessToken({ userId: 'user-1', role: 'developer' });
    expect(tokens.verifyAccessToken(token)).toEqual({ userId: 'user-1', role: 'developer' });
    expect(tokens.accessTokenTtlSeconds).toBe(900);
    const decoded = jwt.decode(token, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
    expect(decoded.payload).toMatchObject({ sub: 'user-1', role: 'developer', typ: 'access', iss: expect.any(String), aud: expect.any(String) });
    expect((decoded.payload as jwt.JwtPayload).exp! - (decoded.payload as jwt.JwtPayload).iat!).toBe(900);
  });

  it('round-trips refresh claims and reports the expiry written in the token (30 days by default)', () => {
    const { token, expiresAt } = tokens.issueRefreshToken(refreshClaims);
    expect(expiresAt).toEqual(new Date(T0.getTime() + 30 * 24 * 3600 * 1000));
    expect(tokens.verifyRefreshToken(token)).toEqual({ ...refreshClaims, expiresAt });
    expect(jwt.decode(token)).toMatchObject({ sub: 'user-1', jti: 'token-1', fam: 'family-1', typ: 'refresh' });
  });

  it('gives every access token its own id', () => {
    const a = jwt.decode(tokens.issueAccessToken({ userId: 'u', role: 'user' })) as jwt.JwtPayload;
    const b = jwt.decode(tokens.issueAccessToken({ userId: 'u', role: 'user' })) as jwt.JwtPayload;
    expect(a.jti).toEqual(expect.any(String));
    expect(a.jti).not.toBe(b.jti);
  });

  it('refuses a refresh token as an access token and an access token as a refresh token', () => {
    const access = tokens.issueAccessToken({ userId: 'user-1', role: 'admin' });
    const { token: refresh } = tokens.issueRefreshToken(refreshClaims);
    expectRefused(() => tokens.verifyAccessToken(refresh));
    expectRefused(() => tokens.verifyRefreshToken(access));
  });

  it('refuses tokens once they expire, and accepts them up to then', () => {
    const local = movableClock();
    const service = new JwtTokenService({ secret: SECRET, clock: local, accessTtlSeconds: 60, refreshTtlSeconds: 120 });
    const access = service.issueAccessToken({ userId: 'user-1', role: 'user' });
    const { token: refresh } = service.issueRefreshToken(refreshClaims);
    local.advanceSeconds(59);
    expect(service.verifyAccessToken(access).userId).toBe('user-1');
    local.advanceSeconds(1);
    // An expired access token says so and names the refresh; one remembered as verified too.
    expectRefused(() => service.verifyAccessToken(access), EXPIRED);
    expect(service.verifyRefreshToken(refresh).tokenId).toBe('token-1');
    local.advanceSeconds(60);
    expectRefused(() => service.verifyRefreshToken(refresh));
    // An expired refresh token presented as an access token is no access token: the generic answer.
    expectRefused(() => service.verifyAccessToken(refresh));
  });

  it('says an access token expired only when it is otherwise genuine (ours, of our issuer and audience)', () => {
    const decoded = jwt.decode(tokens.issueAccessToken({ userId: 'user-1', role: 'user' })) as jwt.JwtPayload;
    const past = { iat: nowSeconds() - 3600, exp: nowSeconds() - 1800 };
    expectRefused(() => tokens.verifyAccessToken(jwt.sign({ ...decoded, ...past }, SECRET, { algorithm: 'HS256' })), EXPIRED);
    expectRefused(() => tokens.verifyAccessToken(jwt.sign({ ...decoded, ...past }, 'another-secret-another-secret-1234', { algorithm: 'HS256' })));
    expectRefused(() => tokens.verifyAccessToken(jwt.sign({ ...decoded, ...past, aud: 'someone-else' }, SECRET, { algorithm: 'HS256' })));
    expectRefused(() => tokens.verifyAccessToken(jwt.sign({ ...decoded, ...past, iss: 'someone-else' }, SECRET, { algorithm: 'HS256' })));
    expectRefused(() => tokens.verifyAccessToken(jwt.sign({ ...decoded, ...past, role: 'emperor' }, SECRET, { algorithm: 'HS256' })));
    expectRefused(() => tokens.verifyAccessToken('abc.def.ghi'));
  });

  it('answers a token it verified before from memory, and still refuses its forgeries and its kind swap', () => {
    const access = tokens.issueAccessToken({ userId: 'user-1', role: 'admin' });
    const first = tokens.verifyAccessToken(access);
    expect(tokens.verifyAccessToken(access)).toEqual(first);
    const [header, payload] = access.split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), role: 'admin', sub: 'user-2' })).toString('base64url')}.${access.split('.')[2]}`;
    expectRefused(() => tokens.verifyAccessToken(forged));
    expectRefused(() => tokens.verifyRefreshToken(access));
  });

  it('refuses a token re-signed by hand with an expiry in the past', () => {
    const decoded = jwt.decode(tokens.issueAccessToken({ userId: 'user-1', role: 'user' })) as jwt.JwtPayload;
    const expired = jwt.sign({ ...decoded, iat: 1, exp: 2 }, SECRET, { algorithm: 'HS256' });
    expectRefused(() => tokens.verifyAccessToken(expired), EXPIRED);
  });

  it('refuses a token signed with another secret', () => {
    const decoded = jwt.decode(tokens.issueAccessToken({ userId: 'user-1', role: 'user' })) as jwt.JwtPayload;
    const forged = jwt.sign({ ...decoded, role: 'admin' }, randomBytes(32).toString('hex'), { algorithm: 'HS256' });
    expectRefused(() => tokens.verifyAccessToken(forged));
  });

  it('refuses a genuine token whose payload was edited', () => {
    const [header, , signature] = tokens.issueAccessToken({ userId: 'user-1', role: 'user' }).split('.');
    const payload = { sub: 'user-1', role: 'admin', typ: 'access', iss: 'ai-app-platform', aud: 'ai-app-platform:api', iat: nowSeconds(), exp: nowSeconds() + 900 };
    expectRefused(() => tokens.verifyAccessToken(`${header}.${b64(payload)}.${signature}`));
  });

  it('refuses an alg:none token built by hand', () => {
    const genuine = jwt.decode(tokens.issueAccessToken({ userId: 'user-1', role: 'user' })) as jwt.JwtPayload;
    const unsigned = handMade({ alg: 'none', typ: 'JWT' }, { ...genuine, role: 'admin' }, () => '');
    expectRefused(() => tokens.verifyAccessToken(unsigned));
  });

  it('refuses an HS512 token, even one signed with the right secret', () => {
    const genuine = jwt.decode(tokens.issueAccessToken({ userId: 'user-1', role: 'user' })) as jwt.JwtPayload;
    const hs512 = jwt.sign(genuine, SECRET, { algorithm: 'HS512' });
    expectRefused(() => tokens.verifyAccessToken(hs512));
    const byHand = handMade({ alg: 'HS512', typ: 'JWT' }, genuine, (input) => createHmac('sha512', SECRET).update(input).digest('base64url'));
    expectRefused(() => tokens.verifyAccessToken(byHand));
  });

  it('refuses a token from another issuer or for another audience', () => {
    const otherIssuer = new JwtTokenService({ secret: SECRET, clock, issuer: 'someone-else' });
    const otherAudience = new JwtTokenService({ secret: SECRET, clock, audience: 'another-api' });
    expectRefused(() => tokens.verifyAccessToken(otherIssuer.issueAccessToken({ userId: 'user-1', role: 'user' })));
    expectRefused(() => tokens.verifyAccessToken(otherAudience.issueAccessToken({ userId: 'user-1', role: 'user' })));
    expectRefused(() => tokens.verifyRefreshToken(otherIssuer.issueRefreshToken(refreshClaims).token));
  });

  it('refuses correctly signed tokens that lack what ours always carry', () => {
    const base = { iss: 'ai-app-platform', aud: 'ai-app-platform:api', iat: nowSeconds(), exp: nowSeconds() + 60 };
    const sign = (payload: object): string => jwt.sign(payload, SECRET, { algorithm: 'HS256' });
    expectRefused(() => tokens.verifyAccessToken(sign({ ...base, sub: 'user-1', typ: 'access', role: 'superuser' })));
    expectRefused(() => tokens.verifyAccessToken(sign({ ...base, typ: 'access', role: 'user' })));
    expectRefused(() => tokens.verifyAccessToken(sign({ ...base, sub: 'user-1', role: 'user' })));
    const { exp: _exp, ...noExpiry } = base;
    expectRefused(() => tokens.verifyAccessToken(sign({ ...noExpiry, sub: 'user-1', typ: 'access', role: 'user' })));
    expectRefused(() => tokens.verifyRefreshToken(sign({ ...base, sub: 'user-1', typ: 'refresh', jti: 'token-1' })));
  });

  it.each(['', 'garbage', 'abc.def.ghi', 'a.b', 'x'.repeat(10_000)])('refuses the malformed token %j', (token) => {
    expectRefused(() => tokens.verifyAccessToken(token));
    expectRefused(() => tokens.verifyRefreshToken(token));
  });

  it('refuses a short secret or a bad lifetime, without echoing the secret', () => {
    expect(() => new JwtTokenService({ secret: 'short-secret' })).toThrow('JWT_SECRET must be at least 32 characters');
    expect(() => new JwtTokenService({ secret: SECRET, accessTtlSeconds: 0 })).toThrow(/accessTtlSeconds/);
    expect(() => new JwtTokenService({ secret: SECRET, refreshTtlSeconds: -5 })).toThrow(/refreshTtlSeconds/);
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';

/**
 * What the fake Google's token endpoint answers instead of a proper id token, once set: id tokens that fail
 * verification (expired, not yet valid, signed with another key, by a key the JWKS does not hold, with the
 * wrong audience, issuer or nonce), or a provider that is down or answers garbage.
 */
export type GoogleFault =
  | 'expired'
  | 'not-yet-valid'
  | 'bad-signature'
  | 'unknown-key'
  | 'wrong-audience'
  | 'wrong-issuer'
  | 'wrong-nonce'
  | 'server-error'
  | 'unavailable-json'
  | 'html'
  | 'no-access-token'
  | 'connection-reset';

/** A person as the fake provider knows them. */
export interface FakePerson {
  id: string;
  email: string;
  verified: boolean;
  name: string;
}

interface IssuedCode {
  person: FakePerson;
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce?: string;
  used: boolean;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * Local stand-ins for GitHub's OAuth endpoints and REST API and for Google's OpenID Connect endpoints, on one
 * port: codes are single-use, PKCE is checked (S256), Google's id tokens are signed with a key made here.
 * The browser's visit to the authorization page is `authorize(url, person)`, which answers the code.
 */
export class FakeOAuthProviders {
  private server!: Server;
  private readonly codes = new Map<string, IssuedCode>();
  private readonly tokens = new Map<string, FakePerson>();
  private key!: { privateKey: CryptoKey; jwk: Record<string, unknown> };
  /** A key the JWKS does not publish, for forged id tokens. */
  private otherKey!: CryptoKey;
  /** How the next Google token requests fail (undefined: they succeed). */
  googleFault?: GoogleFault;
  url = '';
  readonly clients = { github: { id: 'gh-client', secret: 'gh-secret' }, google: { id: 'google-client', secret: 'google-secret' } };

  static async start(): Promise<FakeOAuthProviders> {
    const fake = new FakeOAuthProviders();
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    fake.key = { privateKey, jwk: { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' } };
    fake.otherKey = (await generateKeyPair('RS256')).privateKey;
    fake.server = createServer((req, res) => {
      void fake.handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  get env(): Record<string, string> {
    return {
      GITHUB_CLIENT_ID: this.clients.github.id,
      GITHUB_CLIENT_SECRET: this.clients.github.secret,
      GITHUB_BASE_URL: `${this.url}/github`,
      GITHUB_API_URL: `${this.url}/github-api`,
      GOOGLE_CLIENT_ID: this.clients.google.id,
      GOOGLE_CLIENT_SECRET: this.clients.google.secret,
      GOOGLE_ISSUER_URL: `${this.url}/google`,
    };
  }

  /** The person signs in at the provider's authorization page: a code for the redirect, checked later. */
  authorize(authorizationUrl: string, person: FakePerson): string {
    const url = new URL(authorizationUrl);
    if (url.searchParams.get('code_challenge_method') !== 'S256') throw new Error('the platform sent no S256 PKCE challenge');
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      person,
      clientId: url.searchParams.get('client_id') ?? '',
      redirectUri: url.searchParams.get('redirect_uri') ?? '',
      challenge: url.searchParams.get('code_challenge') ?? '',
      nonce: url.searchParams.get('nonce') ?? undefined,
      used: false,
    });
    return code;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const google = `${this.url}/google`;
    switch (`${req.method} ${url.pathname}`) {
      case 'GET /google/.well-known/openid-configuration':
        return json(res, 200, {
          issuer: google,
          authorization_endpoint: `${google}/authorize`,
          token_endpoint: `${google}/token`,
          userinfo_endpoint: `${google}/userinfo`,
          jwks_uri: `${google}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        });
      case 'GET /google/jwks':
        return json(res, 200, { keys: [this.key.jwk] });
      case 'POST /google/token': {
        const grant = this.redeem(req, new URLSearchParams(await readBody(req)), 'google');
        const fault = this.googleFault;
        if (fault === 'connection-reset') return void req.socket.destroy();
        if (fault === 'server-error') return json(res, 500, { message: 'internal error' });
        if (fault === 'unavailable-json') return json(res, 503, { error: 'temporarily_unavailable' });
        if (fault === 'html') {
          res.writeHead(200, { 'Content-Type': 'text/html' });
          return void res.end('<html><body>Sign-in is down for maintenance</body></html>');
        }
        if (typeof grant === 'string') return json(res, 400, { error: 'invalid_grant', error_description: grant });
        if (fault === 'no-access-token') return json(res, 200, { token_type: 'Bearer', expires_in: 3600 });
        const now = Math.floor(Date.now() / 1000);
        const idToken = await new SignJWT({
          email: grant.person.email,
          email_verified: grant.person.verified,
          name: grant.person.name,
          nonce: fault === 'wrong-nonce' ? 'another-nonce' : grant.nonce,
          ...(fault === 'not-yet-valid' ? { nbf: now + 600 } : {}),
        })
          .setProtectedHeader({ alg: 'RS256', kid: fault === 'unknown-key' ? 'k2' : 'k1' })
          .setIssuer(fault === 'wrong-issuer' ? `${this.url}/elsewhere` : google)
          .setAudience(fault === 'wrong-audience' ? 'another-client' : this.clients.google.id)
          .setSubject(grant.person.id)
          .setIssuedAt(fault === 'expired' ? now - 3600 : now)
          .setExpirationTime(fault === 'expired' ? now - 1800 : now + 300)
          .sign(fault === 'bad-signature' || fault === 'unknown-key' ? this.otherKey : this.key.privateKey);
        return json(res, 200, { access_token: this.token(grant.person), token_type: 'Bearer', expires_in: 3600, id_token: idToken });
      }
      case 'POST /github/login/oauth/access_token': {
        const grant = this.redeem(req, new URLSearchParams(await readBody(req)), 'github');
        // GitHub answers a bad or used code with 200 and an error field.
        if (typeof grant === 'string') return json(res, 200, { error: 'bad_verification_code', error_description: grant });
        return json(res, 200, { access_token: this.token(grant.person), token_type: 'bearer', scope: 'read:user,user:email' });
      }
      case 'GET /github-api/user': {
        const person = this.bearer(req);
        if (!person) return json(res, 401, { message: 'Bad credentials' });
        return json(res, 200, { id: Number(person.id), login: person.name.toLowerCase().replace(/\s+/g, ''), name: person.name, email: null });
      }
      case 'GET /github-api/user/emails': {
        const person = this.bearer(req);
        if (!person) return json(res, 401, { message: 'Bad credentials' });
        return json(res, 200, [
          { email: person.email, primary: true, verified: person.verified, visibility: 'private' },
          { email: `${person.id}+noreply@users.noreply.github.com`, primary: false, verified: true, visibility: null },
        ]);
      }
      default:
        return json(res, 404, { error: 'not_found' });
    }
  }

  /** Checks a token request: client credentials, a known unused code, its redirect URI and PKCE verifier. */
  private redeem(req: IncomingMessage, form: URLSearchParams, provider: 'github' | 'google'): IssuedCode | string {
    const client = this.clients[provider];
    let id = form.get('client_id');
    let secret = form.get('client_secret');
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic) [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map(decodeURIComponent) as [string, string];
    if (id !== client.id || secret !== client.secret) return 'bad client credentials';
    const issued = this.codes.get(form.get('code') ?? '');
    if (!issued || issued.clientId !== client.id) return 'unknown code';
    if (issued.used) return 'code already used';
    issued.used = true;
    if (form.get('redirect_uri') !== issued.redirectUri) return 'redirect_uri mismatch';
    const verifier = form.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== issued.challenge) return 'PKCE verifier mismatch';
    return issued;
  }

  private token(person: FakePerson): string {
    const token = randomBytes(16).toString('hex');
    this.tokens.set(token, person);
    return token;
  }

  private bearer(req: IncomingMessage): FakePerson | undefined {
    const m = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '');
    return m ? this.tokens.get(m[1]!) : undefined;
  }
}

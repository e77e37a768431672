import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcPerson {
  sub: string;
  email: string;
  name: string;
  groups?: string[];
  emailVerified?: boolean;
}

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for tests: one confidential client, PKCE
 * required, and an interaction page that signs in whoever `signInAs` names and grants the requested scopes.
 */
export class TestOidcIdp {
  private server!: Server;
  private people = new Map<string, OidcPerson>();
  private next?: OidcPerson;
  issuer = '';
  readonly clientId = 'platform-sso';
  readonly clientSecret = randomBytes(24).toString('hex');

  static async start(redirectUri: string): Promise<TestOidcIdp> {
    const idp = new TestOidcIdp();
    idp.server = createServer();
    await new Promise<void>((resolve) => idp.server.listen(0, '127.0.0.1', resolve));
    idp.issuer = `http://127.0.0.1:${(idp.server.address() as AddressInfo).port}`;
    const provider = new Provider(idp.issuer, {
      clients: [{ client_id: idp.clientId, client_secret: idp.clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
      scopes: ['openid', 'email', 'profile', 'groups'],
      cookies: { keys: [randomBytes(16).toString('hex')] },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx: unknown, sub: string) => {
        const person = idp.people.get(sub);
        if (!person) return undefined;
        return {
          accountId: sub,
          claims: async () => ({ sub, email: person.email, email_verified: person.emailVerified ?? true, name: person.name, groups: person.groups ?? [] }),
        };
      },
    });
    const handle = provider.callback();
    idp.server.on('request', (req, res) => {
      if (!req.url?.startsWith('/interaction/')) return handle(req, res);
      void (async () => {
        const person = idp.next;
        if (!person) {
          res.statusCode = 403;
          res.end('nobody to sign in');
          return;
        }
        idp.people.set(person.sub, person);
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: person.sub, clientId: idp.clientId });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: person.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
    });
    return idp;
  }

  /** Who signs in at the next interaction. */
  signInAs(person: OidcPerson): void {
    this.next = person;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Follows redirects like a browser with cookies until a redirect leaves `host`: that location. */
export async function browseUntilLeaving(start: string, host: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hops = 0; hops < 10; hops++) {
    const res = await fetch(url, { redirect: 'manual', headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`the identity provider stopped at ${url} with ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.host !== host) return next.href;
    url = next.href;
  }
  throw new Error('too many redirects');
}

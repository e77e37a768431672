import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** An RSA key and a self-signed certificate for it, made at test time with the openssl binary. */
export function makeSigningKey(cn = 'Test IdP'): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'saml-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '30', '-subj', `/CN=${cn}`, '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], {
      stdio: 'ignore',
    });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface AuthnRequestSeen {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string;
}

export interface AssertionOptions {
  request: AuthnRequestSeen;
  nameId: string;
  attributes?: Record<string, string | string[]>;
  /** Defaults to the platform's entity id seen in the request. */
  audience?: string;
  recipient?: string;
  /** When the assertion stops being valid (default: in 5 minutes). */
  notOnOrAfter?: Date;
  /** Sign with this key instead of the IdP's own. */
  signingKey?: { key: string; cert: string };
  issuer?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A SAML identity provider's signing side: reads the platform's AuthnRequest and signs assertions with its key. */
export class TestSamlIdp {
  readonly entityId = 'https://idp.example.test/saml';
  readonly ssoUrl = 'https://idp.example.test/sso';
  readonly signing = makeSigningKey();

  /** The AuthnRequest inside the platform's redirect (HTTP-Redirect binding: deflated, base64). */
  readRequest(redirectUrl: string): AuthnRequestSeen {
    const url = new URL(redirectUrl);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const attr = (name: string) => new RegExp(`${name}="([^"]+)"`).exec(xml)?.[1] ?? '';
    return {
      id: attr('ID'),
      acsUrl: attr('AssertionConsumerServiceURL'),
      issuer: /<saml:Issuer[^>]*>([^<]+)</.exec(xml)?.[1] ?? '',
      relayState: url.searchParams.get('RelayState') ?? '',
    };
  }

  /** A signed assertion (the signature enveloped, after its Issuer). */
  assertion(o: AssertionOptions): string {
    const now = new Date();
    const until = o.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
    const before = new Date(Math.min(now.getTime(), until.getTime()) - 60_000 * 10);
    const attrs = Object.entries(o.attributes ?? {})
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${esc(name)}">${(Array.isArray(value) ? value : [value]).map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`).join('')}</saml:Attribute>`,
      )
      .join('');
    const id = `_a${randomBytes(16).toString('hex')}`;
    const xml =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}">` +
      `<saml:Issuer>${esc(o.issuer ?? this.entityId)}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.nameId)}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${esc(o.request.id)}" NotOnOrAfter="${until.toISOString()}" Recipient="${esc(o.recipient ?? o.request.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${before.toISOString()}" NotOnOrAfter="${until.toISOString()}"><saml:AudienceRestriction><saml:Audience>${esc(o.audience ?? o.request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${id}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      (attrs ? `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` : '') +
      `</saml:Assertion>`;
    const key = o.signingKey ?? this.signing;
    const sig = new SignedXml({
      privateKey: key.key,
      publicCert: key.cert,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    sig.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    sig.computeSignature(xml, { location: { reference: "//*[local-name(.)='Issuer']", action: 'after' } });
    return sig.getSignedXml();
  }

  /** A Response around `inner` (one or more assertions, or anything else), unsigned itself as Okta sends it. */
  response(request: AuthnRequestSeen, inner: string, options: { destination?: string; prolog?: string } = {}): string {
    return (
      (options.prolog ?? '') +
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${new Date().toISOString()}" Destination="${esc(options.destination ?? request.acsUrl)}" InResponseTo="${esc(request.id)}">` +
      `<saml:Issuer>${esc(this.entityId)}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      inner +
      `</samlp:Response>`
    );
  }

  /** Metadata XML as identity providers publish it. */
  metadata(): string {
    const cert = this.signing.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    return (
      `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${this.entityId}">` +
      `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${this.ssoUrl}/post"/>` +
      `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${this.ssoUrl}"/>` +
      `</md:IDPSSODescriptor></md:EntityDescriptor>`
    );
  }
}

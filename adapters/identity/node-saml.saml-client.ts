import { generateServiceProviderMetadata, SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import { DOMParser } from '@xmldom/xmldom';
import type { SamlSettings } from '../../core/sso/domain/sso-config';
import type { SamlAssertion, SamlClient, SamlRequest } from '../../core/sso/ports/sso-protocols.port';
import { UnauthorizedError, ValidationError } from '../../core/shared/errors';

const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** Refused before any parsing: DTDs bring entity expansion and external entities. */
const DOCTYPE = /<!DOCTYPE|<!ENTITY/i;

type XmlDocument = ReturnType<DOMParser['parseFromString']>;
type XmlElement = NonNullable<XmlDocument['documentElement']>;

function parseXml(xml: string): XmlDocument | null {
  let failed = false;
  const doc = new DOMParser({ errorHandler: { error: () => (failed = true), fatalError: () => (failed = true), warning: () => undefined } }).parseFromString(xml, 'text/xml');
  return failed || !doc?.documentElement ? null : doc;
}

const refused = (reason: string) => new UnauthorizedError(`The SAML response was refused (${reason})`);

/** node-saml's error messages, in a few words the platform can show (never its internals). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  if (/signature/i.test(message)) return message.includes('multiple assertions') ? 'more than one assertion' : 'invalid signature';
  if (/audience/i.test(message)) return 'wrong audience';
  // node-saml passes over subject confirmations outside their time window, then finds none left.
  if (/NotOnOrAfter|expired|No valid subject confirmation/i.test(message)) return 'expired';
  if (/NotBefore/i.test(message)) return 'not yet valid';
  if (/InResponseTo/i.test(message)) return 'not a response to this sign-in';
  if (/issuer/i.test(message)) return 'wrong issuer';
  if (/status/i.test(message)) return 'the identity provider reported a failure';
  return 'invalid response';
}

/** A cache that knows exactly one request: the one this sign-in sent, so InResponseTo must name it. */
const oneRequest = (requestId: string): CacheProvider => ({
  saveAsync: async (_key, value) => ({ value, createdAt: Date.now() }),
  getAsync: async (key) => (key === requestId ? new Date().toISOString() : null),
  removeAsync: async () => null,
});

/**
 * SAML 2.0 service provider on @node-saml/node-saml: sign-in requests over HTTP-Redirect, and responses
 * verified by node-saml (signed assertion, issuer, audience, time conditions with a minute of clock skew,
 * InResponseTo) after checks of its own on the raw XML (no DOCTYPE, exactly one assertion, the Destination)
 * and on the signed assertion (its Recipient, its ID for replay protection).
 */
export class NodeSamlClient implements SamlClient {
  private saml(settings: SamlSettings, r: SamlRequest): SAML {
    return new SAML({
      callbackUrl: r.acsUrl,
      entryPoint: settings.ssoUrl,
      issuer: r.spEntityId,
      audience: r.spEntityId,
      idpCert: settings.certificate,
      idpIssuer: settings.entityId,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      cacheProvider: oneRequest(r.requestId),
      generateUniqueId: () => r.requestId,
      acceptedClockSkewMs: 60_000,
      disableRequestedAuthnContext: true,
      identifierFormat: null,
    });
  }

  authorizationUrl(settings: SamlSettings, r: SamlRequest): Promise<string> {
    return this.saml(settings, r).getAuthorizeUrlAsync(r.relayState, undefined, {});
  }

  async verify(settings: SamlSettings, samlResponse: string, r: SamlRequest): Promise<SamlAssertion> {
    const xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    if (DOCTYPE.test(xml)) throw ValidationError.field('SAMLResponse', 'SAMLResponse must not contain a DOCTYPE or entity declarations');
    const doc = parseXml(xml);
    if (!doc) throw refused('not well-formed XML');
    const assertions = doc.getElementsByTagNameNS(ASSERTION_NS, 'Assertion').length + doc.getElementsByTagNameNS(ASSERTION_NS, 'EncryptedAssertion').length;
    if (assertions !== 1) throw refused(assertions === 0 ? 'no assertion' : 'more than one assertion');
    const destination = doc.documentElement!.getAttribute('Destination');
    if (destination && destination !== r.acsUrl) throw refused('wrong recipient');

    let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
    try {
      ({ profile } = await this.saml(settings, r).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (error) {
      throw refused(reasonOf(error));
    }
    if (!profile?.getAssertionXml) throw refused('no assertion');
    const signed = parseXml(profile.getAssertionXml());
    const assertion = signed?.documentElement;
    if (!assertion || assertion.localName !== 'Assertion' || assertion.namespaceURI !== ASSERTION_NS) throw refused('no assertion');
    const id = assertion.getAttribute('ID');
    if (!id) throw refused('assertion without ID');
    const confirmations = Array.from(assertion.getElementsByTagNameNS(ASSERTION_NS, 'SubjectConfirmationData') as unknown as ArrayLike<XmlElement>);
    if (!confirmations.length || confirmations.some((c) => c.getAttribute('Recipient') !== r.acsUrl)) throw refused('wrong recipient');
    const until = confirmations[0]!.getAttribute('NotOnOrAfter');
    const attributes = (profile.attributes && typeof profile.attributes === 'object' ? profile.attributes : {}) as Record<string, unknown>;
    return {
      assertionId: id,
      expiresAt: until && !Number.isNaN(Date.parse(until)) ? new Date(until) : null,
      nameId: typeof profile.nameID === 'string' ? profile.nameID : '',
      attributes: { ...attributes },
    };
  }

  serviceProviderMetadata(spEntityId: string, acsUrl: string): string {
    return generateServiceProviderMetadata({
      issuer: spEntityId,
      callbackUrl: acsUrl,
      wantAssertionsSigned: true,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    });
  }

  readMetadata(xml: string): SamlSettings {
    const bad = (message: string) => ValidationError.field('saml.metadataXml', `saml.metadataXml ${message}`);
    if (DOCTYPE.test(xml)) throw bad('must not contain a DOCTYPE or entity declarations');
    const doc = parseXml(xml);
    const root = doc?.documentElement;
    if (!root) throw bad('is not well-formed XML');
    const descriptor = root.localName === 'EntityDescriptor' ? root : (doc.getElementsByTagNameNS(METADATA_NS, 'EntityDescriptor')[0] as XmlElement | undefined);
    const entityId = descriptor?.getAttribute('entityID');
    if (!descriptor || !entityId) throw bad('has no EntityDescriptor with an entityID');
    const idp = descriptor.getElementsByTagNameNS(METADATA_NS, 'IDPSSODescriptor')[0] as XmlElement | undefined;
    if (!idp) throw bad('has no IDPSSODescriptor');
    const services = Array.from(idp.getElementsByTagNameNS(METADATA_NS, 'SingleSignOnService') as unknown as ArrayLike<XmlElement>);
    const ssoUrl = services.find((s) => s.getAttribute('Binding') === REDIRECT_BINDING)?.getAttribute('Location');
    if (!ssoUrl) throw bad('has no SingleSignOnService with the HTTP-Redirect binding');
    const keys = Array.from(idp.getElementsByTagNameNS(METADATA_NS, 'KeyDescriptor') as unknown as ArrayLike<XmlElement>).filter(
      (k) => !k.getAttribute('use') || k.getAttribute('use') === 'signing',
    );
    const certificate = keys.map((k) => k.getElementsByTagNameNS(DSIG_NS, 'X509Certificate')[0]?.textContent?.trim()).find(Boolean);
    if (!certificate) throw bad('has no signing certificate');
    return { entityId, ssoUrl, certificate };
  }
}

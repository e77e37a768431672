import { NodeSamlClient } from '../../../adapters/identity/node-saml.saml-client';
import { displayNameFrom, emailDomain } from '../../../core/auth/domain/external-identity';
import { ValidationError } from '../../../core/shared/errors';
import { DEFAULT_MAPPING, mappedRole, valuesOf } from '../../../core/sso/domain/sso-config';
import { pemCertificate } from '../../../core/sso/use-cases/manage-sso-config.use-case';
import { TestSamlIdp } from '../../support/saml-idp';

describe('SSO attribute mapping', () => {
  const mapping = { ...DEFAULT_MAPPING.oidc, roles: { admins: 'admin' as const, staff: 'member' as const, readers: 'viewer' as const } };

  it('gives the highest role any group maps to, and null when none does', () => {
    expect(mappedRole(mapping, ['readers', 'admins', 'staff'])).toBe('admin');
    expect(mappedRole(mapping, ['readers', 'staff'])).toBe('member');
    expect(mappedRole(mapping, ['others'])).toBeNull();
    expect(mappedRole(mapping, [])).toBeNull();
  });

  it('never reads a role from the object prototype', () => {
    expect(mappedRole(mapping, ['constructor', 'toString', '__proto__'])).toBeNull();
  });

  it('reads one value or a list of values, strings and numbers only', () => {
    expect(valuesOf({ g: 'a' }, 'g')).toEqual(['a']);
    expect(valuesOf({ g: ['a', 2, { x: 1 }, null] }, 'g')).toEqual(['a', '2']);
    expect(valuesOf({}, 'g')).toEqual([]);
    expect(valuesOf({ g: 'a' }, 'constructor')).toEqual([]);
  });

  it('names people from what the provider gave', () => {
    expect(displayNameFrom({ displayName: '  Ada  ', email: 'a@x.test' })).toBe('Ada');
    expect(displayNameFrom({ displayName: null, email: 'grace.hopper@x.test' })).toBe('grace.hopper');
    expect([...displayNameFrom({ displayName: 'é'.repeat(300), email: null })]).toHaveLength(100);
    expect(emailDomain('Someone@Sub.Example.COM')).toBe('sub.example.com');
  });
});

describe('SAML settings', () => {
  const idp = new TestSamlIdp();

  it('accepts a certificate as PEM or bare base64 and refuses anything else', () => {
    const bare = idp.signing.cert.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
    expect(pemCertificate(idp.signing.cert)).toBe(pemCertificate(bare));
    expect(pemCertificate(bare)).toMatch(/^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+\n-----END CERTIFICATE-----\n$/);
    expect(() => pemCertificate('hello')).toThrow(ValidationError);
    expect(() => pemCertificate('A'.repeat(200))).toThrow(ValidationError);
  });

  it('reads the entity id, redirect SSO URL and signing certificate from IdP metadata', () => {
    const settings = new NodeSamlClient().readMetadata(idp.metadata());
    expect(settings).toEqual({ entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificate: expect.any(String) });
    expect(pemCertificate(settings.certificate)).toBe(pemCertificate(idp.signing.cert));
  });

  it('refuses metadata with a DOCTYPE, without the redirect binding, or that is not XML', () => {
    const client = new NodeSamlClient();
    expect(() => client.readMetadata(`<!DOCTYPE x [<!ENTITY e "e">]>${idp.metadata().replace('<?xml version="1.0"?>', '')}`)).toThrow(/DOCTYPE/);
    expect(() => client.readMetadata(idp.metadata().replace(/<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect"[^>]*\/>/, ''))).toThrow(/HTTP-Redirect/);
    expect(() => client.readMetadata('not xml at all <')).toThrow(ValidationError);
  });
});

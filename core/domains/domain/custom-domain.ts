import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed', 'active'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

export interface DomainSettings {
  /** `www.<domain>` answers with a permanent redirect to `<domain>`. */
  redirectWww: boolean;
  /** Plain-HTTP requests (as the proxy reports them) are redirected to https. */
  forceHttps: boolean;
  /** Extra response headers on this domain (never hop-by-hop, cookies or security headers). */
  customHeaders: Record<string, string>;
}

export interface CustomDomain {
  id: string;
  ownerId: string;
  applicationId: string;
  /** Lower-case ASCII (IDNs in punycode), no trailing dot. */
  domain: string;
  status: DomainStatus;
  verificationToken: string;
  failureReason: string | null;
  settings: DomainSettings;
  verifiedAt: Date | null;
  lastCheckedAt: Date | null;
  activatedAt: Date | null;
  sslExpiresAt: Date | null;
  sslCheckedAt: Date | null;
  sslError: string | null;
  createdAt: Date;
}

export const VERIFY_PREFIX = '_ap-verify';
export const verificationName = (domain: string) => `${VERIFY_PREFIX}.${domain}`;

export interface DnsRecordView {
  type: 'TXT' | 'CNAME';
  name: string;
  value: string;
}

export interface CustomDomainView {
  id: string;
  domain: string;
  applicationId: string;
  status: DomainStatus;
  failureReason: string | null;
  /** Create either record (SPEC 2.11: verified by CNAME or TXT); the CNAME also routes the traffic here. */
  dnsRecords: DnsRecordView[];
  settings: DomainSettings;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  activatedAt: string | null;
  ssl: { expiresAt: string | null; checkedAt: string | null; error: string | null };
  createdAt: string;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const toCustomDomainView = (d: CustomDomain, target: string): CustomDomainView => ({
  id: d.id,
  domain: d.domain,
  applicationId: d.applicationId,
  status: d.status,
  failureReason: d.failureReason,
  dnsRecords: [
    { type: 'TXT', name: verificationName(d.domain), value: d.verificationToken },
    { type: 'CNAME', name: d.domain, value: target },
  ],
  settings: d.settings,
  verifiedAt: iso(d.verifiedAt),
  lastCheckedAt: iso(d.lastCheckedAt),
  activatedAt: iso(d.activatedAt),
  ssl: { expiresAt: iso(d.sslExpiresAt), checkedAt: iso(d.sslCheckedAt), error: d.sslError },
  createdAt: d.createdAt.toISOString(),
});

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** A host name as typed (any case, a trailing dot, Unicode) in its stored form, or null when it is not one. */
export function normalizeDomain(input: string): string | null {
  const trimmed = input.trim().replace(/\.$/, '');
  if (!trimmed || trimmed.length > 253 || /[/:@\s]/.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (!ascii || ascii.length > 253) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels[labels.length - 1]!)) return null;
  return ascii;
}

/**
 * Names no application may claim: the platform's own host (and its subdomains), `localhost`, IP
 * literals, and the operator's reserved list (each entry with its subdomains).
 */
export function isReservedDomain(domain: string, reserved: string[]): boolean {
  if (isIP(domain) || domain === 'localhost' || domain.endsWith('.localhost')) return true;
  return reserved.some((r) => {
    const name = r.toLowerCase().replace(/\.$/, '');
    return name !== '' && (domain === name || domain.endsWith(`.${name}`));
  });
}

const FORBIDDEN_HEADERS = new Set([
  'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'proxy-authenticate', 'proxy-authorization',
  'host', 'content-length', 'content-type', 'content-encoding', 'set-cookie', 'location',
  'content-security-policy', 'content-security-policy-report-only', 'strict-transport-security', 'x-frame-options',
  'x-content-type-options', 'referrer-policy', 'permissions-policy', 'cross-origin-opener-policy', 'cross-origin-embedder-policy',
  'cross-origin-resource-policy', 'x-xss-protection',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** Why a custom header may not be set, or null when it may. */
export function customHeaderProblem(name: string, value: unknown): string | null {
  const lower = name.toLowerCase();
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-') || lower.startsWith('access-control-') || lower.startsWith('sec-')) {
    return 'may not be set (hop-by-hop, cookie, framing, content or security header)';
  }
  if (typeof value !== 'string' || value.length > 1000 || /[\r\n\0]/.test(value)) return 'must be a single-line string of at most 1000 characters';
  return null;
}

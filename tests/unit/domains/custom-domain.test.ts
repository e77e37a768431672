import { randomUUID } from 'node:crypto';
import { customHeaderProblem, isReservedDomain, normalizeDomain, type CustomDomain, type DomainStatus } from '../../../core/domains/domain/custom-domain';
import type { CustomDomainChanges, CustomDomainRepository } from '../../../core/domains/ports/custom-domain-repository.port';
import type { DnsAnswer, DnsResolver } from '../../../core/domains/ports/dns-resolver.port';
import { VerifyCustomDomainUseCase } from '../../../core/domains/use-cases/verify-custom-domain.use-case';

describe('custom domain names', () => {
  it.each([
    ['Chat.Example.COM.', 'chat.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['  shop.example.co.uk ', 'shop.example.co.uk'],
  ])('normalizes %j to %s', (input, expected) => expect(normalizeDomain(input)).toBe(expected));

  it.each(['example', 'https://a.example', 'a.example/path', 'user@a.example', 'a..example', '-a.example', 'a-.example', 'a.example:443', '1.2.3.4', `${'a'.repeat(64)}.example`, ''])(
    'refuses %j',
    (input) => expect(normalizeDomain(input)).toBeNull(),
  );

  it('reserves localhost, IPs, and each reserved name with its subdomains', () => {
    const reserved = ['platform.example', 'internal.test'];
    for (const d of ['localhost', 'app.localhost', '::1', '10.0.0.1', 'platform.example', 'api.platform.example', 'x.internal.test']) expect([d, isReservedDomain(d, reserved)]).toEqual([d, true]);
    for (const d of ['chat.example.com', 'myplatform.example', 'internal.test.example']) expect([d, isReservedDomain(d, reserved)]).toEqual([d, false]);
  });

  it('refuses hop-by-hop, cookie and security headers, and multi-line values', () => {
    for (const name of ['Connection', 'Transfer-Encoding', 'Set-Cookie', 'Content-Security-Policy', 'Strict-Transport-Security', 'X-Frame-Options', 'Access-Control-Allow-Origin', 'Proxy-Foo', 'Location']) {
      expect([name, customHeaderProblem(name, 'x')]).toEqual([name, expect.any(String)]);
    }
    expect(customHeaderProblem('X-Robots-Tag', 'noindex')).toBeNull();
    expect(customHeaderProblem('X-Bad', 'a\r\nSet-Cookie: b')).toMatch(/single-line/);
    expect(customHeaderProblem('Bad Name', 'x')).toMatch(/not a valid/);
  });
});

class InMemoryDomains implements CustomDomainRepository {
  readonly rows = new Map<string, CustomDomain>();
  async create(d: { ownerId: string; applicationId: string; domain: string; verificationToken: string }) {
    const row: CustomDomain = { id: randomUUID(), ...d, status: 'pending', failureReason: null, settings: { redirectWww: false, forceHttps: false, customHeaders: {} }, verifiedAt: null, lastCheckedAt: null, activatedAt: null, sslExpiresAt: null, sslCheckedAt: null, sslError: null, createdAt: new Date() };
    this.rows.set(row.id, row);
    return row;
  }
  async findById(id: string) {
    return this.rows.get(id) ?? null;
  }
  async findByDomain(domain: string) {
    return [...this.rows.values()].find((r) => r.domain === domain) ?? null;
  }
  async listByOwner(ownerId: string) {
    const items = [...this.rows.values()].filter((r) => r.ownerId === ownerId);
    return { items, total: items.length };
  }
  async listActive() {
    return [...this.rows.values()].filter((r) => r.status === 'active');
  }
  async update(id: string, changes: CustomDomainChanges) {
    const row = { ...this.rows.get(id)!, ...changes };
    this.rows.set(id, row);
    return row;
  }
  async transition(id: string, from: DomainStatus[], changes: CustomDomainChanges) {
    return from.includes(this.rows.get(id)!.status) ? this.update(id, changes) : null;
  }
  async delete(id: string) {
    this.rows.delete(id);
  }
}

describe('VerifyCustomDomainUseCase', () => {
  const actor = { userId: randomUUID(), role: 'developer' as const };
  const answers: { txt: DnsAnswer<string>; cname: DnsAnswer<string> } = { txt: { ok: false, reason: 'not_found', message: 'ENOTFOUND' }, cname: { ok: false, reason: 'timeout', message: 'ETIMEOUT' } };
  const dns: DnsResolver = { txt: async () => answers.txt, cname: async () => answers.cname };
  const domains = new InMemoryDomains();
  const verify = new VerifyCustomDomainUseCase({ domains, dns, policy: { reserved: [], target: 'edge.example' }, clock: { now: () => new Date('2026-11-25T12:00:00Z') } });

  it('fails with both findings, then verifies by either record, and leaves an active domain alone', async () => {
    const d = await domains.create({ ownerId: actor.userId, applicationId: randomUUID(), domain: 'chat.example.com', verificationToken: 'tok' });
    const failed = await verify.execute(d.id, actor);
    expect(failed.status).toBe('failed');
    expect(failed.failureReason).toBe('TXT _ap-verify.chat.example.com: no such name (NXDOMAIN); CNAME chat.example.com: the DNS lookup timed out');
    answers.txt = { ok: true, records: ['tok'] };
    expect((await verify.execute(d.id, actor)).status).toBe('verified');
    answers.txt = { ok: true, records: [] };
    answers.cname = { ok: true, records: ['edge.example'] };
    expect((await verify.execute(d.id, actor)).status).toBe('verified');
    await domains.update(d.id, { status: 'active' });
    await expect(verify.execute(d.id, actor)).rejects.toMatchObject({ kind: 'conflict' });
    await expect(verify.execute(d.id, { ...actor, userId: randomUUID() })).rejects.toMatchObject({ kind: 'not_found' });
  });
});

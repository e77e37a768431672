import { randomUUID } from 'node:crypto';
import { customHeaderProblem, isReservedDomain, normalizeDomain } from '../../../core/domains/domain/custom-domain';
import { InMemoryDomains } from '../../support/in-memory-custom-domains';
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

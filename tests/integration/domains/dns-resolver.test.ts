import { randomUUID } from 'node:crypto';
import { NodeDnsResolver } from '../../../adapters/dns/node.dns-resolver';
import { LocalDns } from '../../support/local-dns';
import { InMemoryDomains } from '../../support/in-memory-custom-domains';
import { VerifyCustomDomainUseCase } from '../../../core/domains/use-cases/verify-custom-domain.use-case';

describe('NodeDnsResolver against a local DNS server (dns2 on 127.0.0.1)', () => {
  let dns: LocalDns;
  let resolver: NodeDnsResolver;
  beforeAll(async () => {
    dns = await LocalDns.start();
    // Generous for an answer on a loaded machine (the local server runs in this process); the never-answering server still times out.
    resolver = new NodeDnsResolver({ servers: [dns.address], timeoutMs: 2000, tries: 1 });
    dns.zone['_ap-verify.shop.example.com'] = { txt: ['ap-verify-123', 'v=spf1 -all'] };
    dns.zone['chat.example.com'] = { cname: 'Edge.Platform.Example.' };
    dns.zone['slow.example.com'] = { silent: true };
  });
  afterAll(() => dns.close());

  it('reads TXT records', async () => {
    expect(await resolver.txt('_ap-verify.shop.example.com')).toEqual({ ok: true, records: ['ap-verify-123', 'v=spf1 -all'] });
  });

  it('reads a CNAME, lower-cased without the trailing dot', async () => {
    expect(await resolver.cname('chat.example.com')).toEqual({ ok: true, records: ['edge.platform.example'] });
  });

  it('tells a name that does not exist (NXDOMAIN) from one without the record type', async () => {
    expect(await resolver.txt('nothing.example.com')).toMatchObject({ ok: false, reason: 'not_found' });
    expect(await resolver.cname('_ap-verify.shop.example.com')).toMatchObject({ ok: false, reason: 'no_data' });
  });

  it('reports a server that never answers as a timeout', async () => {
    expect(await resolver.txt('slow.example.com')).toMatchObject({ ok: false, reason: 'timeout' });
  });
});

describe('domain verification through NodeDnsResolver and the local DNS server', () => {
  let dns: LocalDns;
  let domains: InMemoryDomains;
  let verify: VerifyCustomDomainUseCase;
  const actor = { userId: randomUUID(), role: 'developer' as const };
  beforeAll(async () => {
    dns = await LocalDns.start();
    domains = new InMemoryDomains();
    verify = new VerifyCustomDomainUseCase({
      domains,
      dns: new NodeDnsResolver({ servers: [dns.address], timeoutMs: 2000, tries: 1 }),
      policy: { reserved: [], target: 'edge.platform.example' },
      clock: { now: () => new Date() },
    });
  });
  afterAll(() => dns.close());

  const claim = (domain: string) => domains.create({ ownerId: actor.userId, applicationId: randomUUID(), domain, verificationToken: `tok-${domain}` });

  it('verifies by TXT and by CNAME', async () => {
    const byTxt = await claim('txt.verify.example');
    dns.zone['_ap-verify.txt.verify.example'] = { txt: ['tok-txt.verify.example'] };
    expect((await verify.execute(byTxt.id, actor)).status).toBe('verified');
    const byCname = await claim('cname.verify.example');
    dns.zone['cname.verify.example'] = { cname: 'edge.platform.example' };
    expect((await verify.execute(byCname.id, actor)).status).toBe('verified');
  });

  it('fails on a wrong token, on NXDOMAIN and on a timeout, saying which', async () => {
    const wrong = await claim('wrong.verify.example');
    dns.zone['_ap-verify.wrong.verify.example'] = { txt: ['tok-someone-else'] };
    expect((await verify.execute(wrong.id, actor)).failureReason).toMatch(/does not hold the verification token/);
    const missing = await claim('missing.verify.example');
    expect((await verify.execute(missing.id, actor)).failureReason).toMatch(/TXT _ap-verify\.missing\.verify\.example: no such name \(NXDOMAIN\)/);
    const slow = await claim('slow.verify.example');
    dns.zone['_ap-verify.slow.verify.example'] = { silent: true };
    dns.zone['slow.verify.example'] = { silent: true };
    const timedOut = await verify.execute(slow.id, actor);
    expect(timedOut.status).toBe('failed');
    expect(timedOut.failureReason).toMatch(/timed out.*timed out/);
  });
});

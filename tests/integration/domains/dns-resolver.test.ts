import { NodeDnsResolver } from '../../../adapters/dns/node.dns-resolver';
import { LocalDns } from '../../support/local-dns';

describe('NodeDnsResolver against a local DNS server (dns2 on 127.0.0.1)', () => {
  let dns: LocalDns;
  let resolver: NodeDnsResolver;
  beforeAll(async () => {
    dns = await LocalDns.start();
    resolver = new NodeDnsResolver({ servers: [dns.address], timeoutMs: 300, tries: 1 });
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

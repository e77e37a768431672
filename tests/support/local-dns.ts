import { Resolver, type LookupAddress } from 'node:dns';
import { Packet, createServer, type DnsServer } from 'dns2';
import type { LookupFunction } from '../../adapters/webhooks/ssrf-safe.webhook-sender';

/** RFC 1035 RCODE 3: the name does not exist. */
const NXDOMAIN = 3;

export interface Zone {
  /** name → A addresses, TXT records (each a string) and/or a CNAME target. */
  [name: string]: { a?: string[]; txt?: string[]; cname?: string; silent?: boolean };
}

/**
 * An authoritative DNS server on 127.0.0.1 (dns2, UDP) answering from a zone the test edits: unknown
 * names are NXDOMAIN, known names without the asked type answer empty (NODATA), `silent` names never
 * answer (a timeout).
 */
export class LocalDns {
  readonly zone: Zone = {};
  /** Every name asked, in order. */
  readonly queries: string[] = [];
  private constructor(private readonly server: DnsServer, readonly address: string) {}

  static async start(): Promise<LocalDns> {
    let dns: LocalDns | undefined;
    const server = createServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const name = (question?.name ?? '').toLowerCase();
        dns?.queries.push(name);
        const entry = dns?.zone[name];
        if (entry?.silent) return;
        if (!entry) {
          response.header.rcode = NXDOMAIN;
        } else if (question?.type === Packet.TYPE.A) {
          for (const address of entry.a ?? []) response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 60, address } as unknown as (typeof response.answers)[number]);
        } else if (question?.type === Packet.TYPE.TXT) {
          for (const data of entry.txt ?? []) response.answers.push({ name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data } as unknown as (typeof response.answers)[number]);
        } else if (question?.type === Packet.TYPE.CNAME && entry.cname) {
          response.answers.push({ name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 60, domain: entry.cname } as unknown as (typeof response.answers)[number]);
        }
        send(response);
      },
    });
    const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    dns = new LocalDns(server, `127.0.0.1:${addresses.udp!.port}`);
    return dns;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

/** A local DNS server answering A records from `records`, and a `lookup` (as `dns.lookup`) that asks only it. */
export async function startLocalDns(records: Record<string, string>): Promise<{ lookup: LookupFunction; queries: string[]; close(): Promise<void> }> {
  const dns = await LocalDns.start();
  for (const [name, address] of Object.entries(records)) dns.zone[name.toLowerCase()] = { a: [address] };
  const resolver = new Resolver();
  resolver.setServers([dns.address]);
  const lookup = ((hostname: string, options: { all?: boolean } | number | ((...a: unknown[]) => void), callback?: (...a: unknown[]) => void) => {
    const cb = (typeof options === 'function' ? options : callback)!;
    const all = typeof options === 'object' && options.all;
    resolver.resolve4(hostname, (err, addresses) => {
      if (err || addresses.length === 0) return cb(err ?? Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      if (all) cb(null, addresses.map((address): LookupAddress => ({ address, family: 4 })));
      else cb(null, addresses[0], 4);
    });
  }) as unknown as LookupFunction;
  return { lookup, queries: dns.queries, close: () => dns.close() };
}

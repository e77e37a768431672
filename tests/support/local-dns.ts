import { Resolver, type LookupAddress } from 'node:dns';
import dns2 from 'dns2';
import type { LookupFunction } from '../../adapters/webhooks/ssrf-safe.webhook-sender';

/** A DNS server on 127.0.0.1 answering A records from `records`, and a `lookup` that asks only it. */
export async function startLocalDns(records: Record<string, string>): Promise<{ lookup: LookupFunction; queries: string[]; close(): Promise<void> }> {
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = dns2.Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question!.name;
      queries.push(name);
      const address = records[name];
      if (address) response.answers.push({ name, type: dns2.Packet.TYPE.A, class: dns2.Packet.CLASS.IN, ttl: 60, address } as unknown as (typeof response.answers)[number]);
      send(response);
    },
  });
  const listening = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = (listening as unknown as { udp: { port: number } }).udp?.port ?? (server.addresses() as unknown as { udp: { port: number } }).udp.port;
  const resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${port}`]);
  const lookup = ((hostname: string, options: { all?: boolean } | number | ((...a: unknown[]) => void), callback?: (...a: unknown[]) => void) => {
    const cb = (typeof options === 'function' ? options : callback)!;
    const all = typeof options === 'object' && options.all;
    resolver.resolve4(hostname, (err, addresses) => {
      if (err || addresses.length === 0) return cb(err ?? Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      if (all) cb(null, addresses.map((address): LookupAddress => ({ address, family: 4 })));
      else cb(null, addresses[0], 4);
    });
  }) as unknown as LookupFunction;
  return { lookup, queries, close: () => server.close() as unknown as Promise<void> };
}

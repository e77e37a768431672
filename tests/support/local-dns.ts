import { Packet, createServer, type DnsServer } from 'dns2';

/** RFC 1035 RCODE 3: the name does not exist. */
const NXDOMAIN = 3;

export interface Zone {
  /** name → TXT records (each a string) and/or a CNAME target. */
  [name: string]: { txt?: string[]; cname?: string; silent?: boolean };
}

/**
 * An authoritative DNS server on 127.0.0.1 (dns2, UDP) answering from a zone the test edits: unknown
 * names are NXDOMAIN, known names without the asked type answer empty (NODATA), `silent` names never
 * answer (a timeout).
 */
export class LocalDns {
  readonly zone: Zone = {};
  private constructor(private readonly server: DnsServer, readonly address: string) {}

  static async start(): Promise<LocalDns> {
    let dns: LocalDns | undefined;
    const server = createServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const name = (question?.name ?? '').toLowerCase();
        const entry = dns?.zone[name];
        if (entry?.silent) return;
        if (!entry) {
          response.header.rcode = NXDOMAIN;
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

import { Resolver } from 'node:dns/promises';
import type { DnsAnswer, DnsResolver } from '../../core/domains/ports/dns-resolver.port';

/**
 * DNS through `node:dns`'s Resolver (c-ares, no system cache): the servers of DNS_SERVERS when given
 * (`1.1.1.1`, `127.0.0.1:5353`), otherwise the system's.
 */
export class NodeDnsResolver implements DnsResolver {
  private readonly resolver: Resolver;

  constructor(options: { servers?: string[]; timeoutMs?: number; tries?: number } = {}) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 3000, tries: options.tries ?? 2 });
    if (options.servers?.length) this.resolver.setServers(options.servers);
  }

  txt(name: string): Promise<DnsAnswer<string>> {
    return this.ask(() => this.resolver.resolveTxt(name).then((records) => records.map((chunks) => chunks.join(''))));
  }

  cname(name: string): Promise<DnsAnswer<string>> {
    return this.ask(() => this.resolver.resolveCname(name).then((records) => records.map((r) => r.toLowerCase().replace(/\.$/, ''))));
  }

  private async ask(lookup: () => Promise<string[]>): Promise<DnsAnswer<string>> {
    try {
      return { ok: true, records: await lookup() };
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      const message = code || (error as Error).message;
      if (code === 'ENOTFOUND') return { ok: false, reason: 'not_found', message };
      if (code === 'ENODATA') return { ok: false, reason: 'no_data', message };
      if (code === 'ETIMEOUT') return { ok: false, reason: 'timeout', message };
      return { ok: false, reason: 'failure', message };
    }
  }
}

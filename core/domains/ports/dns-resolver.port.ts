/** A DNS answer: the records, or why there are none. */
export type DnsAnswer<T> = { ok: true; records: T[] } | { ok: false; reason: 'not_found' | 'no_data' | 'timeout' | 'failure'; message: string };

/** DNS lookups for verification, through the resolvers the operator chose (DNS_SERVERS). */
export interface DnsResolver {
  /** TXT records, each joined from its strings. */
  txt(name: string): Promise<DnsAnswer<string>>;
  /** CNAME targets, lower-case, without trailing dots. */
  cname(name: string): Promise<DnsAnswer<string>>;
}

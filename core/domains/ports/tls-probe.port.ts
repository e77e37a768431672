export type TlsProbeResult = { ok: true; validTo: Date; issuer: string; trusted: boolean } | { ok: false; error: string };

/** A TLS handshake to a domain, reporting its certificate's expiry. */
export interface TlsProbe {
  probe(domain: string): Promise<TlsProbeResult>;
}

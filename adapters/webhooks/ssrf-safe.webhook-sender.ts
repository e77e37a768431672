import { randomBytes } from 'node:crypto';
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { Webhook } from 'standardwebhooks';
import type { SendResult, SignedMessage, WebhookSender } from '../../core/webhooks/ports/webhook-sender.port';


/** The setting that lets an operator allow a private range (an internal receiver, development). */
/** Said to people (the operator's setting is named in docs/webhooks.md, not here: STUDIO.md "Words people read"). */
const PRIVATE_HINT = '(the platform’s operator can allow a private network range)';

/** `dns.lookup`'s shape; tests give one that asks a local DNS server. */
export type LookupFunction = typeof systemLookup;

export interface SsrfSafeSenderOptions {
  /** `http:` URLs too (WEBHOOKS_ALLOW_HTTP, development only). */
  allowHttp?: boolean;
  /** Private ranges an operator allows (WEBHOOKS_ALLOWED_PRIVATE_CIDRS), e.g. `10.1.0.0/16`. */
  allowedPrivateCidrs?: string[];
  /** Per-delivery limit (SPEC 8: 10 s). */
  timeoutMs?: number;
  /** Bytes of a response read at most (EVENTS.md: 64 KB); the rest is not read. */
  maxResponseBytes?: number;
  lookup?: LookupFunction;
}

const USER_AGENT = 'ai-app-platform-webhooks/1';

/**
 * Delivers webhooks without reaching the platform's own network (EVENTS.md): the host is resolved once,
 * by the connecting socket, through `request-filtering-agent`'s checked lookup, which refuses the
 * connection when any address is loopback, private, link-local (cloud metadata), CGNAT, multicast,
 * unspecified or IPv4-mapped, unless an allowed range holds it; the socket connects to the address that
 * was checked. Redirects are not followed (a 3xx is a failed delivery), the answer is read up to
 * `maxResponseBytes`, and the whole exchange is cut at `timeoutMs`. Signatures are Standard Webhooks v1.
 */
export class SsrfSafeWebhookSender implements WebhookSender {
  private readonly httpAgent: RequestFilteringHttpAgent;
  private readonly httpsAgent: RequestFilteringHttpsAgent;
  private readonly allowed: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]>;

  constructor(private readonly options: SsrfSafeSenderOptions = {}) {
    const filter = { allowPrivateIPAddress: false, allowMetaIPAddress: false, allowIPAddressList: options.allowedPrivateCidrs ?? [], keepAlive: false };
    this.httpAgent = new RequestFilteringHttpAgent(filter);
    this.httpsAgent = new RequestFilteringHttpsAgent(filter);
    this.allowed = (options.allowedPrivateCidrs ?? []).map((cidr) => ipaddr.parseCIDR(cidr));
  }

  newSecret(): string {
    return `whsec_${randomBytes(24).toString('base64')}`;
  }

  /** The rule of every outbound call (OutboundUrlRules): tools, MCP servers and workflows check their URLs with it too. */
  async problemWith(url: string): Promise<string | null> {
    return this.check(url, true);
  }

  /**
   * The scheme, the credentials and the addresses of the URL's host; `resolveNames` false checks only a
   * literal address (at delivery the agent's own lookup is checked, so a name is resolved once, by the socket).
   */
  private async check(url: string, resolveNames: boolean): Promise<string | null> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return 'url must be an absolute URL';
    }
    if (parsed.username || parsed.password) return 'url must not carry credentials (a user name or password)';
    if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && this.options.allowHttp)) {
      if (this.options.allowHttp) return 'url must use http or https';
      return parsed.protocol === 'http:' ? 'url must use https (this platform calls http addresses only where its operator allows them, for development)' : 'url must use https';
    }
    const host = hostOf(parsed);
    let addresses: string[];
    if (isIP(host)) addresses = [host];
    else if (!resolveNames) return null;
    else {
      try {
        addresses = (await this.resolve(host)).map((a) => a.address);
      } catch {
        // A name that does not resolve yet has no address to judge: it is saved, and a call to it fails to
        // connect until it resolves (the connecting socket's lookup is checked then). localhost is loopback
        // whatever the resolver says (RFC 6761).
        if (!/(^|\.)localhost\.?$/i.test(host)) return null;
        addresses = ['127.0.0.1'];
      }
    }
    const refused = addresses.find((a) => !this.isAllowedAddress(a));
    return refused ? `url's host resolves to a private or reserved address, which the platform may not call ${PRIVATE_HINT}` : null;
  }

  async send(message: SignedMessage): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const problem = await this.check(message.url, false);
    if (problem) return { outcome: 'refused', statusCode: null, durationMs: elapsed(), error: problem };
    const signature = new Webhook(message.secret).sign(message.messageId, message.timestamp, message.body);
    const url = new URL(message.url);
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent,
          // The agent checks what this lookup answers; the socket connects to that same address.
          ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(message.body),
            'user-agent': USER_AGENT,
            'webhook-id': message.messageId,
            'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
        },
        (response) => this.readBounded(response, () => finish(outcomeOf(response.statusCode ?? 0))),
      );
      const timer = setTimeout(() => {
        finish({ outcome: 'timeout', statusCode: null, error: `No answer within ${timeoutMs} ms` });
        request.destroy();
      }, timeoutMs);
      request.on('error', (error: Error) => {
        const refused = /is not allowed/.test(error.message);
        finish({ outcome: refused ? 'refused' : 'failed', statusCode: null, error: refused ? `The host resolves to a private or reserved address ${PRIVATE_HINT}` : describe(error) });
      });
      request.end(message.body);
    });
  }

  /** Reads at most `maxResponseBytes` of the answer (never kept), then lets the connection go. */
  private readBounded(response: IncomingMessage, done: () => void): void {
    const max = this.options.maxResponseBytes ?? 64 * 1024;
    let read = 0;
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read >= max) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  }

  private isAllowedAddress(address: string): boolean {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.parse(address);
    } catch {
      return false;
    }
    if (this.allowed.some((range) => parsed.kind() === range[0].kind() && parsed.match(range))) return true;
    return parsed.range() === 'unicast';
  }

  private resolve(host: string): Promise<LookupAddress[]> {
    const lookup = this.options.lookup ?? systemLookup;
    return new Promise((resolve, reject) => {
      lookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses as LookupAddress[])));
    });
  }
}

/** The host without IPv6 brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

function outcomeOf(status: number): Omit<SendResult, 'durationMs'> {
  if (status >= 200 && status < 300) return { outcome: 'succeeded', statusCode: status, error: null };
  const note = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return { outcome: 'failed', statusCode: status, error: `The receiver answered ${status}${note}` };
}

/** A network error's code and message; nothing of the request. */
const describe = (error: Error & { code?: string }): string => (error.code ? `${error.code}: ${error.message}` : error.message).slice(0, 300);

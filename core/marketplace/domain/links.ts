import { BlockList, isIP } from 'node:net';

/** Address ranges a package link may not point at: loopback, private, link-local, shared, documentation and the like. */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 127], ['64:ff9b::', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32]] as const) {
  PRIVATE.addSubnet(net, bits, 'ipv6');
}

/** IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`, which URL parsing spells `::ffff:xxxx:yyyy`) are judged by their IPv4 address. */
function isPrivateAddress(address: string, family: number): boolean {
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return PRIVATE.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return PRIVATE.check(address, 'ipv6');
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|localdomain)$/i;

/** Whether `url` is an absolute http(s) URL without credentials (for links shown to users: homepage, icon, screenshots). */
export function isWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Why a package's `downloadUrl` is refused, or null when it is acceptable: https only, no credentials, and a public
 * host (no IP literal in a private range, no single-label or local name). The core API fetches it again through its
 * SSRF-filtering client, which also checks the addresses a name resolves to.
 */
export function downloadUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'downloadUrl must be an absolute URL';
  }
  if (u.protocol !== 'https:') return 'downloadUrl must use https';
  if (u.username || u.password) return 'downloadUrl must not carry credentials';
  const host = u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const family = isIP(host);
  if (family) return isPrivateAddress(host, family) ? 'downloadUrl must not point at a private or local address' : null;
  if (!host.includes('.') || LOCAL_NAMES.test(host)) return 'downloadUrl must not point at a private or local address';
  return null;
}

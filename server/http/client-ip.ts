// who is the client: the socket peer, or, when the peer is a trusted proxy,
// the right-most X-Forwarded-For hop that is not itself a trusted proxy. and the key its rate
// limits count under: the address, an IPv6 client by its /64 (one subscriber's whole prefix).
import { BlockList, isIP } from 'node:net';

/** the client key of requests a trusted proxy forwarded with a garbled X-Forwarded-For */
const UNRESOLVED = 'unresolved-via:';

export class ClientIp {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  /** @param proxies IPs or CIDRs, e.g. ["127.0.0.1", "10.0.0.0/8", "::1"] */
  constructor(proxies: string[]) {
    for (const p of proxies) {
      const [addr, bits] = p.split('/');
      const type = isIP(addr ?? '');
      if (!type) throw new Error(`--trust-proxy: ${JSON.stringify(p)} is not an IP address or CIDR`);
      const family = type === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.trusted.addAddress(addr!, family);
      else {
        const n = Number(bits);
        if (!/^\d+$/.test(bits) || n > (type === 4 ? 32 : 128)) throw new Error(`--trust-proxy: bad prefix length in ${JSON.stringify(p)}`);
        this.trusted.addSubnet(addr!, n, family);
      }
    }
    this.any = proxies.length > 0;
  }

  isTrusted(ip: string): boolean {
    if (!this.any) return false;
    const t = isIP(ip);
    return t !== 0 && this.trusted.check(ip, t === 4 ? 'ipv4' : 'ipv6');
  }

  resolve(peer: string, forwardedFor: string | undefined): string {
    const p = normalizeIp(peer);
    if (!forwardedFor || !this.isTrusted(p)) return p;
    const hops = forwardedFor.split(',').map((h) => normalizeIp(h.trim()));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      // a garbled hop from a trusted proxy: the client cannot be known. not the proxy's own key
      // (that would put every such client into the budget of the proxy and of everyone behind
      // it), and not the garbled text (a client could vary it for fresh budgets): one shared key
      if (!isIP(hop)) return `${UNRESOLVED}${p}`;
      if (!this.isTrusted(hop)) return hop;
    }
    return hops[0] && isIP(hops[0]) ? hops[0] : p;
  }
}

/** IPv4-mapped IPv6 (::ffff:1.2.3.4) becomes plain IPv4; IPv6 is compressed and lower-cased. */
export function normalizeIp(ip: string): string {
  let s = ip.trim().toLowerCase();
  if (s.startsWith('[') && s.includes(']')) s = s.slice(1, s.indexOf(']'));
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (mapped) return mapped[1]!;
  if (isIP(s) === 6) {
    try {
      return new URL(`http://[${s}]/`).hostname.slice(1, -1);
    } catch {
      return s;
    }
  }
  return s;
}

/** the key a client's rate limits count under: an IPv4 address as it is, an IPv6 one by its /64 */
export function rateKeyOf(client: string): string {
  if (isIP(client) !== 6) return client;
  // expand "::" so the first four groups are the /64
  const [head = '', tail = ''] = client.split('::');
  const h = head ? head.split(':') : [];
  const t = client.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = client.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

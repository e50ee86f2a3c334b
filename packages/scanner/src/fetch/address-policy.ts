import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Only globally routable unicast addresses are public. An allowlist (ipaddr's 'unicast' range) is safer than listing
 * every private block: new special-purpose ranges are refused by default.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(stripBrackets(address));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:127.0.0.1 reaches the IPv4 loopback; judge the embedded address instead.
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    // Only the global unicast block 2000::/3 is routable on the internet; this also refuses the
    // deprecated IPv4-compatible ::a.b.c.d form, which ipaddr.js files under 'unicast'.
    return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST_V6);
  }
  return parsed.range() === 'unicast';
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: this machine. */
export function isLoopbackAddress(address: string): boolean {
  try {
    const parsed = ipaddr.process(stripBrackets(address));
    return parsed.range() === 'loopback';
  } catch {
    return false;
  }
}

/** Hostnames here come from the WHATWG URL parser, which already rewrote odd IPv4 spellings to dotted decimal. */
export function isIpLiteral(hostname: string): boolean {
  return isIP(stripBrackets(hostname)) !== 0;
}

export function stripBrackets(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export function addressFamily(address: string): 4 | 6 {
  return ipaddr.parse(stripBrackets(address)).kind() === 'ipv6' ? 6 : 4;
}

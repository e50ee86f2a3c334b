// A submitted URL -> the scan's target identity and the company's domain.
//
// target: scheme, lowercase host, port only when not the scheme's default, path and query; no fragment (the WHATWG
// URL parser does the lowercasing, IDNA and default-port dropping). Two URLs with the same target share a scan.
// domain: the registrable domain from the Public Suffix List (tldts), the address itself for an IP URL (no port,
// no brackets), or the bare hostname when it has no registrable domain (e.g. `localhost`).
// The root label's dot is dropped (`example.com.` is `example.com`), so the private-address check, the target and
// the domain all judge the same name. Ports: a public web service answers on 80 or 443 (8080 and 8443 are their
// registered alternates); any other port of someone else's host is another service (SMTP on 25, Redis on 6379),
// and scanning it would make us a port scanner and a cross-protocol relay, so it is refused. With
// SCAN_ALLOW_PRIVATE_NETWORKS (tests and demos: local fixtures on any port) every port is allowed.
import { parse } from 'tldts';

export interface ScanTarget {
  url: URL;
  target: string;
  domain: string;
}

export type TargetResult = { ok: true; value: ScanTarget } | { ok: false; reason: string };

export const SCANNABLE_PORTS = [80, 443, 8080, 8443] as const;

export function normalizeTarget(raw: string, options: { anyPort?: boolean } = {}): TargetResult {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'The url is not an absolute URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `Only http and https URLs can be scanned, not ${url.protocol.replace(/:$/, '')}.` };
  }
  if (url.username || url.password) return { ok: false, reason: 'URLs with credentials cannot be scanned.' };
  if (!url.hostname) return { ok: false, reason: 'The url has no host.' };
  url.hash = '';
  if (url.hostname.endsWith('.') && !url.hostname.endsWith('..')) url.hostname = url.hostname.slice(0, -1);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (!options.anyPort && !(SCANNABLE_PORTS as readonly number[]).includes(port)) {
    return { ok: false, reason: `Port ${port} is not a web port; scans reach ports ${SCANNABLE_PORTS.join(', ')} only.` };
  }
  const host = url.hostname;
  const parsed = parse(host);
  const bare = host.replace(/^\[|\]$/g, '');
  const domain = parsed.isIp ? bare : (parsed.domain ?? bare);
  const target = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  return { ok: true, value: { url, target, domain } };
}

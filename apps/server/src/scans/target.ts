// A submitted URL -> the scan's target identity and the company's domain.
//
// target: scheme, lowercase host, port only when not the scheme's default, path and query; no fragment (the WHATWG
// URL parser does the lowercasing, IDNA and default-port dropping). Two URLs with the same target share a scan.
// domain: the registrable domain from the Public Suffix List (tldts), the address itself for an IP URL (no port,
// no brackets), or the bare hostname when it has no registrable domain (e.g. `localhost`).
import { parse } from 'tldts';

export interface ScanTarget {
  url: URL;
  target: string;
  domain: string;
}

export type TargetResult = { ok: true; value: ScanTarget } | { ok: false; reason: string };

export function normalizeTarget(raw: string): TargetResult {
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
  const host = url.hostname.replace(/\.$/, '');
  const parsed = parse(host);
  const bare = host.replace(/^\[|\]$/g, '');
  const domain = parsed.isIp ? bare : (parsed.domain ?? bare);
  const target = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  return { ok: true, value: { url, target, domain } };
}

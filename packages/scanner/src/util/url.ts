import { getDomain } from 'tldts';

/** An http(s) URL resolved against a base, or null for anything else (another scheme, not a string, unparseable). */
export function httpUrl(raw: unknown, base: string): string | null {
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  try {
    const url = new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The path of a URL, or '' when it does not parse. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/**
 * Same registrable domain (example.com, mcp.example.com), or the same host when there is none (an IP address,
 * localhost): what a scan may follow without leaving the site.
 */
export function sameSite(url: string, origin: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(origin);
    if (a.protocol !== 'http:' && a.protocol !== 'https:') return false;
    return (getDomain(a.hostname) ?? a.hostname) === (getDomain(b.hostname) ?? b.hostname);
  } catch {
    return false;
  }
}

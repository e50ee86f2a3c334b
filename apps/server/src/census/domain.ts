// A company's domain as an operator writes it -> the key the service stores and operation 3 reads
// (`/v1/leaderboard/companies/{domain}`, looked up in lower case). Lower case, IDN to ASCII (node:url's
// domainToASCII, the WHATWG rules the URL parser applies to a scanned URL), no root dot, a URL reduced to its host.
//
// A company is the registrable domain its scans are ranked under (scans/target.ts: the Public Suffix List through
// tldts, with the same defaults), so `blog.example.com` is refused rather than stored: no scan would ever reach it
// (a scan of https://blog.example.com ends on example.com's row). A plain name (the whole of a Tranco list) takes
// the short way: no URL is parsed, about 1 µs a line.
//
// What a scan may reach (unreachableDomain) is the scanner's rule, not a second one: an address literal is judged by
// the scanner's own isPublicAddress (loopback, private, link-local and every other non-global range refused), and a
// name under `localhost` (RFC 6761: always this machine) by its name. Other names are not looked up: an import of a
// million lines does no DNS, and the scan itself refuses a name that resolves to a private address.
import { isIP } from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import { getDomain } from 'tldts';

export type DomainResult = { ok: true; domain: string } | { ok: false; reason: string };

/** The database column holds 253 characters: the longest DNS name. */
export const MAX_DOMAIN = 253;
const HOSTNAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const PLAIN = /^[A-Za-z0-9.-]+$/;

export function normalizeCompanyDomain(raw: string): DomainResult {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'the domain is empty' };
  if (text.length > 2048) return { ok: false, reason: 'the domain is longer than 2,048 characters' };
  const shown = quoted(text, 80);
  let host = text;
  if (!PLAIN.test(text) && isIP(text.replace(/^\[|\]$/g, '')) === 0 && /[/?#:@\\]/.test(text)) {
    // A URL (with or without its scheme) stands for its host.
    let url: URL;
    try {
      url = new URL(SCHEME.test(text) ? text : `http://${text}`);
    } catch {
      return { ok: false, reason: `${shown} is neither a domain name nor a URL` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `${shown} is not an http or https address` };
    if (url.username || url.password) return { ok: false, reason: `${shown} carries credentials` };
    host = url.hostname;
  }
  host = host.replace(/^\[|\]$/g, '');
  if (host.endsWith('.') && !host.endsWith('..')) host = host.slice(0, -1);
  if (!PLAIN.test(host) || /^[0-9.]+$/.test(host)) {
    if (isIP(host) !== 0) return { ok: true, domain: canonicalAddress(host) };
  }
  const ascii = domainToASCII(host.toLowerCase());
  // A numeric last label is no name (the URL parser would read `1.2.3` as the address 1.2.0.3).
  // An `xn--` label that decodes to nothing else is no punycode: Node 20's URL parser refuses it (''), Node 24's keeps
  // it as written, so the label is checked here to answer the same on both.
  const badPunycode = ascii.split('.').some((label) => label.startsWith('xn--') && domainToUnicode(label) === label);
  if (ascii === '' || badPunycode || !HOSTNAME.test(ascii) || /(?:^|\.)[0-9]+$/.test(ascii)) return { ok: false, reason: `${shown} is not a domain name` };
  if (ascii.length > MAX_DOMAIN) return { ok: false, reason: `${shown} is longer than ${MAX_DOMAIN} characters` };
  const registrable = getDomain(ascii, { extractHostname: false }) ?? ascii;
  if (registrable !== ascii) {
    return { ok: false, reason: `${ascii} is not a registrable domain: its scans are ranked under ${registrable}` };
  }
  return { ok: true, domain: ascii };
}

/** One spelling per address: the URL parser's (IPv6 compressed and lower case, IPv4 dotted decimal). */
function canonicalAddress(host: string): string {
  return new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}/`).hostname.replace(/^\[|\]$/g, '');
}

/** The scanner's isPublicAddress, loaded on first use: the scan engine takes a second to load, and a CLI's usage
 * errors (which read domains) come before anything heavy is loaded. */
let isPublicAddress: ((address: string) => boolean) | null = null;
function scannerRule(): (address: string) => boolean {
  isPublicAddress ??= (require('@arl/scanner') as typeof import('@arl/scanner')).isPublicAddress;
  return isPublicAddress;
}

const PRIVATE_SCANS = 'scans reach public addresses only (SCAN_ALLOW_PRIVATE_NETWORKS allows private, loopback and link-local ones, for tests and demos)';

/**
 * Why no scan could reach a normalized company domain (an address that is not public, a name under `localhost`),
 * or null. With private scans allowed (tests, demos) every domain is reachable, as for the scans themselves.
 */
export function unreachableDomain(domain: string, allowPrivateNetworks: boolean): string | null {
  if (allowPrivateNetworks) return null;
  if (isIP(domain) !== 0) return scannerRule()(domain) ? null : `${domain} is not a public address: ${PRIVATE_SCANS}`;
  if (domain === 'localhost' || domain.endsWith('.localhost')) return `${domain} names this machine (localhost): ${PRIVATE_SCANS}`;
  return null;
}

// Characters a reader cannot see or that reorder what follows: C0 and C1 controls, DEL, zero-width and bidi
// controls, the BOM, the replacement character, lone surrogates.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text of a list quoted in a message: in double quotes, cut at `max` characters, its invisible characters escaped. */
export function quoted(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return `"${cut.replace(/["\\]/g, (c) => `\\${c}`).replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

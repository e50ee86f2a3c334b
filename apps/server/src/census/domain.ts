// A company's domain as an operator writes it -> the key the service stores and operation 3 reads
// (`/v1/leaderboard/companies/{domain}`, looked up in lower case). Lower case, IDN to ASCII (node:url's
// domainToASCII, the WHATWG rules the URL parser applies to a scanned URL), no root dot, a URL reduced to its host.
//
// A company is the registrable domain its scans are ranked under (scans/target.ts: the Public Suffix List through
// tldts), so `blog.example.com` is refused rather than stored: no scan would ever reach it (a scan of
// https://blog.example.com ends on example.com's row).
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { normalizeTarget } from '../scans/target';

export type DomainResult = { ok: true; domain: string } | { ok: false; reason: string };

/** The database column holds 253 characters: the longest DNS name. */
export const MAX_DOMAIN = 253;
const HOSTNAME = /^(?!-)[a-z0-9-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export function normalizeCompanyDomain(raw: string): DomainResult {
  const text = raw.trim();
  if (text === '') return { ok: false, reason: 'the domain is empty' };
  if (text.length > 2048) return { ok: false, reason: 'the domain is longer than 2,048 characters' };
  const shown = JSON.stringify(text.length > 80 ? `${text.slice(0, 79)}…` : text);
  let host = text;
  if (isIP(text.replace(/^\[|\]$/g, '')) === 0 && /[/?#:@\\]/.test(text)) {
    // A URL (with or without its scheme) stands for its host.
    let url: URL;
    try {
      url = new URL(SCHEME.test(text) ? text : `http://${text}`);
    } catch {
      return { ok: false, reason: `${shown} is neither a domain name nor a URL` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `${shown} is a ${url.protocol.slice(0, -1)} URL, not a web address` };
    if (url.username || url.password) return { ok: false, reason: `${shown} carries credentials` };
    host = url.hostname;
  }
  host = host.replace(/^\[|\]$/g, '');
  if (host.endsWith('.') && !host.endsWith('..')) host = host.slice(0, -1);
  if (isIP(host) !== 0) {
    // One spelling per address: the URL parser's (IPv6 compressed and lower case).
    const canonical = new URL(`http://${isIP(host) === 6 ? `[${host}]` : host}/`).hostname.replace(/^\[|\]$/g, '');
    return { ok: true, domain: canonical };
  }
  const ascii = domainToASCII(host.toLowerCase());
  if (ascii === '' || !HOSTNAME.test(ascii)) return { ok: false, reason: `${shown} is not a domain name` };
  if (ascii.length > MAX_DOMAIN) return { ok: false, reason: `${shown} is longer than ${MAX_DOMAIN} characters` };
  const target = normalizeTarget(`http://${ascii}/`);
  const registrable = target.ok ? target.value.domain : ascii;
  if (registrable !== ascii) {
    return { ok: false, reason: `${ascii} is not a registrable domain: its scans are ranked under ${registrable}` };
  }
  return { ok: true, domain: ascii };
}

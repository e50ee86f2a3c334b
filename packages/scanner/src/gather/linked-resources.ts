import { declaredPayments } from '../checks/payment-signals';
import { parseJsonObject } from '../util/json';
import { parseLinkHeader } from '../util/link-header';
import { httpUrl, pathOf, sameSite } from '../util/url';
import type { Artifacts, FetchedDoc } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

/** Bounds on the extra requests a scan makes for payments and WebMCP: a site cannot make us crawl it. */
export const MAX_LINKED_PAYMENT_PROBES = 3;
export const MAX_SCRIPTS = 3;
/** Only this much of each script is searched (a bundle's registrations are rarely past it). */
export const MAX_SCRIPT_CHARS = 512 * 1024;

export const WELL_KNOWN_X402 = '/.well-known/x402';
export const WELL_KNOWN_ACCEPT = 'application/json,*/*;q=0.5';

/**
 * Paid resources the site points to, probed with one GET each for a 402: the resources of its x402 discovery document
 * (x402scan's /.well-known/x402 {version, resources}), GET operations its OpenAPI marks with x-payment-info, and API
 * links on its home page. Same site only (registrable domain), deduplicated, at most MAX_LINKED_PAYMENT_PROBES.
 */
export async function probeLinkedPayments(fetcher: DocFetcher, a: Artifacts): Promise<FetchedDoc[]> {
  const discovery = await fetcher.get(new URL(WELL_KNOWN_X402, a.origin).href, { headers: { accept: WELL_KNOWN_ACCEPT } });
  const listed = discovery.status === 200 ? (parseJsonObject(discovery.body)?.resources ?? []) : [];
  const fromDiscovery = Array.isArray(listed) ? listed.filter((r): r is string => typeof r === 'string' && !r.includes('{')).map((r) => httpUrl(r, a.origin)) : [];
  const fromOpenApi = declaredPayments(a)
    .filter((d) => d.method === 'GET' && !d.path.includes('{'))
    .map((d) => httpUrl(d.path, a.origin));
  const base = a.home?.finalUrl ?? a.targetUrl;
  const apiLink = (href: string): boolean => /^\/api(\/|$)/i.test(pathOf(href));
  const fromHome = [
    ...parseLinkHeader(a.home?.headers.link ?? '', base).map((l) => l.href),
    ...(a.homeHtml?.links ?? []).map((l) => l.href),
  ].filter(apiLink);
  const already = new Set([a.targetUrl, a.home?.finalUrl, a.paymentProbe?.url].filter(Boolean));
  const candidates = [...new Set([...fromDiscovery, ...fromOpenApi, ...fromHome])]
    .filter((u) => u !== null && sameSite(u, a.origin) && !already.has(u))
    .slice(0, MAX_LINKED_PAYMENT_PROBES) as string[];
  return Promise.all(candidates.map((u) => fetcher.get(u, { headers: { accept: 'application/json' } })));
}

/** Same-origin scripts the home page loads, at most MAX_SCRIPTS, for WebMCP registrations made from script files. */
export async function fetchPageScripts(fetcher: DocFetcher, a: Artifacts): Promise<FetchedDoc[]> {
  const urls = [...new Set(a.homeHtml?.scriptSrcs ?? [])].filter((u) => {
    try {
      return new URL(u).origin === a.origin;
    } catch {
      return false;
    }
  });
  const docs = await Promise.all(urls.slice(0, MAX_SCRIPTS).map((u) => fetcher.get(u, { headers: { accept: 'text/javascript,application/javascript,*/*;q=0.5' } })));
  return docs.map((d) => (d.body.length > MAX_SCRIPT_CHARS ? { ...d, body: d.body.slice(0, MAX_SCRIPT_CHARS) } : d));
}

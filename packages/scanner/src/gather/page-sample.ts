import { summarizeHtml, type HtmlSummary } from '../util/html-summary';
import { parseRobots } from '../util/robots';
import type { Artifacts, FetchedDoc } from './artifacts';
import type { DocFetcher } from './doc-fetcher';
import { MARKDOWN_ACCEPT } from './markdown-samples';
import { browserUserAgent, HTML_ACCEPT } from './user-agents';

/** Pages a scan samples by default, the home page included (SCAN_MAX_PAGES). */
export const DEFAULT_MAX_PAGES = 10;
/** Requests the sample keeps open to the site at once: a polite crawler's pace, inside the scan budget. */
export const SAMPLE_CONCURRENCY = 2;
/** Fewer pages than this is a thin sample: page-level checks say so and give at most a warning. */
export const MIN_SAMPLE = 3;

export interface SampledPage {
  doc: FetchedDoc;
  html: HtmlSummary | null;
}

/** Paths that are files, not pages, whatever a sitemap or a link says. */
const NOT_A_PAGE = /\.(png|jpe?g|gif|svg|webp|ico|css|js|mjs|json|xml|txt|md|pdf|zip|gz|mp4|mp3|woff2?)$/i;

/** Our product token, as robots.txt groups name it. */
export function robotsToken(userAgent: string): string {
  return userAgent.split('/')[0].trim();
}

/**
 * The pages to sample besides the home page: the sitemap's first, then the home page's same-origin links, in order,
 * without duplicates, files or anything robots.txt disallows for our agent.
 */
export function pageCandidates(a: Artifacts, limit: number, userAgent: string): string[] {
  if (limit <= 0) return [];
  const rules = a.robots?.status === 200 ? parseRobots(a.robots.finalUrl ?? a.robots.url, a.robots.body) : null;
  const token = robotsToken(userAgent);
  const home = new Set([a.targetUrl, a.home?.finalUrl].filter((u): u is string => Boolean(u)).map(withoutHash));
  const picked: string[] = [];
  const consider = (raw: string): void => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return;
    }
    url.hash = '';
    if (url.origin !== a.origin || NOT_A_PAGE.test(url.pathname) || home.has(url.href) || picked.includes(url.href)) return;
    if (rules && !rules.isAllowed(url.href, token)) return;
    picked.push(url.href);
  };
  for (const url of sitemapPageUrls(a, limit * 3)) if (picked.length < limit) consider(url);
  for (const link of a.homeHtml?.links ?? []) if (picked.length < limit) consider(link.href);
  return picked;
}

/** Same-origin page URLs from the first readable sitemap (no sitemap-index recursion), in sitemap order. */
export function sitemapPageUrls(a: Artifacts, limit: number): string[] {
  const urls: string[] = [];
  for (const sitemap of a.sitemaps) {
    if (sitemap.status !== 200 || /<sitemapindex[\s>]/i.test(sitemap.body)) continue;
    for (const match of sitemap.body.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/gi)) {
      const raw = match[1].replace(/&amp;/g, '&');
      try {
        const url = new URL(raw);
        if (url.origin !== a.origin || url.href === a.targetUrl || url.href === a.home?.finalUrl || urls.includes(url.href)) continue;
        urls.push(url.href);
      } catch {
        // a malformed <loc> is skipped
      }
      if (urls.length >= limit) return urls;
    }
    if (urls.length > 0) return urls;
  }
  return urls;
}

/**
 * Fetches each page as the home page was fetched (a browser's Accept, our name in the User-Agent), then asks it for
 * markdown; two pages at a time, so the sample never has more than two requests open to the site.
 */
export async function samplePages(fetcher: DocFetcher, urls: readonly string[], userAgent: string): Promise<Array<{ page: SampledPage; markdown: FetchedDoc }>> {
  return mapLimit(urls, SAMPLE_CONCURRENCY, async (url) => {
    const doc = await fetcher.get(url, { headers: { 'user-agent': browserUserAgent(userAgent), accept: HTML_ACCEPT } });
    const html = doc.status !== null && doc.status < 400 && /html/i.test(doc.contentType ?? '') ? summarizeHtml(doc.body, doc.finalUrl ?? doc.url) : null;
    const markdown = await fetcher.get(url, { headers: { accept: MARKDOWN_ACCEPT } });
    return { page: { doc, html }, markdown };
  });
}

/** Runs `work` over the items with at most `limit` at once, keeping their order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function withoutHash(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

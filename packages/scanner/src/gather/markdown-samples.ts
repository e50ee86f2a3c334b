import type { Artifacts, FetchedDoc } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

/** Pages besides the home page asked for markdown: enough to tell a site-wide setup from a one-page one, few enough to stay cheap. */
export const MAX_MARKDOWN_SAMPLES = 3;
export const MARKDOWN_ACCEPT = 'text/markdown, text/plain;q=0.5';

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

export async function sampleMarkdownPages(fetcher: DocFetcher, a: Artifacts): Promise<FetchedDoc[]> {
  return Promise.all(sitemapPageUrls(a, MAX_MARKDOWN_SAMPLES).map((u) => fetcher.get(u, { headers: { accept: MARKDOWN_ACCEPT } })));
}

// sitemap.xml (sitemaps.org): the web app's pages (leaderboard, methodology, scan form) and every ranked company's
// page with the date of its latest scan. Only pages: documents for agents are announced by robots.txt, the Link
// header and llms.txt, and the API by its catalog. Company pages come from the leaderboard
// service (the same ranked snapshot operation 1 answers from), paged through like any client would.
import type { LeaderboardService } from '../leaderboard/service';
import type { ServiceFacts } from './service-facts';

/** The web app's routes (apps/web): the pages worth indexing. */
export const WEB_PAGES = ['/', '/methodology', '/scan'];
export const companyPagePath = (domain: string): string => `/companies/${encodeURIComponent(domain)}`;

const PAGE = 100;
const MAX_URLS = 50_000; // the sitemaps.org limit per file

export async function sitemapXml(facts: ServiceFacts, leaderboard: LeaderboardService): Promise<string> {
  const base = facts.leaderboard.base;
  const urls: Array<{ loc: string; lastmod?: string }> = WEB_PAGES.map((path) => ({ loc: `${base}${path}` }));
  let cursor: string | undefined;
  do {
    const page = await leaderboard.list({ limit: PAGE, cursor });
    for (const entry of page.items) urls.push({ loc: `${base}${companyPagePath(entry.company.domain)}`, lastmod: entry.scannedAt });
    cursor = page.nextCursor ?? undefined;
  } while (cursor && urls.length < MAX_URLS);
  const body = urls
    .slice(0, MAX_URLS)
    .map((u) => `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

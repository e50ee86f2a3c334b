// sitemap.xml (sitemaps.org): the web app's pages (leaderboard, state of readiness, methodology, scan form) and every
// curated company's page (each is readable, scanned or not) with the date of its latest scan. Only pages: documents for agents are
// announced by robots.txt, the Link header and llms.txt, and the API by its catalog. Community companies (created
// by anyone's scan) are left out, as operation 3 leaves them out without community=include.
import type { LeaderboardService } from '../leaderboard/service';
import type { ServiceFacts } from './service-facts';

/** The web app's routes (apps/web): the pages worth indexing. */
export const WEB_PAGES = ['/', '/stats', '/methodology', '/scan'];
export const companyPagePath = (domain: string): string => `/companies/${encodeURIComponent(domain)}`;

const MAX_URLS = 50_000; // the sitemaps.org limit per file

export async function sitemapXml(facts: ServiceFacts, leaderboard: LeaderboardService): Promise<string> {
  const base = facts.leaderboard.base;
  const urls: Array<{ loc: string; lastmod?: string }> = WEB_PAGES.map((path) => ({ loc: `${base}${path}` }));
  for (const page of await leaderboard.companyPages(MAX_URLS - urls.length)) {
    urls.push({ loc: `${base}${companyPagePath(page.domain)}`, lastmod: page.scannedAt?.toISOString() });
  }
  const body = urls
    .slice(0, MAX_URLS)
    .map((u) => `  <url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ''}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

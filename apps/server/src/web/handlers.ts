// The web pages' operations (tag `web` in openapi/leaderboard.yaml): each asks @arl/web for HTML or Markdown, as
// the request's Accept header prefers. A failed API read becomes the same error the API would answer, so the one
// error handler renders it as an error page (see error-pages.ts).
import type { LeaderboardOperations } from '@arl/contract';
import { PageError, type PageFormat, type RenderedPage, type WebPages } from '@arl/web';
import type { Request } from 'express';
import { MAX_COMPARED, parseDomains } from '../compare/compare';
import { ApiError, notFound } from '../http/errors';
import type { Handlers } from '../http/operations';
import type { ResponseCache } from '../http/response-cache';

type WebOperations = Pick<LeaderboardOperations,
  | 'getLeaderboardPage' | 'getCompanyPage' | 'getJourneyPage' | 'getJourneyProgressPage' | 'getScanPage'
  | 'getScanProgressPage' | 'getMethodologyPage' | 'getWebAsset' | 'getComparePage' | 'getStatsPage'>;

/** Pages may run their own scripts and styles only; the browser talks to this host and the feedback host. */
export function pageContentSecurityPolicy(feedbackUrl: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${new URL(feedbackUrl).origin}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function formatOf(req: Request): PageFormat {
  return req.accepts(['text/html', 'text/markdown']) === 'text/markdown' ? 'markdown' : 'html';
}

export function webHandlers(pages: WebPages, feedbackUrl: string, cache?: ResponseCache): Handlers<WebOperations> {
  const csp = pageContentSecurityPolicy(feedbackUrl);
  const answer = async (render: () => Promise<RenderedPage>) => {
    let page: RenderedPage;
    try {
      page = await render();
    } catch (err) {
      if (err instanceof PageError) {
        throw new ApiError(err.status, err.code, err.message, err.retryAfterSeconds ? { 'Retry-After': String(err.retryAfterSeconds) } : {});
      }
      throw err;
    }
    return respond(page.format, page.body);
  };
  const respond = (format: PageFormat, body: string) => {
    const headers = { Vary: 'Accept', 'Content-Security-Policy': csp };
    return format === 'markdown'
      ? { status: 200 as const, text: body, type: 'text/markdown' as const, headers }
      : { status: 200 as const, html: body, headers };
  };
  return {
    async getLeaderboardPage({ req, query }) {
      // Kept until the ranking changes when it shows nothing else (its fresh-start variant, which counts scans, is
      // never kept), in the response cache under the key of its URL and format: a kept page is byte for byte what
      // rendering it again would give.
      const format = formatOf(req);
      const kept = cache?.page(format, req.originalUrl);
      if (kept !== undefined) return respond(format, kept);
      // Taken before rendering, so a change during the render leaves the page stale.
      const before = cache?.currentVersion() ?? null;
      return answer(async () => {
        const page = await pages.leaderboard(req, {
          q: query.q, category: query.category, sort: query.sort, order: query.order || undefined, community: query.community, cursor: query.cursor, limit: query.limit,
        }, format);
        if (page.rankingOnly) cache?.storePage(format, req.originalUrl, before, page.body);
        return page;
      });
    },
    getCompanyPage: ({ req, path, query }) => answer(() => pages.company(req, path.domain, query.community === 'include', formatOf(req))),
    getJourneyPage: ({ req, path, query }) => answer(() => pages.journeyStart(req, path.domain, query.community === 'include', formatOf(req))),
    getJourneyProgressPage: ({ req, path }) => answer(() => pages.journey(req, path.journeyId, formatOf(req))),
    getScanPage: ({ req }) => answer(() => pages.scanForm(formatOf(req))),
    getScanProgressPage: ({ req, path, query }) => answer(() => pages.scan(req, path.scanId, query.joined === '1', formatOf(req))),
    getMethodologyPage: ({ req }) => answer(() => pages.methodology(req, formatOf(req))),
    getStatsPage: ({ req, query }) => answer(() => pages.stats(req, { category: query.category, community: query.community }, formatOf(req))),
    getComparePage: ({ req, query }) => {
      // The form's `add` joins the list (its URL is the comparison); the page shows at most the first 4.
      const domains = parseDomains([query.domains, query.add].filter(Boolean).join(',')).slice(0, MAX_COMPARED);
      return answer(() => pages.compare(req, domains, query.community === 'include', formatOf(req)));
    },
    async getWebAsset({ path }) {
      const asset = pages.assets.get(path.file);
      if (!asset) throw notFound(`No asset ${JSON.stringify(path.file)}.`);
      return {
        status: 200,
        text: asset.body.toString('utf8'),
        type: asset.type,
        headers: { 'Cache-Control': 'public, max-age=31536000, immutable' },
      };
    },
  };
}

// The web pages as functions: each one reads what it needs through @arl/client (the same public client any
// frontend uses, pointed wherever the host says the API is), then renders HTML or Markdown. Failures of the API come back as PageError, which the host turns into its error page.
import type { LeaderboardClient } from '@arl/client';
import type { LeaderboardQuery, PageData, PagePayload, StatsQuery } from '../shared/page-data';
import { loadAssets, type BuiltAssets } from './assets';
import { headFor } from './head';
import { toMarkdown } from './markdown';
import { renderDocument } from './render';
import { badgeHref, companyHref, compareHref, statsHref } from '../shared/urls';

export type { LeaderboardQuery, PageData, StatsQuery } from '../shared/page-data';
export { loadAssets, type BuiltAssets, type Asset } from './assets';

export type PageFormat = 'html' | 'markdown';

export interface RenderedPage {
  status: number;
  /** text/html or text/markdown, as asked. */
  format: PageFormat;
  body: string;
  /** True when the page shows nothing but the ranking and the categories (a host may keep it until they change). */
  rankingOnly?: boolean;
}

/** An answer of the API that a page cannot show: the host renders its error page with the same status and code. */
export class PageError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfterSeconds: number | null = null) {
    super(message);
  }
}

export interface WebPagesOptions {
  /** Reads for the server render: the client to use for one page request. */
  api: (request: ApiRequestContext) => LeaderboardClient;
  /** The leaderboard host as users reach it (canonical links). */
  publicUrl: string;
  /** The feedback host as browsers reach it ("this verdict is wrong"). */
  feedbackUrl: string;
  /** Built browser files (default: this package's dist/client). */
  assets?: BuiltAssets;
  /** Same-origin scripts the host adds to every page (for example its WebMCP tools). */
  hostScripts?: string[];
}

/** Whatever the host needs to pick the client of one page request (for example the address it was reached on). */
export type ApiRequestContext = unknown;

export interface WebPages {
  assets: BuiltAssets;
  leaderboard(ctx: ApiRequestContext, query: LeaderboardQuery, format: PageFormat): Promise<RenderedPage>;
  company(ctx: ApiRequestContext, domain: string, community: boolean, format: PageFormat): Promise<RenderedPage>;
  journeyStart(ctx: ApiRequestContext, domain: string, community: boolean, format: PageFormat): Promise<RenderedPage>;
  journey(ctx: ApiRequestContext, journeyId: string, format: PageFormat): Promise<RenderedPage>;
  scanForm(format: PageFormat): Promise<RenderedPage>;
  scan(ctx: ApiRequestContext, scanId: string, joined: boolean, format: PageFormat): Promise<RenderedPage>;
  methodology(ctx: ApiRequestContext, format: PageFormat): Promise<RenderedPage>;
  /** The state of agent readiness: the population's statistics and the dataset's downloads. */
  stats(ctx: ApiRequestContext, query: StatsQuery, format: PageFormat): Promise<RenderedPage>;
  /** Up to 4 companies side by side; fewer than 2 known domains show the form only. */
  compare(ctx: ApiRequestContext, domains: string[], community: boolean, format: PageFormat): Promise<RenderedPage>;
  /** An error page (status, code and message as the API's error body has them). */
  error(error: { status: number; code: string; message: string; requestId: string; retryAfterSeconds: number | null }, path: string, format: PageFormat): RenderedPage;
}

const PAGE_SIZE = 50;

type ApiAnswer<T> = { data?: T; error?: { code?: string; message?: string }; response: Response };

export function createWebPages(options: WebPagesOptions): WebPages {
  const publicUrl = options.publicUrl.replace(/\/$/, '');
  const assets = options.assets ?? loadAssets();

  const render = (data: PageData, path: string, format: PageFormat, status = 200): RenderedPage => {
    if (format === 'markdown') return { status, format, body: toMarkdown(data, publicUrl) };
    const payload: PagePayload = { data, site: { feedbackUrl: options.feedbackUrl } };
    return { status, format, body: renderDocument(payload, headFor(data, publicUrl, path), publicUrl, assets, options.hostScripts) };
  };

  return {
    assets,
    async leaderboard(ctx, query, format) {
      const api = options.api(ctx);
      const view: LeaderboardQuery = {
        q: query.q || undefined,
        category: query.category || undefined,
        sort: query.sort,
        order: query.order || undefined,
        community: query.community,
        cursor: query.cursor,
        limit: query.limit,
      };
      const [list, categories] = await Promise.all([
        api.GET('/v1/leaderboard', { params: { query: { ...view, limit: view.limit ?? PAGE_SIZE } } }).then(need),
        api.GET('/v1/leaderboard/categories').then(need),
      ]);
      // The fresh-start story only matters when nothing at all is listed.
      const coverage = list.total === 0 && !view.q && !view.category ? await api.GET('/v1/leaderboard/coverage').then(need) : null;
      return { ...render({ page: 'leaderboard', query: view, list, categories: categories.items, coverage }, '/', format), rankingOnly: coverage === null };
    },
    async company(ctx, domain, community, format) {
      refuseDotSegment(domain);
      const api = options.api(ctx);
      const query = community ? { community: 'include' as const } : {};
      const company = await api.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query } }).then(need);
      const scored = company.score !== null;
      const [report, history, changes, moved, disputes] = await Promise.all([
        scored ? api.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain }, query } }).then(optional) : null,
        scored ? api.GET('/v1/leaderboard/companies/{domain}/history', { params: { path: { domain }, query: { ...query, days: 90 } } }).then(optional) : null,
        scored ? api.GET('/v1/leaderboard/companies/{domain}/check-changes', { params: { path: { domain }, query: { ...query, days: 90 } } }).then(optional) : null,
        scored ? api.GET('/v1/leaderboard/companies/{domain}/check-changes', { params: { path: { domain }, query: { ...query, days: 7 } } }).then(optional) : null,
        api.GET('/v1/leaderboard/companies/{domain}/disputes', { params: { path: { domain: company.domain } } }).then(need),
      ]);
      const badge = { image: `${publicUrl}${badgeHref(company.domain, community)}`, page: `${publicUrl}${companyHref(company.domain, community)}` };
      return render({ page: 'company', company, report, history, changes, moved, badge, community, disputes: disputes.items }, '', format);
    },
    async journeyStart(ctx, domain, community, format) {
      refuseDotSegment(domain);
      const api = options.api(ctx);
      const company = await api.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query: community ? { community: 'include' } : {} } }).then(need);
      return render({ page: 'journey', domain: company.domain, community, companyName: company.name, journey: null }, `/companies/${encodeURIComponent(company.domain)}/journey${community ? '?community=include' : ''}`, format);
    },
    async journey(ctx, journeyId, format) {
      const api = options.api(ctx);
      const journey = await api.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId } } }).then(need);
      return render({ page: 'journey', domain: journey.domain, community: true, companyName: journey.domain, journey }, `/journeys/${journeyId}`, format);
    },
    async scanForm(format) {
      return render({ page: 'scan', scan: null, joined: false }, '/scan', format);
    },
    async scan(ctx, scanId, joined, format) {
      const api = options.api(ctx);
      const scan = await api.GET('/v1/leaderboard/scans/{scanId}', { params: { path: { scanId } } }).then(need);
      // An ended, scored scan's checks let the page offer "a verdict of this scan is wrong".
      const report = scan.state === 'ended' && scan.ending === 'finished'
        ? await api.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId } } }).then(optional)
        : null;
      return render({ page: 'scan', scan, joined, report }, `/scans/${scanId}`, format);
    },
    async methodology(ctx, format) {
      const api = options.api(ctx);
      const methodology = await api.GET('/v1/leaderboard/methodology').then(need);
      return render({ page: 'methodology', methodology }, '/methodology', format);
    },
    async stats(ctx, query, format) {
      const api = options.api(ctx);
      // Empty values (a form sent without JavaScript) mean "not set".
      const view: StatsQuery = { category: query.category || undefined, community: query.community };
      const stats = await api.GET('/v1/leaderboard/stats', { params: { query: view } }).then(need);
      return render({ page: 'stats', query: view, stats }, statsHref(view), format);
    },
    async compare(ctx, domains, community, format) {
      const path = domains.length > 0 ? compareHref(domains, community) : '/compare';
      if (domains.length < 2) return render({ page: 'compare', domains, community, comparison: null }, path, format);
      const api = options.api(ctx);
      const comparison = await api
        .GET('/v1/leaderboard/compare', { params: { query: { domains: domains.join(','), ...(community ? { community: 'include' as const } : {}) } } })
        .then(need);
      return render({ page: 'compare', domains, community, comparison }, path, format);
    },
    error(error, path, format) {
      return render({ page: 'error', ...error }, path, format, error.status);
    },
  };
}

/**
 * `.` and `..` are dot segments: fetch resolves `/v1/leaderboard/companies/..` to `/v1/leaderboard/` (percent-encoded
 * too, by the URL standard), so the page would read the leaderboard as a company. No company has such a domain.
 */
function refuseDotSegment(domain: string): void {
  if (/^\.{1,2}$/.test(domain)) throw new PageError(404, 'not_found', `No company with domain ${JSON.stringify(domain)}.`);
}

function need<T>(answer: ApiAnswer<T>): T {
  if (answer.data !== undefined) return answer.data;
  const wait = Number(answer.response.headers.get('retry-after'));
  throw new PageError(answer.response.status, answer.error?.code ?? 'internal_error', answer.error?.message ?? `HTTP ${answer.response.status}`, wait > 0 ? wait : null);
}

function optional<T>(answer: ApiAnswer<T>): T | null {
  if (answer.response.status === 404) return null;
  return need(answer);
}

// Links between pages. The leaderboard URL carries its whole view, so a copied link reproduces it.
import type { LeaderboardQuery, StatsQuery } from './page-data';

export function leaderboardHref(query: LeaderboardQuery): string {
  const params = new URLSearchParams();
  if (query.q) params.set('q', query.q);
  if (query.category) params.set('category', query.category);
  if (query.sort && query.sort !== 'score') params.set('sort', query.sort);
  if (query.order) params.set('order', query.order);
  if (query.community) params.set('community', query.community);
  if (query.limit) params.set('limit', String(query.limit));
  if (query.cursor) params.set('cursor', query.cursor);
  const search = params.toString();
  return search ? `/?${search}` : '/';
}

export function companyHref(domain: string, community = false): string {
  return `/companies/${encodeURIComponent(domain)}${community ? '?community=include' : ''}`;
}

export function journeyHref(domain: string, community = false): string {
  return `/companies/${encodeURIComponent(domain)}/journey${community ? '?community=include' : ''}`;
}

export const scanPageHref = (id: string) => `/scans/${encodeURIComponent(id)}`;
export const journeyPageHref = (id: string) => `/journeys/${encodeURIComponent(id)}`;

export function compareHref(domains: string[], community = false): string {
  const params = new URLSearchParams({ domains: domains.join(',') });
  if (community) params.set('community', 'include');
  return `/compare?${params.toString().replace(/%2C/g, ',')}`;
}

export function badgeHref(domain: string, community = false): string {
  return `/v1/leaderboard/companies/${encodeURIComponent(domain)}/badge.svg${community ? '?community=include' : ''}`;
}
/** Where the pages' "this verdict is wrong" form posts (postDisputeForm). */
export const disputeFormAction = (domain: string) => `/companies/${encodeURIComponent(domain)}/disputes`;

/** The stats page of a population. */
export function statsHref(query: StatsQuery): string {
  const params = new URLSearchParams();
  if (query.category) params.set('category', query.category);
  if (query.community) params.set('community', query.community);
  const search = params.toString();
  return search ? `/stats?${search}` : '/stats';
}

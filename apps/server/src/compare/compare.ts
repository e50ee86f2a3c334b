// Side by side: each company's detail as getCompany answers it, then one row per measure (score, rank, each layer,
// each check) with the domains ahead on it. Reads go through the leaderboard service (its snapshot and kept scan
// details), so a comparison costs what 2 to 4 company reads cost.
import type { LeaderboardSchemas } from '@arl/contract';
import { badRequest, notFound } from '../http/errors';
import type { LeaderboardService } from '../leaderboard/service';

type Comparison = LeaderboardSchemas['Comparison'];
type CompanyDetail = LeaderboardSchemas['CompanyDetail'];

export const MIN_COMPARED = 2;
export const MAX_COMPARED = 4;

const normalized = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, '');

/** `a.com, B.com,a.com,` -> ['a.com', 'b.com']: trimmed, lowercased, without a root dot, empty entries and duplicates dropped (the page's form is lenient). */
export function parseDomains(raw: string): string[] {
  return [...new Set(raw.split(',').map(normalized).filter((d) => d.length > 0))];
}

export async function compareCompanies(leaderboard: LeaderboardService, raw: string, includeCommunity: boolean): Promise<Comparison> {
  // The API keeps an entry that normalizes to nothing (`.`): it names no company (404), it is not a shorter list.
  const domains = [...new Set(raw.split(',').map(normalized))];
  if (domains.length < MIN_COMPARED || domains.length > MAX_COMPARED) {
    throw badRequest(`Compare ${MIN_COMPARED} to ${MAX_COMPARED} different domains (got ${domains.length}).`, 'invalid_domains');
  }
  const companies = await Promise.all(domains.map((domain) => leaderboard.company(domain, includeCommunity)));
  const missing = domains.filter((_, i) => companies[i] === null);
  if (missing.length > 0) {
    throw notFound(`No company with domain ${missing.map((d) => JSON.stringify(d)).join(', ')}${includeCommunity ? '' : ' (community companies need community=include)'}.`);
  }
  return comparisonOf(companies as CompanyDetail[]);
}

export function comparisonOf(companies: CompanyDetail[]): Comparison {
  const domains = companies.map((c) => c.domain);
  const leaders = (values: Array<number | null>, better: 'higher' | 'lower'): string[] => {
    const known = values.filter((v): v is number => v !== null);
    if (known.length === 0) return [];
    const best = better === 'higher' ? Math.max(...known) : Math.min(...known);
    const ahead = domains.filter((_, i) => values[i] === best);
    // Everyone equal (and everyone has a value): nobody is ahead.
    return ahead.length === domains.length ? [] : ahead;
  };
  const row = (values: Array<number | null>, better: 'higher' | 'lower' = 'higher') => ({ values, leaders: leaders(values, better) });

  const layerIds: Array<{ id: LeaderboardSchemas['LayerId']; weight: number }> = [];
  for (const company of companies) {
    for (const layer of company.layers ?? []) if (!layerIds.some((l) => l.id === layer.id)) layerIds.push({ id: layer.id, weight: layer.weight });
  }
  // Checks in the catalog order of the first company that ran each (every scan lists them in catalog order).
  const checks: Array<{ id: string; name: string; layer: LeaderboardSchemas['LayerId']; points: number }> = [];
  for (const company of companies) {
    for (const check of company.checks ?? []) {
      if (!checks.some((c) => c.id === check.id)) checks.push({ id: check.id, name: check.name, layer: check.layer, points: check.points });
    }
  }
  return {
    companies,
    score: row(companies.map((c) => c.score)),
    rank: row(companies.map((c) => c.rank), 'lower'),
    layers: layerIds.map(({ id, weight }) => ({
      id, weight, ...row(companies.map((c) => c.layers?.find((l) => l.id === id)?.score ?? null)),
    })),
    checks: checks.map((check) => {
      const results = companies.map((c) => c.checks?.find((x) => x.id === check.id) ?? null);
      // A check that did not apply (or could not run) for a company is not a race that company lost; with fewer than
      // two companies in the race nobody is ahead.
      const compared = results.map((r) => (r && r.status !== 'not_applicable' && r.status !== 'couldnt_check' ? r.earned : null));
      return {
        ...check,
        statuses: results.map((r) => r?.status ?? null),
        values: results.map((r) => r?.earned ?? null),
        leaders: compared.filter((v) => v !== null).length < 2 ? [] : leaders(compared, 'higher'),
      };
    }),
  };
}

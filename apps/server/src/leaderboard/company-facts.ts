// The facts of a few companies that the live index needs (scored-company.ts CompanyFacts), in ONE statement: the
// company, its category and its score history from the week boundary on. A scan's end reads them inside its own
// transaction (so what it publishes is exactly what it committed); a process that hears only ids reads them here.
import { WEEK_MS, type HistoryRow } from './ranking';
import { SCORED_COLUMNS, storedFactsOf, type CompanyFacts } from './scored-company';

/** History a little older than a week is included, so a receiver whose clock runs a little behind still has it. */
const HISTORY_SLACK_MS = 24 * 60 * 60 * 1000;

/** Scored companies with their categories; a statement adds its own condition with AND. */
export const SCORED_FROM = `FROM companies c
  LEFT JOIN categories k ON k.id = c.category_id
  WHERE c.score IS NOT NULL AND c.scanned_at IS NOT NULL`;

const FACTS_SQL = `
  SELECT ${SCORED_COLUMNS}, c.change_version::float8 AS change_version,
         (SELECT round(extract(epoch FROM min(h.recorded_at)) * 1000)::float8 FROM score_history h WHERE h.company_id = c.id) AS first_ms,
         (SELECT COALESCE(json_agg(json_build_array(h.score, round(extract(epoch FROM h.recorded_at) * 1000)::float8) ORDER BY h.recorded_at, h.id), '[]')::text
            FROM score_history h
            WHERE h.company_id = c.id
              AND h.recorded_at >= COALESCE((SELECT max(p.recorded_at) FROM score_history p WHERE p.company_id = c.id AND p.recorded_at <= $2::timestamptz), '-infinity'::timestamptz)) AS history
  ${SCORED_FROM} AND c.id = ANY(string_to_array($1, ',')::uuid[])`;

interface FactsRow {
  change_version: number;
  first_ms: number | null;
  history: string;
}

/** The statement and its parameters for these companies' facts as of `now` (unscored companies are left out). */
export function companyFactsQuery(ids: string[], now: Date): { sql: string; params: [string, string] } {
  return { sql: FACTS_SQL, params: [ids.join(','), new Date(now.getTime() - WEEK_MS - HISTORY_SLACK_MS).toISOString()] };
}

export function toCompanyFacts(row: unknown): CompanyFacts {
  const r = row as FactsRow;
  return {
    ...storedFactsOf(r),
    history: (JSON.parse(r.history) as HistoryRow[]).map(([score, at]) => [Number(score), Number(at)]),
    firstRecordedAt: r.first_ms === null ? null : Number(r.first_ms),
    changeVersion: Number(r.change_version),
  };
}

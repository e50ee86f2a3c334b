// Counts the curated companies by where their scanning stands, in two queries whatever the table sizes.
import type { Db } from '@arl/db';

export interface CoverageCounts {
  curated: number;
  scored: number;
  queued: number;
  running: number;
  unscored: number;
  neverScanned: number;
  community: number;
}

export interface CauseCount {
  ending: 'finished' | 'failed' | 'interrupted' | 'sign_in_required';
  cause: string;
  companies: number;
}

// Each curated company with its latest scan (by creation), if any. The company's own host names are taken out of the
// cause so that the same reason counts once ("The domain … could not be resolved"): whole names only, the domain
// or any subdomain with an optional port (`azure.microsoft.com`, `www.example.com:8443`), never the tail of a longer
// name (`x.com` inside `netflix.com`) nor the head of one (`example.com` inside `example.com.evil.net`). The domain
// is escaped character by character before it joins the pattern (a `.` in it is a dot, not any character).
const OWN_HOST = String.raw`'(?<![A-Za-z0-9.-])(?:[A-Za-z0-9-]+\.)*' || regexp_replace(c.domain, '([^A-Za-z0-9])', '\\\1', 'g') || '(?::[0-9]+)?(?![A-Za-z0-9-]|\.[A-Za-z0-9])'`;
const LATEST = `
  SELECT c.id, c.score, s.state, s.ending, regexp_replace(s.cause, ${OWN_HOST}, '…', 'gi') AS cause
  FROM companies c
  LEFT JOIN (
    SELECT DISTINCT ON (company_id) company_id, state, ending, cause
    FROM scans WHERE company_id IS NOT NULL
    ORDER BY company_id, created_at DESC
  ) s ON s.company_id = c.id
  WHERE c.source = 'curated'`;

export class CoverageRepository {
  constructor(private readonly db: Db) {}

  async counts(): Promise<CoverageCounts> {
    const [row] = await this.db.prisma.$queryRawUnsafe<Array<Record<keyof CoverageCounts, bigint | number>>>(`
      SELECT
        count(*) AS "curated",
        count(*) FILTER (WHERE score IS NOT NULL) AS "scored",
        count(*) FILTER (WHERE score IS NULL AND state = 'waiting') AS "queued",
        count(*) FILTER (WHERE score IS NULL AND state IN ('running', 'scoring')) AS "running",
        count(*) FILTER (WHERE score IS NULL AND state = 'ended') AS "unscored",
        count(*) FILTER (WHERE score IS NULL AND state IS NULL) AS "neverScanned",
        (SELECT count(*) FROM companies WHERE source = 'community' AND score IS NOT NULL) AS "community"
      FROM (${LATEST}) latest`);
    const n = (v: bigint | number) => Number(v);
    return {
      curated: n(row.curated), scored: n(row.scored), queued: n(row.queued), running: n(row.running),
      unscored: n(row.unscored), neverScanned: n(row.neverScanned), community: n(row.community),
    };
  }

  async causes(limit: number): Promise<CauseCount[]> {
    const rows = await this.db.prisma.$queryRawUnsafe<Array<{ ending: CauseCount['ending']; cause: string; companies: bigint | number }>>(`
      SELECT ending::text AS ending, cause, count(*) AS companies
      FROM (${LATEST}) latest
      WHERE score IS NULL AND state = 'ended' AND ending IS NOT NULL AND cause IS NOT NULL
      GROUP BY ending, cause
      ORDER BY count(*) DESC, cause
      LIMIT ${Math.max(1, Math.floor(limit))}`);
    return rows.map((r) => ({ ending: r.ending, cause: r.cause, companies: Number(r.companies) }));
  }
}

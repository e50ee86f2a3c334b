// The rank a company has right after a scan scored it, recorded on its history point, so a point carries the rank it
// had at that moment without replaying everyone's scores at read time. A process with a live leaderboard index
// predicts it there (O(log n), leaderboard/service.ts ranksIf) and the scan's transaction writes it
// (scans/results.ts); a process without one (a worker on its own) counts the companies ahead in SQL (ranksNow,
// O(n)) just after the commit. The order
// is the leaderboard's (leaderboard/ranking.ts compareRank): score descending, then who reached it first
// (scanned_at), then name case-insensitively, then id; over the companies' current results, as the leaderboard ranks.
import type { Db } from '@arl/db';
import type { Tx } from '../jobs/queue';

export interface RecordedRanks {
  /** Among every scored company (the `community=include` population). */
  all: number;
  /** Among scored curated companies; null when the company is a community company. */
  curated: number | null;
}

export async function ranksNow(tx: Pick<Tx, '$queryRawUnsafe'>, companyId: string): Promise<RecordedRanks | null> {
  const rows = await tx.$queryRawUnsafe<Array<{ source: string; ahead_all: number; ahead_curated: number }>>(
    `SELECT me.source::text AS source,
            count(o.id)::int AS ahead_all,
            (count(o.id) FILTER (WHERE o.source = 'curated'))::int AS ahead_curated
     FROM companies me
     LEFT JOIN companies o ON o.id <> me.id AND o.score IS NOT NULL AND o.scanned_at IS NOT NULL
       AND (o.score > me.score OR (o.score = me.score AND (o.scanned_at < me.scanned_at OR (o.scanned_at = me.scanned_at
         AND (lower(o.name) COLLATE "C" < lower(me.name) COLLATE "C"
           OR (lower(o.name) = lower(me.name) AND o.id < me.id))))))
     WHERE me.id = $1::uuid AND me.score IS NOT NULL AND me.scanned_at IS NOT NULL
     GROUP BY me.id, me.source`,
    companyId,
  );
  const row = rows[0];
  if (!row) return null;
  return { all: row.ahead_all + 1, curated: row.source === 'curated' ? row.ahead_curated + 1 : null };
}

/** Records the ranks of the history point the scan `scanId` wrote for `companyId`, counted in SQL (one UPDATE by its scan). */
export async function recordRanks(db: Db, scanId: string, companyId: string): Promise<void> {
  const ranks = await ranksNow(db.prisma, companyId);
  if (!ranks) return;
  await db.prisma.$executeRawUnsafe(
    `UPDATE score_history SET rank_all = $3::int, rank_curated = $4::int WHERE scan_id = $1::uuid AND company_id = $2::uuid`,
    scanId, companyId, ranks.all, ranks.curated,
  );
}

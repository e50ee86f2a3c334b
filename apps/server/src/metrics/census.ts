// Census progress at scrape time (server README, "Reading the census metrics"): how many curated companies were
// scanned within RESCAN_INTERVAL, how many are due and overdue, and the rate the scheduler needs against the rate
// achieved. One statement of counts on short ranges of indexes (companies (source, next_scan_at) and (source,
// scanned_at, next_scan_at), scans (ended_at)), read once for all the gauges of a scrape: 1.2 s at 1,000,000
// companies when it counted them all, a few ms now (server README). Shared state: every process reports the
// same numbers (aggregate with max(), not sum()).
import type { Db } from '@arl/db';
import { Gauge } from 'prom-client';
import type { Metrics } from './metrics';

/** A company due more than this long ago is overdue. */
export const OVERDUE_AFTER_MS = 86_400_000;
/** The window of the rate achieved. */
const RATE_WINDOW_MS = 3_600_000;
/** One read serves every gauge of one scrape. */
const READ_TTL_MS = 1000;

interface CensusCounts {
  curated: number;
  fresh: number;
  never: number;
  due: number;
  overdue: number;
  endedLastHour: number;
}

export function observeCensus(metrics: Metrics, deps: { db: Db; intervalMs: number; clock: () => Date }): void {
  const registers = [metrics.registry];
  let kept: { at: number; counts: Promise<CensusCounts> } | null = null;

  const read = async (): Promise<CensusCounts> => {
    const now = deps.clock();
    const { rows } = await deps.db.executeSql(
      // Every count reads a short range of an index but `curated` (the scheduler's last count, kept in rescan_pace;
      // counted here only before its first tick) and `fresh` (curated less never scanned less stale).
      `WITH counts AS MATERIALIZED (
         SELECT COALESCE((SELECT curated FROM rescan_pace WHERE id = 1),
                         (SELECT count(*)::int FROM companies WHERE source = 'curated')) AS curated,
                (SELECT count(*)::int FROM companies WHERE source = 'curated' AND scanned_at <= $1::timestamptz) AS stale,
                (SELECT count(*)::int FROM companies WHERE source = 'curated' AND scanned_at IS NULL) AS never,
                (SELECT count(*)::int FROM companies WHERE source = 'curated' AND next_scan_at <= $2::timestamptz) AS due,
                (SELECT count(*)::int FROM companies WHERE source = 'curated' AND next_scan_at <= $3::timestamptz) AS overdue,
                (SELECT count(*)::int FROM scans WHERE ended_at > $4::timestamptz AND origin = 'rescan') AS ended_last_hour)
       SELECT curated, GREATEST(0, curated - stale - never) AS fresh, never, due, overdue, ended_last_hour FROM counts`,
      [
        new Date(now.getTime() - deps.intervalMs), now, new Date(now.getTime() - OVERDUE_AFTER_MS),
        new Date(now.getTime() - RATE_WINDOW_MS),
      ],
    );
    const row = rows[0] as Record<string, number>;
    return {
      curated: Number(row.curated), fresh: Number(row.fresh), never: Number(row.never), due: Number(row.due),
      overdue: Number(row.overdue), endedLastHour: Number(row.ended_last_hour),
    };
  };
  const counts = (): Promise<CensusCounts> => {
    const at = Date.now();
    if (!kept || at - kept.at > READ_TTL_MS) {
      kept = { at, counts: read() };
      kept.counts.catch(() => { kept = null; });
    }
    return kept.counts;
  };
  /** A gauge set from the counts; left empty when the database does not answer (arl_database_up says so). */
  const gauge = (name: string, help: string, value: (c: CensusCounts) => number) =>
    new Gauge({
      name, help, registers,
      async collect() {
        this.reset();
        const c = await counts().catch(() => null);
        if (c) this.set(value(c));
      },
    });

  gauge('arl_census_curated_companies', 'Curated companies: the census population, as the rescan scheduler last counted them (every 5 min).', (c) => c.curated);
  gauge('arl_census_scanned_within_interval', 'Curated companies whose last scored scan is within RESCAN_INTERVAL.', (c) => c.fresh);
  gauge('arl_census_never_scanned', 'Curated companies never scored (an import not yet through its first wave, or sites that fail).', (c) => c.never);
  gauge('arl_census_due', 'Curated companies due for a scan now (next_scan_at passed).', (c) => c.due);
  gauge('arl_census_overdue', 'Curated companies due for more than a day: the scheduler is behind.', (c) => c.overdue);
  gauge('arl_census_rate_needed', 'Scans a second the census needs: curated companies / RESCAN_INTERVAL.', (c) => c.curated / (deps.intervalMs / 1000));
  gauge('arl_census_rate_achieved', 'Rescans (origin rescan) ended a second over the last hour.', (c) => c.endedLastHour / (RATE_WINDOW_MS / 1000));
}

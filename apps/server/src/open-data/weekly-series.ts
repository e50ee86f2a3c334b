// The weekly series of the statistics: for each ended ISO week (Monday 00:00 to Sunday 24:00 UTC), the population as
// it stood at the week's end: every company with its latest score recorded before that moment (score_history), that
// scan's check statuses (check_results) and grade, in the company's current source and category. One statement
// per week and scope, computed when first asked and then kept: a week that has ended does not change (history is
// only appended), so each is computed once per process, and again only after the index is loaded anew (`clear`:
// a recovery, companies removed). The current week's point is not read here: it is the live counts.
import type { Db } from '@arl/db';
import type { LeaderboardSchemas } from '@arl/contract';
import type { Population } from '../leaderboard/ranking';
import { CHECKS, checkIndex, deepFreeze, GRADES, gradeCode, share, statusCode, STATUSES, WEEKS } from './definitions';

type WeeklyPoint = LeaderboardSchemas['WeeklyPoint'];

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** How many week points are kept at most (scopes x weeks), oldest dropped first. */
const MAX_KEPT = 4_096;
const PASSED = statusCode('passed');

/** Monday 00:00 UTC of the week holding `now`. */
export function weekStart(now: Date): number {
  const day = Math.floor(now.getTime() / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * DAY_MS;
}

/** The Sunday (UTC) of the week ending at `end` (exclusive), as YYYY-MM-DD. */
export const weekEnding = (end: number): string => new Date(end - DAY_MS).toISOString().slice(0, 10);

export class WeeklySeries {
  private readonly kept = new Map<string, Promise<WeeklyPoint>>();

  constructor(private readonly db: Db) {}

  /**
   * The ended weeks before the current one (at most WEEKS - 1), oldest first, from the first week in which the
   * scope had a company.
   */
  async past(population: Population, categoryId: string | null, now: Date): Promise<WeeklyPoint[]> {
    const current = weekStart(now);
    const ends: number[] = [];
    for (let k = WEEKS - 1; k >= 1; k--) ends.push(current - (k - 1) * WEEK_MS);
    const points: WeeklyPoint[] = [];
    // One after the other: with the embedded database each statement runs on the thread that answers requests.
    for (const end of ends) points.push(await this.point(population, categoryId, end));
    const first = points.findIndex((p) => p.companies > 0);
    return first < 0 ? [] : points.slice(first);
  }

  /** Forgets every computed week (the index was loaded anew). */
  clear(): void {
    this.kept.clear();
  }

  private point(population: Population, categoryId: string | null, end: number): Promise<WeeklyPoint> {
    const key = `${population}:${categoryId ?? ''}:${end}`;
    let point = this.kept.get(key);
    if (!point) {
      point = this.compute(population, categoryId, end);
      this.kept.set(key, point);
      // A failed statement is not kept: the next read tries again.
      point.catch(() => this.kept.get(key) === point && this.kept.delete(key));
      if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
    }
    return point;
  }

  private async compute(population: Population, categoryId: string | null, end: number): Promise<WeeklyPoint> {
    const { rows } = await this.db.executeSql(
      `WITH latest AS (
         SELECT DISTINCT ON (h.company_id) h.scan_id, h.grade
         FROM score_history h JOIN companies c ON c.id = h.company_id
         WHERE h.recorded_at < $1::timestamptz
           AND ($2::boolean OR c.source = 'curated')
           AND ($3::uuid IS NULL OR c.category_id = $3::uuid)
         ORDER BY h.company_id, h.recorded_at DESC, h.id DESC)
       SELECT 'grade' AS kind, grade AS key, '' AS status, count(*)::int AS n FROM latest GROUP BY grade
       UNION ALL
       SELECT 'check', r.check_id, r.status, count(*)::int FROM latest l JOIN check_results r ON r.scan_id = l.scan_id
       GROUP BY r.check_id, r.status`,
      [new Date(end).toISOString(), population === 'all', categoryId],
    );
    const grades = new Array<number>(GRADES.length).fill(0);
    const withResult = new Array<number>(CHECKS.length).fill(0);
    const passed = new Array<number>(CHECKS.length).fill(0);
    for (const row of rows as Array<{ kind: string; key: string; status: string; n: number }>) {
      const n = Number(row.n);
      if (row.kind === 'grade') grades[gradeCode(row.key)] += n;
      else {
        const i = checkIndex(row.key);
        const status = statusCode(row.status);
        if (i < 0 || status >= STATUSES.length) continue;
        withResult[i] += n;
        if (status === PASSED) passed[i] += n;
      }
    }
    const companies = grades.reduce((a, b) => a + b, 0);
    // Frozen: every answer that shows this week shares the object (validated and serialized once).
    return deepFreeze({
      weekEnding: weekEnding(end),
      partial: false,
      companies,
      grades: GRADES.map((grade, g) => ({ grade, companies: grades[g], share: share(grades[g], companies) })),
      checks: CHECKS.map((c, i) => ({ id: c.id, companies: withResult[i], passed: passed[i], share: share(passed[i], withResult[i]) })),
    });
  }
}

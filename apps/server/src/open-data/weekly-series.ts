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
  /** Computed points by scope and week end. */
  private readonly done = new Map<string, WeeklyPoint>();
  /**
   * Per scope, the statements computing its missing weeks (one chain at a time) and until when answers wait for
   * them: the wait is the chain's, not each read's, so once a chain has run `waitMs` (minutes of statements at a
   * million companies) every read answers at once with the weeks computed so far.
   */
  private readonly running = new Map<string, { chain: Promise<void>; waitUntil: number }>();
  /** Counts `clear` calls: a chain started before one does not keep what it computes. */
  private generation = 0;
  /** Changes whenever a point is computed (an answer that left weeks out is made again). */
  version = 0;

  constructor(private readonly db: Db) {}

  /**
   * The ended weeks before the current one (at most WEEKS - 1), oldest first, from the first week in which the
   * scope had a company. Weeks not computed yet are computed (newest first, one statement after the other: with the
   * embedded database each runs on the thread that answers requests) for at most `waitMs`; weeks still missing then
   * are left out of this answer and keep being computed in the background (a first read at a large population must
   * not wait minutes). Rejects when a statement fails before the wait is over (the database is down: 503).
   */
  async past(population: Population, categoryId: string | null, now: Date, waitMs: number): Promise<{ points: WeeklyPoint[]; version: number }> {
    const current = weekStart(now);
    const ends: number[] = [];
    for (let k = WEEKS - 1; k >= 1; k--) ends.push(current - (k - 1) * WEEK_MS);
    const scope = `${population}:${categoryId ?? ''}`;
    const missing = ends.filter((end) => !this.done.has(`${scope}:${end}`)).reverse();
    if (missing.length > 0) {
      let running = this.running.get(scope);
      if (!running) {
        const generation = this.generation;
        const chain = (async () => {
          for (const end of missing) {
            const point = await this.compute(population, categoryId, end);
            if (generation !== this.generation) return;
            this.done.set(`${scope}:${end}`, point);
            this.version++;
            if (this.done.size > MAX_KEPT) this.done.delete(this.done.keys().next().value!);
          }
        })().finally(() => {
          if (this.running.get(scope) === running) this.running.delete(scope);
        });
        // A failure after the wait is over is the next read's to meet (it starts the chain again).
        chain.catch(() => undefined);
        running = { chain, waitUntil: Date.now() + waitMs };
        this.running.set(scope, running);
      }
      const wait = running.waitUntil - Date.now();
      if (wait > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([running.chain, new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]).finally(() => clearTimeout(timer));
      }
    }
    // The points and the version they are current at, read together (no await between).
    const points = ends.map((end) => this.done.get(`${scope}:${end}`)).filter((p): p is WeeklyPoint => p !== undefined);
    const first = points.findIndex((p) => p.companies > 0);
    return { points: first < 0 ? [] : points.slice(first), version: this.version };
  }

  /** Forgets every computed week (a new index, a company moved). */
  clear(): void {
    this.generation++;
    this.done.clear();
    this.running.clear();
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

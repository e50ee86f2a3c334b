// The weekly series of the statistics: for each ended ISO week (Monday 00:00 to Sunday 24:00 UTC), the population as
// it stood at the week's end: every company with its latest score recorded before that moment (score_history), that
// scan's check statuses (check_results) and grade, in the company's current source and category. The current week's
// point is not read here: it is the live counts.
//
// A week that has ended does not change (history is only appended), so each is computed once for every process and
// scope: one statement per week counts every (curated, category) group, and the counts are kept in
// `population_weeks`, where every process (and the next start) finds them. At a million companies one such statement
// runs for minutes, so a fresh database computes its 25 weeks once, in the background, newest first; after that only
// a week that has just ended is computed. A company moved to another category or source, or removed, changes past
// weeks: a trigger forgets the kept weeks (and moves an epoch that refuses a week computed before the move), and
// `clear` forgets this process's copy when the live counts see the move.
import type { Db } from '@arl/db';
import type { LeaderboardSchemas } from '@arl/contract';
import type { Population } from '../leaderboard/ranking';
import { CHECKS, checkIndex, deepFreeze, GRADES, gradeCode, share, statusCode, STATUSES, WEEKS } from './definitions';

type WeeklyPoint = LeaderboardSchemas['WeeklyPoint'];

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
/** Scope points kept at most (scopes x weeks), oldest dropped first; they are made again from the week's counts. */
const MAX_POINTS = 4_096;
const PASSED = statusCode('passed');

/**
 * One group's count in a week, as kept in `population_weeks.counts`: [curated 0|1, category id or null, 'g' (grade) |
 * 'c' (check), grade or check id, status ('' for a grade), companies].
 */
type GroupCount = [0 | 1, string | null, 'g' | 'c', string, string, number];

/** A kept week's counts as read back (PostgreSQL's driver parses jsonb; a text value is parsed here). */
const countsOf = (value: GroupCount[] | string): GroupCount[] => (typeof value === 'string' ? (JSON.parse(value) as GroupCount[]) : value);

/** Monday 00:00 UTC of the week holding `now`. */
export function weekStart(now: Date): number {
  const day = Math.floor(now.getTime() / DAY_MS);
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  return (day - ((day + 3) % 7)) * DAY_MS;
}

/** The Sunday (UTC) of the week ending at `end` (exclusive), as YYYY-MM-DD. */
export const weekEnding = (end: number): string => new Date(end - DAY_MS).toISOString().slice(0, 10);

/** The ends (exclusive, ms) of the ended weeks the series shows at `now` (at most WEEKS - 1), oldest first. */
function pastWeekEnds(now: Date): number[] {
  const current = weekStart(now);
  const ends: number[] = [];
  for (let k = WEEKS - 1; k >= 1; k--) ends.push(current - (k - 1) * WEEK_MS);
  return ends;
}

export class WeeklySeries {
  /** Each ended week's group counts, by week end (ms). */
  private readonly weeks = new Map<number, GroupCount[]>();
  /** Scope points made from them, by scope and week end. */
  private readonly points = new Map<string, WeeklyPoint>();
  /**
   * The statements reading and computing the missing weeks (one chain at a time) and until when answers wait for
   * them: the wait is the chain's, not each read's, so once a chain has run `waitMs` (minutes of statements at a
   * million companies) every read answers at once with the weeks known so far.
   */
  private running: { chain: Promise<void>; waitUntil: number } | null = null;
  /** Counts `clear` calls: a chain started before one does not keep what it computes. */
  private generation = 0;
  /** Changes whenever a week becomes known (an answer that left weeks out is made again). */
  version = 0;
  /** Weeks computed from the score history by this process (tests, metrics); weeks read back do not count. */
  computed = 0;

  constructor(private readonly db: Db) {}

  /**
   * The ended weeks before the current one (at most WEEKS - 1), oldest first, from the first week in which the
   * scope had a company. Weeks not known yet are read from `population_weeks` or computed, for at most `waitMs` from
   * the moment the chain started; weeks still missing then are left out of this answer and keep being computed in
   * the background (a first read at a large population must not wait minutes). Rejects when a statement fails
   * before the wait is over (the database is down: 503).
   */
  async past(population: Population, categoryId: string | null, now: Date, waitMs: number): Promise<{ points: WeeklyPoint[]; version: number }> {
    const ends = pastWeekEnds(now);
    if (ends.some((end) => !this.weeks.has(end))) {
      let running = this.running;
      if (!running) {
        const chain = this.fill(ends).finally(() => {
          if (this.running === running) this.running = null;
        });
        // A failure after the wait is over is the next read's to meet (it starts the chain again).
        chain.catch(() => undefined);
        running = this.running = { chain, waitUntil: Date.now() + waitMs };
      }
      const wait = running.waitUntil - Date.now();
      if (wait > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([running.chain, new Promise<void>((resolve) => (timer = setTimeout(resolve, wait)))]).finally(() => clearTimeout(timer));
      }
    }
    return this.pointsOf(population, categoryId, ends);
  }

  /**
   * `past` without waiting, when every week is known (the usual case): answered in the same turn, so that of many
   * reads after a scan's end the first makes the answer and the others find it kept (an await would let each of
   * them make its own). Undefined when a week is missing (then `past`).
   */
  known(population: Population, categoryId: string | null, now: Date): { points: WeeklyPoint[]; version: number } | undefined {
    const ends = pastWeekEnds(now);
    return ends.every((end) => this.weeks.has(end)) ? this.pointsOf(population, categoryId, ends) : undefined;
  }

  /** The known points of the scope and the version they are current at, read together (no await between). */
  private pointsOf(population: Population, categoryId: string | null, ends: number[]): { points: WeeklyPoint[]; version: number } {
    const scope = `${population}:${categoryId ?? ''}`;
    const points = ends.map((end) => this.pointOf(scope, population, categoryId, end)).filter((p): p is WeeklyPoint => p !== undefined);
    const first = points.findIndex((p) => p.companies > 0);
    return { points: first < 0 ? [] : points.slice(first), version: this.version };
  }

  /** Forgets every known week (a new index, a company moved): they are read or computed again. */
  clear(): void {
    this.generation++;
    this.weeks.clear();
    this.points.clear();
    this.running = null;
  }

  /** Reads the kept weeks among `ends`, then computes the others, newest first (the series is read from its end). */
  private async fill(ends: number[]): Promise<void> {
    const generation = this.generation;
    const { rows } = await this.db.executeSql(
      `SELECT (extract(epoch FROM week_end) * 1000)::float8 AS end_ms, counts FROM population_weeks WHERE week_end = ANY($1::timestamptz[])`,
      [ends.filter((end) => !this.weeks.has(end)).map((end) => new Date(end).toISOString())],
    );
    if (generation !== this.generation) return;
    for (const row of rows as Array<{ end_ms: number; counts: GroupCount[] | string }>) {
      this.know(Number(row.end_ms), countsOf(row.counts));
    }
    for (const end of [...ends].reverse()) {
      if (this.weeks.has(end)) continue;
      const counts = await this.compute(end);
      if (generation !== this.generation) return;
      if (counts) this.know(end, counts);
    }
  }

  private know(end: number, counts: GroupCount[]): void {
    this.weeks.set(end, counts);
    this.version++;
  }

  /**
   * Counts the week from the score history and keeps it in `population_weeks`, unless a company moved meanwhile
   * (the epoch changed: undefined, the next read computes it again) or another process kept it first (theirs is used).
   */
  private async compute(end: number): Promise<GroupCount[] | undefined> {
    const { rows: state } = await this.db.executeSql('SELECT epoch::text AS epoch FROM population_weeks_state WHERE id = 1');
    const epoch = (state[0] as { epoch: string } | undefined)?.epoch ?? '0';
    const { rows } = await this.db.executeSql(
      `WITH latest AS (
         SELECT DISTINCT ON (h.company_id) h.scan_id, h.grade, (c.source = 'curated') AS curated, c.category_id
         FROM score_history h JOIN companies c ON c.id = h.company_id
         WHERE h.recorded_at < $1::timestamptz
         ORDER BY h.company_id, h.recorded_at DESC, h.id DESC)
       SELECT curated, category_id::text AS category, 'g' AS kind, grade AS key, '' AS status, count(*)::int AS n
       FROM latest GROUP BY curated, category_id, grade
       UNION ALL
       SELECT l.curated, l.category_id::text, 'c', r.check_id, r.status, count(*)::int
       FROM latest l JOIN check_results r ON r.scan_id = l.scan_id
       GROUP BY l.curated, l.category_id, r.check_id, r.status`,
      [new Date(end).toISOString()],
    );
    const counts = (rows as Array<{ curated: boolean; category: string | null; kind: 'g' | 'c'; key: string; status: string; n: number }>).map(
      (r): GroupCount => [r.curated ? 1 : 0, r.category, r.kind, r.key, r.status, Number(r.n)],
    );
    this.computed++;
    // Kept only under the epoch it was counted in: FOR SHARE waits for a move being committed (its trigger updates
    // the row first), then sees the new epoch and refuses; a move committed after this sees the row and deletes it.
    const { rows: kept } = await this.db.executeSql(
      `INSERT INTO population_weeks (week_end, counts, epoch)
       SELECT $1::timestamptz, $2::jsonb, $3::bigint
       WHERE EXISTS (SELECT 1 FROM population_weeks_state WHERE id = 1 AND epoch = $3::bigint FOR SHARE)
       ON CONFLICT (week_end) DO NOTHING
       RETURNING 1 AS kept`,
      [new Date(end).toISOString(), JSON.stringify(counts), epoch],
    );
    if (kept.length > 0) return counts;
    const { rows: theirs } = await this.db.executeSql('SELECT counts FROM population_weeks WHERE week_end = $1::timestamptz', [new Date(end).toISOString()]);
    const stored = (theirs[0] as { counts: GroupCount[] | string } | undefined)?.counts;
    return stored === undefined ? undefined : countsOf(stored);
  }

  /** The scope's point of a known week (made once, frozen), or undefined while the week is not known. */
  private pointOf(scope: string, population: Population, categoryId: string | null, end: number): WeeklyPoint | undefined {
    const key = `${scope}:${end}`;
    const made = this.points.get(key);
    if (made) return made;
    const counts = this.weeks.get(end);
    if (!counts) return undefined;
    const grades = new Array<number>(GRADES.length).fill(0);
    const withResult = new Array<number>(CHECKS.length).fill(0);
    const passed = new Array<number>(CHECKS.length).fill(0);
    for (const [curated, category, kind, id, status, n] of counts) {
      if (population === 'curated' && curated !== 1) continue;
      if (categoryId !== null && category !== categoryId) continue;
      if (kind === 'g') grades[gradeCode(id)] += n;
      else {
        const i = checkIndex(id);
        const code = statusCode(status);
        if (i < 0 || code >= STATUSES.length) continue;
        withResult[i] += n;
        if (code === PASSED) passed[i] += n;
      }
    }
    const companies = grades.reduce((a, b) => a + b, 0);
    // Frozen: every answer that shows this week shares the object (validated and serialized once).
    const point: WeeklyPoint = deepFreeze({
      weekEnding: weekEnding(end),
      partial: false,
      companies,
      grades: GRADES.map((grade, g) => ({ grade, companies: grades[g], share: share(grades[g], companies) })),
      checks: CHECKS.map((c, i) => ({ id: c.id, companies: withResult[i], passed: passed[i], share: share(passed[i], withResult[i]) })),
    });
    this.points.set(key, point);
    if (this.points.size > MAX_POINTS) this.points.delete(this.points.keys().next().value!);
    return point;
  }
}

// A company's score history for charts, with its rank at each point: the ranks are recomputed from the scores every
// company of the population had at that moment, with the leaderboard's own order (compareRank).
import type { LeaderboardSchemas } from '@arl/contract';
import { compareRank } from '../leaderboard/ranking';
import type { HistoryRow, ReportRepository } from './repository';

export type ScoreHistory = LeaderboardSchemas['ScoreHistory'];
type Grade = LeaderboardSchemas['Grade'];

export const HISTORY_MAX_POINTS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

type RankKey = Parameters<typeof compareRank>[0];

const keyOf = (row: HistoryRow): RankKey => ({ id: row.companyId, score: row.score, at: row.recordedAt.getTime(), nameKey: row.name.toLowerCase() });

export async function companyHistory(
  repository: ReportRepository,
  company: { id: string; domain: string },
  options: { days: number; includeCommunity: boolean; now: Date },
): Promise<ScoreHistory> {
  const since = new Date(options.now.getTime() - options.days * DAY_MS);
  const latest = await repository.pointsOf(company.id, since, HISTORY_MAX_POINTS);
  if (latest.length === 0) return { domain: company.domain, days: options.days, items: [] };
  const from = latest[latest.length - 1].recordedAt;
  const to = latest[0].recordedAt;
  const [before, during] = await Promise.all([
    repository.latestBefore(from, options.includeCommunity),
    repository.between(from, to, options.includeCommunity),
  ]);

  // Sweep the population's scores in the order they were recorded; after each of the company's own points, its rank
  // is one plus the number of companies whose score at that moment ranks before it.
  const current = new Map<string, RankKey>(before.map((row) => [row.companyId, keyOf(row)]));
  const items: ScoreHistory['items'] = [];
  for (const row of during) {
    const key = keyOf(row);
    current.set(row.companyId, key);
    if (row.companyId !== company.id) continue;
    let ahead = 0;
    for (const other of current.values()) if (other.id !== company.id && compareRank(other, key) < 0) ahead++;
    items.push({ at: row.recordedAt.toISOString(), score: row.score, grade: row.grade as Grade, rank: ahead + 1 });
  }
  return { domain: company.domain, days: options.days, items: items.slice(-HISTORY_MAX_POINTS) };
}

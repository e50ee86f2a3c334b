// A company's score history for charts. Each point's rank was computed when the score was recorded (see
// record-rank.ts), in both populations, so reading a history is one indexed query whatever the population's size.
import type { LeaderboardSchemas } from '@arl/contract';
import type { ReportRepository } from './repository';

export type ScoreHistory = LeaderboardSchemas['ScoreHistory'];
type Grade = LeaderboardSchemas['Grade'];

export const HISTORY_MAX_POINTS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function companyHistory(
  repository: ReportRepository,
  company: { id: string; domain: string },
  options: { days: number; includeCommunity: boolean; now: Date },
): Promise<ScoreHistory> {
  const since = new Date(options.now.getTime() - options.days * DAY_MS);
  const latest = await repository.pointsOf(company.id, since, HISTORY_MAX_POINTS);
  return {
    domain: company.domain,
    days: options.days,
    items: latest.reverse().map((p) => ({
      at: p.recordedAt.toISOString(),
      score: p.score,
      grade: p.grade as Grade,
      rank: (options.includeCommunity ? p.rankAll : p.rankCurated) ?? null,
    })),
  };
}

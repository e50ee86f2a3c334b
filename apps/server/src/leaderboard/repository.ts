// Every database read of the leaderboard side, in one place.
import type { Db } from '@arl/db';
import type { LeaderboardSchemas } from '@arl/contract';
import { WEEK_MS, type HistoryFacts, type ScoredCompany } from './ranking';

type Grade = LeaderboardSchemas['Grade'];

export class LeaderboardRepository {
  constructor(private readonly db: Db) {}

  async scoredCompanies(): Promise<ScoredCompany[]> {
    const rows = await this.db.prisma.company.findMany({
      where: { score: { not: null }, scannedAt: { not: null } },
      select: {
        id: true, name: true, website: true, domain: true, source: true, score: true, grade: true, scannedAt: true,
        category: { select: { id: true, name: true, slug: true } },
      },
    });
    return rows.map((r) => ({ ...r, score: r.score!, grade: r.grade as Grade, scannedAt: r.scannedAt! }));
  }

  async historyFacts(now: Date): Promise<HistoryFacts> {
    const boundary = new Date(now.getTime() - WEEK_MS);
    const [weekAgo, first] = await Promise.all([
      this.db.prisma.$queryRaw<Array<{ company_id: string; score: number; recorded_at: Date }>>`
        SELECT DISTINCT ON (company_id) company_id, score, recorded_at
        FROM score_history WHERE recorded_at <= ${boundary}
        ORDER BY company_id, recorded_at DESC`,
      this.db.prisma.$queryRaw<Array<{ company_id: string; first_at: Date }>>`
        SELECT company_id, min(recorded_at) AS first_at FROM score_history GROUP BY company_id`,
    ]);
    return {
      weekAgo: new Map(weekAgo.map((r) => [r.company_id, { score: Number(r.score), recordedAt: new Date(r.recorded_at) }])),
      firstRecordedAt: new Map(first.map((r) => [r.company_id, new Date(r.first_at)])),
    };
  }

  categories() {
    return this.db.prisma.category.findMany({ select: { id: true, name: true, slug: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  }

  companyByDomain(domain: string) {
    return this.db.prisma.company.findUnique({
      where: { domain },
      include: {
        category: { select: { id: true, name: true, slug: true } },
        latestScan: {
          select: {
            summary: true,
            layers: { orderBy: { position: 'asc' }, select: { layer: true, weight: true, score: true } },
            checks: {
              orderBy: { position: 'asc' },
              select: { checkId: true, name: true, layer: true, tier: true, label: true, bonus: true, status: true, earned: true, points: true },
            },
          },
        },
      },
    });
  }
}

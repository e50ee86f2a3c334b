// Every database read of reports and score history, in one place.
import type { Db } from '@arl/db';

export class ReportRepository {
  constructor(private readonly db: Db) {}

  scanWithResults(id: string) {
    return this.db.prisma.scan.findUnique({
      where: { id },
      select: {
        id: true, domain: true, url: true, kind: true, catalogVersion: true, state: true, ending: true, cause: true,
        score: true, grade: true, summary: true, endedAt: true,
        layers: { orderBy: { position: 'asc' }, select: { layer: true, weight: true, score: true } },
        checks: {
          orderBy: { position: 'asc' },
          select: {
            checkId: true, name: true, layer: true, tier: true, label: true, bonus: true, status: true, earned: true,
            points: true, evidence: true, fix: true,
          },
        },
      },
    });
  }

  company(domain: string) {
    return this.db.prisma.company.findUnique({ where: { domain }, select: { id: true, domain: true, source: true, latestScanId: true } });
  }

  /** The company's points since `since`, newest first, at most `limit`. */
  pointsOf(companyId: string, since: Date, limit: number) {
    return this.db.prisma.scoreHistory.findMany({
      where: { companyId, recordedAt: { gte: since } },
      orderBy: [{ recordedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: { score: true, grade: true, recordedAt: true, rankAll: true, rankCurated: true },
    });
  }
}

// Every database read of reports and score history, in one place.
import type { Db } from '@arl/db';

export interface HistoryRow {
  companyId: string;
  name: string;
  score: number;
  grade: string;
  recordedAt: Date;
}

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

  /** Each company's latest score strictly before `before`, in the population. */
  async latestBefore(before: Date, includeCommunity: boolean): Promise<HistoryRow[]> {
    const rows = await this.db.prisma.$queryRawUnsafe<Array<{ company_id: string; name: string; score: number; grade: string; recorded_at: Date }>>(
      `SELECT DISTINCT ON (h.company_id) h.company_id, c.name, h.score, h.grade, h.recorded_at
       FROM score_history h JOIN companies c ON c.id = h.company_id
       WHERE h.recorded_at < $1::timestamptz AND ($2::boolean OR c.source = 'curated')
       ORDER BY h.company_id, h.recorded_at DESC, h.id DESC`,
      before, includeCommunity,
    );
    return rows.map(toRow);
  }

  /** Every score recorded from `from` to `to` (inclusive) in the population, in the order they were recorded. */
  async between(from: Date, to: Date, includeCommunity: boolean): Promise<HistoryRow[]> {
    const rows = await this.db.prisma.$queryRawUnsafe<Array<{ company_id: string; name: string; score: number; grade: string; recorded_at: Date }>>(
      `SELECT h.company_id, c.name, h.score, h.grade, h.recorded_at
       FROM score_history h JOIN companies c ON c.id = h.company_id
       WHERE h.recorded_at >= $1::timestamptz AND h.recorded_at <= $2::timestamptz AND ($3::boolean OR c.source = 'curated')
       ORDER BY h.recorded_at, h.id`,
      from, to, includeCommunity,
    );
    return rows.map(toRow);
  }

  /** The company's points since `since`, newest first, at most `limit`. */
  async pointsOf(companyId: string, since: Date, limit: number): Promise<Array<{ score: number; grade: string; recordedAt: Date }>> {
    const rows = await this.db.prisma.scoreHistory.findMany({
      where: { companyId, recordedAt: { gte: since } },
      orderBy: [{ recordedAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: { score: true, grade: true, recordedAt: true },
    });
    return rows;
  }
}

function toRow(r: { company_id: string; name: string; score: number; grade: string; recorded_at: Date }): HistoryRow {
  return { companyId: r.company_id, name: r.name, score: Number(r.score), grade: r.grade, recordedAt: new Date(r.recorded_at) };
}

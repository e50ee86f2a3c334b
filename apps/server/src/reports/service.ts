// Reports (what a scan found and what to change) and score history: read-only views over what the scan pipeline
// stored, with each check's description taken from the scanner's catalog.
import type { LeaderboardSchemas } from '@arl/contract';
import type { Db } from '@arl/db';
import { CHECK_CATALOG } from '@arl/scanner';
import { ApiError, notFound } from '../http/errors';
import { toReportEvidence } from './evidence';
import { companyHistory, type ScoreHistory } from './history';
import { ReportRepository } from './repository';

export type ScanReport = LeaderboardSchemas['ScanReport'];
type S = LeaderboardSchemas;

const DESCRIPTIONS = new Map(CHECK_CATALOG.map((c) => [c.id, c.description]));

export class ReportService {
  private readonly repository: ReportRepository;

  constructor(db: Db, private readonly clock: () => Date) {
    this.repository = new ReportRepository(db);
  }

  /** The report of an ended scan; 404 for an unknown scan, 409 report_not_ready while it runs. */
  async scanReport(scanId: string): Promise<ScanReport> {
    const scan = await this.repository.scanWithResults(scanId);
    if (!scan) throw notFound(`No scan has the id ${scanId}.`);
    if (scan.state !== 'ended' || !scan.ending) {
      throw new ApiError(409, 'report_not_ready', `Scan ${scanId} has not ended yet (${scan.state}); its report is written when it ends.`);
    }
    const scored = scan.ending === 'finished' && scan.score !== null && scan.grade !== null;
    return {
      scanId: scan.id,
      domain: scan.domain,
      url: scan.url,
      kind: (scan.kind as S['TargetKind'] | null) ?? null,
      catalogVersion: scan.catalogVersion ?? null,
      scannedAt: (scan.endedAt ?? new Date(0)).toISOString(),
      ending: scan.ending,
      cause: scan.cause?.trim() || 'The scan ended.',
      score: scored ? scan.score : null,
      grade: scored ? (scan.grade as S['Grade']) : null,
      summary: scored && scan.summary?.trim() ? scan.summary : null,
      layers: scan.layers.map((l) => ({ id: l.layer as S['LayerId'], weight: l.weight, score: l.score })),
      checks: scan.checks.map((c) => ({
        id: c.checkId,
        name: c.name,
        layer: c.layer as S['LayerId'],
        tier: c.tier as S['CheckTier'],
        label: c.label as S['CheckLabel'],
        bonus: c.bonus,
        status: c.status as S['CheckStatus'],
        earned: c.earned,
        points: c.points,
        // A check removed from the catalog since the scan keeps its name as its description.
        description: DESCRIPTIONS.get(c.checkId) ?? c.name,
        evidence: toReportEvidence(c.evidence),
        fix: (c.status === 'failed' || c.status === 'warning') && c.fix?.trim() ? c.fix : null,
      })),
    };
  }

  /** The report of the company's latest scored scan (the rule of getCompany for community companies). */
  async companyReport(domain: string, includeCommunity: boolean): Promise<ScanReport> {
    const company = await this.visibleCompany(domain, includeCommunity);
    if (!company.latestScanId) throw notFound(`${company.domain} has not been scored yet.`);
    return this.scanReport(company.latestScanId);
  }

  async history(domain: string, includeCommunity: boolean, days: number): Promise<ScoreHistory> {
    const company = await this.visibleCompany(domain, includeCommunity);
    return companyHistory(this.repository, company, { days, includeCommunity, now: this.clock() });
  }

  private async visibleCompany(domain: string, includeCommunity: boolean) {
    const company = await this.repository.company(domain.toLowerCase());
    if (!company || (company.source === 'community' && !includeCommunity)) throw notFound(`No company with domain ${JSON.stringify(domain)}.`);
    return company;
  }
}

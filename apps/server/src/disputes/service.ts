// Disputes: vet what a dispute names (an ended scan and one of its checks), record it with the rescan it starts
// (the scan service's start-or-join, origin "dispute"), and say where it stands: rescanning until the rescan ends,
// then held, changed or unresolved, kept once known. Reads scans and reports through their services.
import type { FeedbackSchemas } from '@arl/contract';
import type { Logger } from 'pino';
import { ApiError, notFound } from '../http/errors';
import type { ReportService } from '../reports/service';
import type { ScanService } from '../scans/service';
import type { ReportHook } from '../feedback/service';
import { DISPUTE_PROJECT, disputeClaimOf, type DisputeClaim, type DisputeTarget } from './report-kind';
import { DisputeRepository, type DisputeRow } from './repository';
import type { Db } from '@arl/db';

export type Dispute = FeedbackSchemas['Dispute'];
type Status = Dispute['disputedStatus'];

/** The company page and listCompanyDisputes show this many. */
export const DISPUTES_LISTED = 20;

export interface DisputeServiceDeps {
  db: Db;
  reports: ReportService;
  scans: ScanService;
  logger: Logger;
  /** Where people follow a dispute: the feedback host (getReportDispute) and the leaderboard's pages. */
  feedbackPublicUrl: string;
  publicUrl: string;
}

export class DisputeService implements ReportHook<DisputeTarget> {
  private readonly repository: DisputeRepository;

  constructor(private readonly deps: DisputeServiceDeps) {
    this.repository = new DisputeRepository(deps.db);
  }

  /** The check's verdict in the named scan: 404 unknown scan or check, 409 while the scan runs. */
  async vet(claim: DisputeClaim): Promise<DisputeTarget> {
    const report = await this.deps.reports.scanReport(claim.scanId);
    const check = report.checks.find((c) => c.id === claim.checkId);
    if (!check) throw notFound(`Scan ${claim.scanId} has no check "${claim.checkId}" (its checks are listed by getScanReport).`);
    return { ...claim, checkName: check.name, status: check.status, domain: report.domain, url: report.url };
  }

  // ReportHook: the feedback service asks before storing a report, and tells after.
  async beforeReport(slug: string, report: FeedbackSchemas['FeedbackReport']): Promise<DisputeTarget | null> {
    if (slug !== DISPUTE_PROJECT) return null;
    const claim = disputeClaimOf(report);
    return claim ? this.vet(claim) : null;
  }

  async afterReport(receipt: { id: string; receivedAt: Date; repeat: boolean }, target: DisputeTarget): Promise<string> {
    // A repeat also records: the first sender's process may have stopped between the report and its dispute.
    await this.record(receipt.id, receipt.receivedAt, target);
    const dispute = await this.read(receipt.id);
    const follow = `Follow it at ${this.statusUrl(receipt.id)} or on ${await this.companyUrl(target.domain, receipt.id)}.`;
    if (receipt.repeat) return `An identical dispute was already received; this is its receipt. ${dispute!.outcome} ${follow}`;
    return `Dispute received: check ${target.checkId} ("${target.checkName}") was ${target.status} in scan ${target.scanId} of ${target.domain}. ${dispute!.outcome} ${follow}`;
  }

  /** Starts (or joins) the rescan and writes the dispute, unless the report already has one. */
  private async record(id: string, receivedAt: Date, target: DisputeTarget): Promise<void> {
    if (await this.repository.byId(id)) return;
    let rescanId: string | null = null;
    let rescanError: string | null = null;
    try {
      const started = await this.deps.scans.start(await this.deps.scans.vet(target.url), { origin: 'dispute' });
      rescanId = started.scan.id;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      rescanError = `The rescan could not start: ${err.message}`;
      this.deps.logger.warn({ disputeId: id, code: err.code }, 'dispute rescan not started');
    }
    await this.repository.insert({
      id, scanId: target.scanId, checkId: target.checkId, checkName: target.checkName, domain: target.domain,
      disputedStatus: target.status, rescanId, rescanError, receivedAt,
    });
  }

  async read(id: string): Promise<Dispute | null> {
    const row = await this.repository.byId(id);
    return row && this.view(row);
  }

  async readOfReport(slug: string, reportId: string): Promise<Dispute> {
    const row = await this.repository.byReport(slug, reportId);
    if (!row) throw notFound(`The project "${slug}" has no dispute with the id ${reportId}.`);
    return this.view(row);
  }

  async list(domain: string): Promise<FeedbackSchemas['Dispute'][]> {
    const rows = await this.repository.latestOf(domain, DISPUTES_LISTED);
    return Promise.all(rows.map((r) => this.view(r)));
  }

  statusUrl(id: string): string {
    return `${this.deps.feedbackPublicUrl}/v1/feedback/${DISPUTE_PROJECT}/reports/${id}/dispute`;
  }

  /** The company page, anchored at the dispute (with `community=include` for a community company). */
  async companyUrl(domain: string, id?: string): Promise<string> {
    const community = (await this.repository.isCommunity(domain)) ? '?community=include' : '';
    return `${this.deps.publicUrl}/companies/${encodeURIComponent(domain)}${community}#${id ? `dispute-${id}` : 'disputes'}`;
  }

  /** The stored outcome, or the rescan's: resolved (and kept) the first time it is read after the rescan ended. */
  private async view(row: DisputeRow): Promise<Dispute> {
    const resolved = row.state !== null ? row : await this.resolve(row);
    return {
      id: row.id,
      receivedAt: row.receivedAt.toISOString(),
      domain: row.domain,
      scanId: row.scanId,
      checkId: row.checkId,
      checkName: row.checkName,
      disputedStatus: row.disputedStatus as Status,
      state: (resolved.state ?? 'rescanning') as Dispute['state'],
      rescanId: row.rescanId,
      rescanStatus: (resolved.rescanStatus ?? null) as Status | null,
      resolvedAt: resolved.resolvedAt ? resolved.resolvedAt.toISOString() : null,
      outcome: resolved.outcome ?? `A rescan of ${row.domain} is running (scan ${row.rescanId}); whether the verdict holds shows here once it ends.`,
    };
  }

  private async resolve(row: DisputeRow): Promise<Pick<DisputeRow, 'state' | 'rescanStatus' | 'outcome' | 'resolvedAt'>> {
    const open = { state: null, rescanStatus: null, outcome: null, resolvedAt: null };
    let outcome: { state: string; rescanStatus: string | null; outcome: string; resolvedAt: Date | null };
    if (row.rescanId === null) {
      outcome = { state: 'unresolved', rescanStatus: null, outcome: row.rescanError ?? 'The rescan could not start.', resolvedAt: null };
    } else {
      const scan = await this.deps.scans.read(row.rescanId);
      if (!scan || scan.state !== 'ended') return open;
      const resolvedAt = new Date(scan.endedAt ?? Date.now());
      if (scan.ending !== 'finished') {
        outcome = { state: 'unresolved', rescanStatus: null, outcome: `The rescan (${scan.id}) ended ${scan.ending} without a score: ${scan.cause ?? 'no cause given'}`, resolvedAt };
      } else {
        const check = (await this.deps.reports.scanReport(row.rescanId)).checks.find((c) => c.id === row.checkId);
        if (!check) {
          outcome = { state: 'unresolved', rescanStatus: null, outcome: `The rescan (${scan.id}) no longer runs check ${row.checkId}.`, resolvedAt };
        } else if (check.status === row.disputedStatus) {
          outcome = { state: 'held', rescanStatus: check.status, outcome: `The verdict held: the rescan (${scan.id}) also found "${check.status}".`, resolvedAt };
        } else {
          outcome = { state: 'changed', rescanStatus: check.status, outcome: `The verdict changed: the rescan (${scan.id}) found "${check.status}" where the disputed scan found "${row.disputedStatus}".`, resolvedAt };
        }
      }
    }
    await this.repository.resolve(row.id, outcome);
    return outcome;
  }
}

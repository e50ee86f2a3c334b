// Disputes: vet what a dispute names (an ended scan and one of its checks), record it with the rescan it starts
// (the scan service's start-or-join, origin "dispute"), and say where it stands: rescanning until the rescan ends,
// then held, changed or unresolved, kept once known. Reads scans and reports through their services.
//
// A dispute must never be a way around the scan limit (issue 28): each one (a repeat aside) counts against the
// sender's SCAN_RATE_LIMIT like POST /v1/leaderboard/scans, and disputes start at most one rescan per company per
// DISPUTE_RESCAN_INTERVAL, however many arrive: later ones join that rescan and get its outcome. The rule is decided
// in the database, under a lock per company, so it holds across processes.
import type { FeedbackSchemas } from '@arl/contract';
import type { Logger } from 'pino';
import { contentHash } from '../feedback/canonical';
import { ApiError, notFound } from '../http/errors';
import type { ReportService } from '../reports/service';
import type { ScanService } from '../scans/service';
import type { ScanTarget } from '../scans/target';
import type { ReportHook } from '../feedback/service';
import { DISPUTE_PROJECT, disputeClaimOf, type DisputeClaim, type DisputeTarget } from './report-kind';
import { DisputeRepository, type DisputeRow, type RecentRescan } from './repository';
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
  /** The scans' clock (their created_at): the interval below is measured on it. */
  clock: () => Date;
  /** DISPUTE_RESCAN_INTERVAL: disputes start at most one rescan per company in this many milliseconds. */
  rescanIntervalMs: number;
}

/** What recording a dispute did about its rescan (the receipt says it). */
type Recorded =
  | { kind: 'started' | 'unresolved' | 'existing' }
  | { kind: 'joined'; rescan: RecentRescan };

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
  async beforeReport(slug: string, report: FeedbackSchemas['FeedbackReport'], client: string): Promise<DisputeTarget | null> {
    if (slug !== DISPUTE_PROJECT) return null;
    const claim = disputeClaimOf(report);
    if (!claim) return null;
    const target = await this.vet(claim);
    // A dispute asks for a rescan: it counts against the sender's scan limit (429, nothing stored), after the vetting
    // as a scan's URL is vetted first. A repeat of a recorded dispute starts nothing, so it costs nothing.
    if (!(await this.repository.recordedReport(slug, contentHash(report)))) {
      try {
        await this.deps.scans.admit(client);
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 429) throw err;
        // The same 429 (and Retry-After), saying why a dispute meets a scan limit.
        throw new ApiError(429, err.code, `Too many scans from this client: a dispute asks for a rescan, so it counts as one; try again in a minute. Nothing was stored.`, err.extraHeaders);
      }
    }
    return target;
  }

  async afterReport(receipt: { id: string; receivedAt: Date; repeat: boolean }, target: DisputeTarget): Promise<string> {
    // A repeat also records: the first sender's process may have stopped between the report and its dispute.
    const recorded = await this.record(receipt.id, receipt.receivedAt, target);
    const dispute = await this.read(receipt.id);
    const follow = `Follow it at ${this.statusUrl(receipt.id)} or on ${await this.companyUrl(target.domain, receipt.id)}.`;
    if (receipt.repeat) return `An identical dispute was already received; this is its receipt. ${dispute!.outcome} ${follow}`;
    const joined = recorded.kind === 'joined'
      ? ` It joins the rescan an earlier dispute of ${target.domain} asked for at ${recorded.rescan.createdAt.toISOString()} (disputes rescan a company at most once every ${this.interval()}).`
      : '';
    return `Dispute received: check ${target.checkId} ("${target.checkName}") was ${target.status} in scan ${target.scanId} of ${target.domain}.${joined} ${dispute!.outcome} ${follow}`;
  }

  /**
   * Writes the dispute with its rescan, unless the report already has one: the company's rescan of the interval if
   * its disputes already have one (joined, whether running or ended), else a start-or-join of the scanned URL. The
   * lookup, the start and the row are one transaction under the company's lock (repository.ts).
   */
  private async record(id: string, receivedAt: Date, target: DisputeTarget): Promise<Recorded> {
    if (await this.repository.byId(id)) return { kind: 'existing' };
    let vetted: ScanTarget | null = null;
    let refused: string | null = null;
    try {
      vetted = await this.deps.scans.vet(target.url);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      refused = this.notStarted(id, err);
    }
    return this.deps.scans.transact<Recorded>(async (tx) => {
      await this.repository.lockCompany(tx, target.domain);
      if (await this.repository.existsIn(tx, id)) return { value: { kind: 'existing' }, started: false };
      let recorded: Recorded = { kind: 'unresolved' };
      let rescanId: string | null = null;
      let rescanError = refused;
      let started = false;
      if (vetted) {
        const since = new Date(this.deps.clock().getTime() - this.deps.rescanIntervalMs);
        const recent = await this.repository.latestRescan(tx, target.domain, since);
        if (recent) {
          const again = new Date(recent.createdAt.getTime() + this.deps.rescanIntervalMs).toISOString();
          const rule = `disputes rescan a company at most once every ${this.interval()}; dispute again after ${again}`;
          if (recent.id === target.scanId) {
            // Joining would compare the scan with itself: a verdict that "held" without a rescan.
            rescanError = `Scan ${target.scanId} is itself the rescan an earlier dispute of ${target.domain} asked for at ${recent.createdAt.toISOString()}, so no rescan started: ${rule}.`;
          } else if (recent.target !== vetted.target) {
            rescanError = `A dispute of another address of ${target.domain} (${recent.url}) started a rescan at ${recent.createdAt.toISOString()}, so none started for this one: ${rule}.`;
          } else {
            rescanId = recent.id;
            recorded = { kind: 'joined', rescan: recent };
          }
        } else {
          try {
            const outcome = await this.deps.scans.startOrJoin(tx, { target: vetted.target, url: vetted.url.href, domain: vetted.domain, origin: 'dispute' });
            if (!outcome) return null; // the scan it met ended meanwhile: the scan service runs this again
            rescanId = outcome.scan.id;
            started = outcome.started;
            recorded = { kind: 'started' };
          } catch (err) {
            // Our own refusals (queue full) are thrown before any statement fails, so the transaction is intact.
            if (!(err instanceof ApiError)) throw err;
            rescanError = this.notStarted(id, err);
          }
        }
      }
      await this.repository.insertIn(tx, {
        id, scanId: target.scanId, checkId: target.checkId, checkName: target.checkName, domain: target.domain,
        disputedStatus: target.status, rescanId, rescanError, receivedAt,
      });
      return { value: recorded, started };
    });
  }

  private notStarted(id: string, err: ApiError): string {
    this.deps.logger.warn({ disputeId: id, code: err.code }, 'dispute rescan not started');
    return `The rescan could not start: ${err.message}`;
  }

  /** DISPUTE_RESCAN_INTERVAL for people: "1 hour", "90 minutes". */
  private interval(): string {
    return humanDuration(this.deps.rescanIntervalMs);
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

/** Milliseconds in the largest unit that divides them: 3600000 -> "1 hour", 5400000 -> "90 minutes". */
export function humanDuration(ms: number): string {
  const units: Array<[number, string]> = [[86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute'], [1000, 'second'], [1, 'millisecond']];
  const [size, name] = units.find(([unit]) => ms % unit === 0 && ms >= unit) ?? [1, 'millisecond'];
  const count = ms / size;
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}

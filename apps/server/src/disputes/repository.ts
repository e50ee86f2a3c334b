// Dispute rows (verdict_disputes): one per dispute report, written once, resolved once. The statements that decide
// a dispute's rescan run in the scan service's transaction (`Tx`), under a lock per company, so that "one rescan per
// company per DISPUTE_RESCAN_INTERVAL" holds across processes.
import type { Db } from '@arl/db';
import type { Tx } from '../jobs/queue';

export interface DisputeRow {
  id: string;
  scanId: string;
  checkId: string;
  checkName: string;
  domain: string;
  disputedStatus: string;
  rescanId: string | null;
  rescanError: string | null;
  state: string | null;
  rescanStatus: string | null;
  outcome: string | null;
  resolvedAt: Date | null;
  receivedAt: Date;
}

/** The rescan the company's disputes last used (started or joined). */
export interface RecentRescan {
  id: string;
  target: string;
  url: string;
  createdAt: Date;
}

type NewDispute = Omit<DisputeRow, 'state' | 'rescanStatus' | 'outcome' | 'resolvedAt'>;

/** A dispute is recorded within seconds of its report (one transaction, 30 s at most); the lookup below uses it. */
const RECORD_DELAY_BOUND = "interval '5 minutes'";

const columns = (t: string) => `${t}.id, ${t}.scan_id AS "scanId", ${t}.check_id AS "checkId", ${t}.check_name AS "checkName", ${t}.domain,
  ${t}.disputed_status AS "disputedStatus", ${t}.rescan_id AS "rescanId", ${t}.rescan_error AS "rescanError", ${t}.state,
  ${t}.rescan_status AS "rescanStatus", ${t}.outcome, ${t}.resolved_at AS "resolvedAt", ${t}.received_at AS "receivedAt"`;

export class DisputeRepository {
  constructor(private readonly db: Db) {}

  async byId(id: string): Promise<DisputeRow | null> {
    const { rows } = await this.db.executeSql(`SELECT ${columns('d')} FROM verdict_disputes d WHERE d.id = $1::uuid`, [id]);
    return rows[0] ? normalize(rows[0]) : null;
  }

  /** The dispute of a report of a given project (the feedback host reads a dispute through its report). */
  async byReport(projectSlug: string, reportId: string): Promise<DisputeRow | null> {
    const { rows } = await this.db.executeSql(
      `SELECT ${columns('d')} FROM verdict_disputes d
       JOIN feedback_reports r ON r.id = d.id JOIN feedback_projects p ON p.id = r.project_id
       WHERE d.id = $1::uuid AND p.slug = $2`,
      [reportId, projectSlug],
    );
    return rows[0] ? normalize(rows[0]) : null;
  }

  async latestOf(domain: string, limit: number): Promise<DisputeRow[]> {
    const { rows } = await this.db.executeSql(
      `SELECT ${columns('d')} FROM verdict_disputes d WHERE d.domain = lower($1) ORDER BY d.received_at DESC, d.id DESC LIMIT $2`,
      [domain, limit],
    );
    return rows.map(normalize);
  }

  /** Whether a report with this content is already stored in the project with its dispute (a repeat starts nothing). */
  async recordedReport(projectSlug: string, contentHash: string): Promise<boolean> {
    const { rows } = await this.db.executeSql(
      `SELECT 1 FROM feedback_reports r JOIN feedback_projects p ON p.id = r.project_id JOIN verdict_disputes d ON d.id = r.id
       WHERE p.slug = $1 AND r.content_hash = $2`,
      [projectSlug, contentHash],
    );
    return rows.length > 0;
  }

  /**
   * Serializes the rescan decisions of one company (every process: a transaction-scoped advisory lock, released at
   * commit), so the second of two concurrent disputes sees the first one's rescan.
   */
  async lockCompany(tx: Tx, domain: string): Promise<void> {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('arl-dispute-rescan:' || current_schema() || ':' || lower($1)))`, domain);
  }

  async existsIn(tx: Tx, id: string): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM verdict_disputes WHERE id = $1::uuid`, id);
    return rows.length > 0;
  }

  /**
   * The latest rescan the company's disputes started or joined that was created after `since`. Read through the
   * disputes' (domain, received_at) index: a dispute is received at most RECORD_DELAY_BOUND before the rescan it
   * starts is created, and any dispute joining it later is received after it.
   */
  async latestRescan(tx: Tx, domain: string, since: Date): Promise<RecentRescan | null> {
    const rows = await tx.$queryRawUnsafe<Array<{ id: string; target: string; url: string; created_at: Date | string }>>(
      `SELECT s.id, s.target, s.url, s.created_at FROM verdict_disputes d JOIN scans s ON s.id = d.rescan_id
       WHERE d.domain = lower($1) AND d.received_at > $2::timestamptz - ${RECORD_DELAY_BOUND} AND s.created_at > $2::timestamptz
       ORDER BY s.created_at DESC LIMIT 1`,
      domain, since,
    );
    const row = rows[0];
    return row ? { id: row.id, target: row.target, url: row.url, createdAt: new Date(row.created_at) } : null;
  }

  /** Inserts the dispute in the transaction that decided its rescan (the caller holds the company's lock). */
  async insertIn(tx: Tx, row: NewDispute): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO verdict_disputes (id, scan_id, check_id, check_name, domain, disputed_status, rescan_id, rescan_error, received_at)
       VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7::uuid, $8, $9::timestamptz) ON CONFLICT (id) DO NOTHING`,
      row.id, row.scanId, row.checkId, row.checkName, row.domain, row.disputedStatus, row.rescanId, row.rescanError, row.receivedAt,
    );
  }

  /** Keeps the outcome, once: a second resolver (another process) leaves the first one's. */
  async resolve(id: string, r: { state: string; rescanStatus: string | null; outcome: string; resolvedAt: Date | null }): Promise<void> {
    await this.db.executeSql(
      `UPDATE verdict_disputes SET state = $2, rescan_status = $3, outcome = $4, resolved_at = $5::timestamptz WHERE id = $1::uuid AND state IS NULL`,
      [id, r.state, r.rescanStatus, r.outcome, r.resolvedAt],
    );
  }

  /** Whether the domain's company is a community one (its page then needs `community=include`). */
  async isCommunity(domain: string): Promise<boolean> {
    const { rows } = await this.db.executeSql(`SELECT source::text AS source FROM companies WHERE lower(domain) = lower($1)`, [domain]);
    return rows[0]?.source === 'community';
  }
}

function normalize(r: Record<string, unknown>): DisputeRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
  return { ...(r as unknown as DisputeRow), resolvedAt: date(r.resolvedAt), receivedAt: date(r.receivedAt)! };
}

// Dispute rows (verdict_disputes): one per dispute report, written once, resolved once.
import type { Db } from '@arl/db';

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

  /** Inserts unless the report already has its dispute; true when this call wrote it. */
  async insert(row: Omit<DisputeRow, 'state' | 'rescanStatus' | 'outcome' | 'resolvedAt'>): Promise<boolean> {
    const { rows } = await this.db.executeSql(
      `INSERT INTO verdict_disputes (id, scan_id, check_id, check_name, domain, disputed_status, rescan_id, rescan_error, received_at)
       VALUES ($1::uuid, $2::uuid, $3, $4, $5, $6, $7::uuid, $8, $9::timestamptz) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [row.id, row.scanId, row.checkId, row.checkName, row.domain, row.disputedStatus, row.rescanId, row.rescanError, row.receivedAt],
    );
    return rows.length > 0;
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

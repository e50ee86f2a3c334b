// Check statuses across a company's scored scans. A change is a scored scan whose status for the check differs from
// the previous scored scan that ran it (LAG over the company's scans in the order they ended); the first scan that
// ran a check is a change from null. Both reads are one statement over the scans of one company.
import type { Db } from '@arl/db';

export interface StatusChange {
  checkId: string;
  name: string;
  layer: string;
  at: Date;
  scanId: string;
  from: string | null;
  to: string;
  earnedChange: number;
}

const CHANGES = (where: string) => `
  WITH runs AS (
    SELECT s.id AS scan_id, s.ended_at, cr.check_id, cr.name, cr.layer, cr.status, cr.earned,
           LAG(cr.status) OVER w AS prev_status, LAG(cr.earned) OVER w AS prev_earned
    FROM scans s JOIN check_results cr ON cr.scan_id = s.id
    WHERE s.company_id = $1::uuid AND s.ending = 'finished' AND s.score IS NOT NULL AND s.ended_at IS NOT NULL
      AND ($2::text IS NULL OR cr.check_id = $2::text)
    WINDOW w AS (PARTITION BY cr.check_id ORDER BY s.ended_at, s.id))
  SELECT scan_id, ended_at, check_id, name, layer, status, prev_status, earned, prev_earned FROM runs
  WHERE prev_status IS DISTINCT FROM status ${where}
  ORDER BY ended_at DESC, scan_id DESC, check_id`;

interface Row {
  scan_id: string;
  ended_at: Date;
  check_id: string;
  name: string;
  layer: string;
  status: string;
  prev_status: string | null;
  earned: number;
  prev_earned: number | null;
}

const toChange = (r: Row): StatusChange => ({
  checkId: r.check_id, name: r.name, layer: r.layer, at: new Date(r.ended_at), scanId: r.scan_id, from: r.prev_status, to: r.status,
  earnedChange: Number(r.earned) - Number(r.prev_earned ?? 0),
});

export class CheckHistoryRepository {
  constructor(private readonly db: Db) {}

  async company(domain: string): Promise<{ id: string; domain: string; source: string } | null> {
    const { rows } = await this.db.executeSql(`SELECT id, domain, source::text AS source FROM companies WHERE domain = $1::varchar`, [domain.toLowerCase()]);
    return (rows[0] as { id: string; domain: string; source: string } | undefined) ?? null;
  }

  /** One check's changes, newest first, strictly before `before` (a page's last change) when given. */
  async changesOf(companyId: string, checkId: string, limit: number, before: { at: string; scanId: string } | null): Promise<StatusChange[]> {
    const { rows } = await this.db.executeSql(
      `${CHANGES('AND ($3::timestamptz IS NULL OR (ended_at, scan_id) < ($3::timestamptz, $4::uuid))')} LIMIT $5`,
      [companyId, checkId, before?.at ?? null, before?.scanId ?? null, limit],
    );
    return (rows as Row[]).map(toChange);
  }

  /** The check's status in the company's latest scored scan that ran it, and the name it had there. */
  async current(companyId: string, checkId: string): Promise<{ status: string; name: string } | null> {
    const { rows } = await this.db.executeSql(
      `SELECT cr.status, cr.name FROM scans s JOIN check_results cr ON cr.scan_id = s.id AND cr.check_id = $2::text
       WHERE s.company_id = $1::uuid AND s.ending = 'finished' AND s.score IS NOT NULL AND s.ended_at IS NOT NULL
       ORDER BY s.ended_at DESC, s.id DESC LIMIT 1`,
      [companyId, checkId],
    );
    return (rows[0] as { status: string; name: string } | undefined) ?? null;
  }

  /** Every check's changes in scans that ended since `since` (first runs of a check excluded: nothing moved). */
  async changesSince(companyId: string, since: Date, limit: number): Promise<StatusChange[]> {
    const { rows } = await this.db.executeSql(
      `${CHANGES('AND prev_status IS NOT NULL AND ended_at >= $3::timestamptz')} LIMIT $4`,
      [companyId, null, since, limit],
    );
    return (rows as Row[]).map(toChange);
  }
}

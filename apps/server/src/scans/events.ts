// Appending to a scan's history. `at` never decreases, even when processes' clocks disagree: a step is stamped
// with the later of the caller's clock and the scan's last event. Followers (event streams) are notified at commit.
import type { Db } from '@arl/db';
import type { Tx } from '../jobs/queue';
import { PROGRESS_CHANNEL_SQL } from '../streams/progress-feed';

export async function appendEvent(tx: Tx, scanId: string, step: string, at: Date): Promise<void> {
  // The event and its notification in one statement (with the embedded database each is ~1 ms on the thread that
  // answers reads, and every scan's end appends one).
  await tx.$executeRawUnsafe(
    `WITH added AS (
       INSERT INTO scan_events (scan_id, step, at)
       SELECT $1::uuid, $2, GREATEST($3::timestamptz, COALESCE(max(at), $3::timestamptz)) FROM scan_events WHERE scan_id = $1::uuid
       RETURNING 1)
     SELECT pg_notify(${PROGRESS_CHANNEL_SQL}, $4) FROM added`,
    scanId, step, at, `scan:${scanId}`,
  );
}

/**
 * A progress step outside a transaction: one statement (event and notification) straight to the database. An ended
 * scan gets no more steps (a worker that lost the scan to another may still be reporting): its history is final.
 */
export async function recordStep(db: Db, scanId: string, step: string, at: Date): Promise<void> {
  await db.executeSql(
    `WITH added AS (
       INSERT INTO scan_events (scan_id, step, at)
       SELECT $1::uuid, $2, GREATEST($3::timestamptz, COALESCE(max(at), $3::timestamptz)) FROM scan_events WHERE scan_id = $1::uuid
       HAVING EXISTS (SELECT 1 FROM scans WHERE id = $1::uuid AND state <> 'ended')
       RETURNING 1)
     SELECT pg_notify(${PROGRESS_CHANNEL_SQL}, $4) FROM added`,
    [scanId, step, at, `scan:${scanId}`],
  );
}

/** running -> scoring and its event, in one statement (atomic without an interactive transaction); none once ended. */
export async function recordScoring(db: Db, scanId: string, at: Date): Promise<void> {
  await db.executeSql(
    `WITH moved AS (UPDATE scans SET state = 'scoring' WHERE id = $1::uuid AND state = 'running' RETURNING id),
          added AS (
            INSERT INTO scan_events (scan_id, step, at)
            SELECT $1::uuid, 'scoring', GREATEST($2::timestamptz, COALESCE(max(at), $2::timestamptz)) FROM scan_events WHERE scan_id = $1::uuid
            HAVING EXISTS (SELECT 1 FROM scans WHERE id = $1::uuid AND state <> 'ended')
            RETURNING 1)
     SELECT pg_notify(${PROGRESS_CHANNEL_SQL}, $3) FROM added`,
    [scanId, at, `scan:${scanId}`],
  );
}

/**
 * A claimed scan starts: waiting -> running (attempts counted, the first start kept) and its event, in one
 * statement. Null when the scan does not exist or has already ended (nothing is written then).
 */
export async function recordRunning(db: Db, scanId: string, at: Date): Promise<{ url: string; domain: string } | null> {
  const { rows } = await db.executeSql(
    `WITH moved AS (
       UPDATE scans SET state = 'running', started_at = COALESCE(started_at, $2::timestamptz), attempts = attempts + 1
       WHERE id = $1::uuid AND state <> 'ended' RETURNING url, domain),
          added AS (
            INSERT INTO scan_events (scan_id, step, at)
            SELECT $1::uuid, 'running', GREATEST($2::timestamptz, COALESCE(max(at), $2::timestamptz)) FROM scan_events
            WHERE scan_id = $1::uuid HAVING EXISTS (SELECT 1 FROM moved)
            RETURNING 1)
     SELECT moved.url, moved.domain, pg_notify(${PROGRESS_CHANNEL_SQL}, $3) FROM moved, added`,
    [scanId, at, `scan:${scanId}`],
  );
  const row = rows[0] as { url: string; domain: string } | undefined;
  return row ? { url: row.url, domain: row.domain } : null;
}

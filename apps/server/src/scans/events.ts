// Appending to a scan's history. `at` never decreases, even when processes' clocks disagree: a step is stamped
// with the later of the caller's clock and the scan's last event. Followers (event streams) are notified at commit.
import type { Tx } from '../jobs/queue';
import { notifyProgress } from '../streams/progress-feed';

export async function appendEvent(tx: Tx, scanId: string, step: string, at: Date): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO scan_events (scan_id, step, at)
     SELECT $1::uuid, $2, GREATEST($3::timestamptz, COALESCE(max(at), $3::timestamptz)) FROM scan_events WHERE scan_id = $1::uuid`,
    scanId, step, at,
  );
  await notifyProgress(tx, `scan:${scanId}`);
}

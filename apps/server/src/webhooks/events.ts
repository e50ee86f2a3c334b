// Turning a scan's end into webhook deliveries, inside the transaction that ends the scan (a transactional outbox):
// the events and their `webhook` jobs commit with the result or not at all, so a crash can neither lose an event
// nor announce a result that was rolled back. With no matching subscription this costs one indexed query.
import { randomUUID } from 'node:crypto';
import type { LeaderboardSchemas } from '@arl/contract';
import type { JobQueue, Tx } from '../jobs/queue';
import type { ScanEnding } from '../scans/results';

export const WEBHOOK_JOB = 'webhook';

export type WebhookEventType = LeaderboardSchemas['WebhookEventType'];
export type WebhookEvent = LeaderboardSchemas['WebhookEvent'];

export interface WebhookDeliveryPayload {
  deliveryId: string;
}

/** Inserts the deliveries the ended scan causes and their jobs; returns how many were queued. */
export async function queueWebhookEvents(tx: Tx, queue: JobQueue, ended: ScanEnding, publicUrl: string): Promise<number> {
  const subscriptions = await tx.$queryRawUnsafe<Array<{ id: string; events: string[] }>>(
    `SELECT s.id, s.events FROM webhook_subscriptions s
     WHERE s.status = 'active'
       AND (s.domain = $1::varchar
            OR s.category_id = (SELECT c.category_id FROM companies c WHERE c.domain = $1::varchar))`,
    ended.domain,
  );
  if (subscriptions.length === 0) return 0;

  const events = await eventsOf(tx, ended, publicUrl);
  let queued = 0;
  for (const subscription of subscriptions) {
    for (const event of events) {
      if (!subscription.events.includes(event.type)) continue;
      const id = randomUUID();
      await tx.$executeRawUnsafe(
        `INSERT INTO webhook_deliveries (id, subscription_id, event_type, payload, created_at)
         VALUES ($1::uuid, $2::uuid, $3::varchar, $4::text, $5::timestamptz)`,
        id, subscription.id, event.type, JSON.stringify(event), ended.endedAt,
      );
      await queue.enqueue<WebhookDeliveryPayload>(WEBHOOK_JOB, { deliveryId: id }, {}, tx);
      queued += 1;
    }
  }
  return queued;
}

async function eventsOf(tx: Tx, ended: ScanEnding, publicUrl: string): Promise<WebhookEvent[]> {
  const timestamp = ended.endedAt.toISOString();
  const companyUrl = `${publicUrl}/companies/${encodeURIComponent(ended.domain)}${ended.community ? '?community=include' : ''}`;
  const base = { domain: ended.domain, scanId: ended.scanId, companyUrl };
  const { outcome } = ended;
  const events: WebhookEvent[] = [{
    type: 'scan.ended',
    timestamp,
    data: {
      ...base,
      ending: outcome.ending,
      cause: ended.cause,
      score: ended.scored ? outcome.score : null,
      grade: ended.scored ? (outcome.grade as WebhookEvent['data']['grade']) : null,
    },
  }];
  if (!ended.scored || ended.companyId === null) return events;

  const score = outcome.score!;
  const grade = outcome.grade as NonNullable<WebhookEvent['data']['grade']>;
  // The company's previous scored scan: the history row before this scan's own.
  const [previous] = await tx.$queryRawUnsafe<Array<{ score: number; grade: string; scan_id: string | null }>>(
    `SELECT score, grade, scan_id FROM score_history
     WHERE company_id = $1::uuid AND (scan_id IS NULL OR scan_id <> $2::uuid)
     ORDER BY recorded_at DESC, id DESC LIMIT 1`,
    ended.companyId, ended.scanId,
  );
  if (!previous || previous.score !== score) {
    events.push({
      type: 'score.changed',
      timestamp,
      data: { ...base, score, grade, previousScore: previous?.score ?? null, change: previous ? score - previous.score : null },
    });
  }
  if (!previous || previous.grade !== grade) {
    events.push({
      type: 'grade.changed',
      timestamp,
      data: { ...base, grade, previousGrade: (previous?.grade ?? null) as WebhookEvent['data']['previousGrade'], score },
    });
  }
  if (previous?.scan_id) {
    const before = await tx.$queryRawUnsafe<Array<{ check_id: string; status: string }>>(
      `SELECT check_id, status FROM check_results WHERE scan_id = $1::uuid`,
      previous.scan_id,
    );
    const was = new Map(before.map((row) => [row.check_id, row.status]));
    const checks = outcome.checks
      .filter((check) => was.has(check.id) && was.get(check.id) !== check.status)
      .map((check) => ({
        id: check.id,
        name: check.name,
        layer: check.layer,
        previousStatus: was.get(check.id) as LeaderboardSchemas['CheckStatus'],
        status: check.status,
      }));
    if (checks.length > 0) events.push({ type: 'check.changed', timestamp, data: { ...base, score, grade, checks } });
  }
  return events;
}

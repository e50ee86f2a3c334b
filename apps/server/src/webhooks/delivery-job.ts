// The `webhook` job: one attempt to deliver one event to one subscription. A failed attempt queues the next one with
// exponential backoff (base doubling, at most an hour apart), the last one at the end of the retry window (24 h)
// after the event; if that fails too the delivery is `failed`. A worker that dies mid-attempt (kill -9) leaves a lease that
// expires, and the next worker sends the same delivery again: at least once, the same `webhook-id` every time.
// A subscription whose URL has failed for the whole window is paused with the reason.
import type { Db } from '@arl/db';
import type { FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import type { JobKind, JobQueue } from '../jobs/queue';
import { WEBHOOK_JOB, type WebhookDeliveryPayload } from './events';
import { sendWebhook } from './send';

export interface WebhookJobDeps {
  db: Db;
  clock: () => Date;
  logger: Logger;
  policy: Partial<FetchPolicy>;
  retryWindowMs: number;
  retryBaseMs: number;
  timeoutMs: number;
}

const MAX_GAP_MS = 3_600_000;
/** Attempts of one job: a worker killed mid-attempt leaves its job to be taken over (then run again, same id). */
const CRASH_ATTEMPTS = 5;

const duration = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} hours` : `${Math.round(ms / 1000)} s`);

export const webhookBackoff = (baseMs: number) => (attempt: number): number => Math.min(MAX_GAP_MS, baseMs * 2 ** Math.max(0, attempt - 1));

interface DeliveryRow {
  id: string;
  status: string;
  payload: string;
  created_at: Date;
  attempts: number;
  subscription_id: string;
  url: string;
  secret: string;
  sub_status: string;
  failing_since: Date | null;
}

export function defineWebhookJob(queue: JobQueue, deps: WebhookJobDeps): void {
  const { db, clock } = deps;
  const backoff = webhookBackoff(deps.retryBaseMs);

  const kind: JobKind<WebhookDeliveryPayload> = {
    concurrency: 4,
    maxAttempts: CRASH_ATTEMPTS,
    timeoutMs: deps.timeoutMs + 10_000,
    async run(job, ctx) {
      const { rows } = await db.executeSql(
        `SELECT d.id, d.status, d.payload, d.created_at, d.attempts, d.subscription_id, s.url, s.secret, s.status AS sub_status, s.failing_since
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE d.id = $1::uuid`,
        [job.payload.deliveryId],
      );
      const delivery = rows[0] as DeliveryRow | undefined;
      if (!delivery || delivery.status !== 'pending') return; // deleted with its subscription, or already settled
      if (delivery.sub_status !== 'active') {
        await settle(delivery.id, 'failed', null, 'Not sent: the subscription is paused.');
        return;
      }
      const log = ctx.logger.child({ deliveryId: delivery.id, subscriptionId: delivery.subscription_id });
      const now = clock();
      const outcome = await sendWebhook(
        { url: delivery.url, id: delivery.id, body: delivery.payload, secret: delivery.secret, now },
        { policy: deps.policy, timeoutMs: deps.timeoutMs, signal: ctx.signal },
      );
      if (outcome.ok) {
        await db.prisma.$transaction(async (tx) => {
          await ctx.completeIn(tx);
          await tx.$executeRawUnsafe(
            `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, response_status = $2::int,
                    last_error = NULL, last_attempt_at = $3::timestamptz, next_attempt_at = NULL, delivered_at = $3::timestamptz
             WHERE id = $1::uuid`,
            delivery.id, outcome.status, now,
          );
          await tx.$executeRawUnsafe(`UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = $1::uuid`, delivery.subscription_id);
        });
        log.info({ status: outcome.status, attempt: job.attempt }, 'webhook delivered');
        return;
      }

      // The URL counts as failing since the oldest event it could not take; the next attempt is due after the
      // backoff, but never after the event's window ends, so the last attempt falls exactly at its end.
      const createdAt = new Date(delivery.created_at);
      const failingSince = delivery.failing_since ?? createdAt;
      const attempts = Number(delivery.attempts) + 1;
      const windowEnd = createdAt.getTime() + deps.retryWindowMs;
      const final = now.getTime() >= windowEnd;
      const pause = now.getTime() - failingSince.getTime() >= deps.retryWindowMs;
      const nextAt = final ? null : new Date(Math.min(windowEnd, now.getTime() + backoff(attempts)));
      log.warn({ status: outcome.status, error: outcome.error, attempts, final, pause }, 'webhook attempt failed');
      await db.prisma.$transaction(async (tx) => {
        await ctx.completeIn(tx);
        await tx.$executeRawUnsafe(
          `UPDATE webhook_deliveries SET attempts = attempts + 1, response_status = $2::int, last_error = $3::text,
                  last_attempt_at = $4::timestamptz, status = CASE WHEN $5::timestamptz IS NULL THEN 'failed' ELSE status END,
                  next_attempt_at = $5::timestamptz
           WHERE id = $1::uuid`,
          delivery.id, outcome.status, outcome.error, now, nextAt,
        );
        await tx.$executeRawUnsafe(
          `UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, $2::timestamptz) WHERE id = $1::uuid`,
          delivery.subscription_id, createdAt,
        );
        if (pause) {
          await tx.$executeRawUnsafe(
            `UPDATE webhook_subscriptions SET status = 'paused', paused_at = $2::timestamptz, paused_reason = $3::text
             WHERE id = $1::uuid AND status = 'active'`,
            delivery.subscription_id, now,
            `Deliveries have failed since ${failingSince.toISOString()} (${duration(deps.retryWindowMs)}): ${outcome.error}`.slice(0, 500),
          );
        }
        // The retry is a new job of the same delivery (same webhook-id), due at the backoff: the delivery's own
        // attempt count drives the backoff, and the job's attempts are left for crashes of its worker.
        if (nextAt && !pause) await queue.enqueue<WebhookDeliveryPayload>(WEBHOOK_JOB, { deliveryId: delivery.id }, { runAt: nextAt }, tx);
      });
      if (pause) await settlePending(delivery.subscription_id);
    },
    async onGiveUp(job, reason, tx) {
      await tx.$executeRawUnsafe(
        `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = COALESCE(last_error, $2::text)
         WHERE id = $1::uuid AND status = 'pending'`,
        job.payload.deliveryId, reason.slice(0, 500),
      );
    },
  };
  queue.define(WEBHOOK_JOB, kind);

  /** A paused subscription's other pending deliveries will not be sent: say so at once. */
  async function settlePending(subscriptionId: string): Promise<void> {
    await db.executeSql(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
              last_error = COALESCE(last_error, 'Not sent: the subscription is paused.')
       WHERE subscription_id = $1::uuid AND status = 'pending'`,
      [subscriptionId],
    );
  }

  async function settle(id: string, status: 'failed', responseStatus: number | null, error: string): Promise<void> {
    await db.executeSql(
      `UPDATE webhook_deliveries SET status = $2, response_status = COALESCE($3::int, response_status), last_error = $4, next_attempt_at = NULL
       WHERE id = $1::uuid`,
      [id, status, responseStatus, error],
    );
  }
}

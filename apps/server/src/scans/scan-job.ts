// The `scan` job: waiting -> running -> (scanner phases) -> scoring -> ended. The scanner's progress is appended to
// the scan's events as it happens; the outcome is written in one transaction together with the job's completion,
// so a worker that lost its job (its lease expired and another worker took over) cannot record a second outcome.
import { retryWhileDatabaseDown } from '../jobs/database-retry';
import type { Db } from '@arl/db';
import { scan as runScanner, type FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import { LeaseLostError, type JobKind, type JobQueue, type Tx } from '../jobs/queue';
import { DeadlineAbort, ShutdownAbort } from '../jobs/worker';
import { MAIL_JOB } from '../mail/mail-job';
import type { Metrics } from '../metrics/metrics';
import { appendEvent, recordRunning, recordScoring, recordStep } from './events';
import { recordRanks } from '../reports/record-rank';
import type { IpTurns } from '../rescans/ip-turns';
import { endScan, type EndedScan, type EndScanDeps, type ScanOutcome } from './results';
import type { ScanEndedEvents } from './scan-ended';

export const SCAN_JOB = 'scan';

export interface ScanJobPayload {
  scanId: string;
}

export interface ScanJobDeps {
  db: Db;
  queue: JobQueue;
  /** Where the scan's end is told: its writers run in the ending's transaction, its followers after the commit. */
  scanEnded: ScanEndedEvents;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  publicUrl: string;
  concurrency: number;
  fetchPolicy: Partial<FetchPolicy>;
  /** Pages a scan samples at most (SCAN_MAX_PAGES). */
  maxPages?: number;
  /** The ranks a company's new facts give it in this process's live index (see EndScanDeps.ranksIf). */
  ranksIf?: EndScanDeps['ranksIf'];
  /** SCAN_IP_GAP between census scans on one address (rescans/ip-turns.ts); none: no gap. */
  ipTurns?: IpTurns;
}

/** Whole-scan deadline: the scanner's own budget (30 s by default) plus room to write the result. */
export const SCAN_TIMEOUT_MS = 60_000;
/** A scan whose worker vanished is retried once, then ended `interrupted`. */
export const SCAN_ATTEMPTS = 2;

const TX = { maxWait: 30_000, timeout: 30_000 };

function interruptedCause(reason: unknown): string {
  if (reason instanceof DeadlineAbort) return `The scan ran past its deadline of ${Math.round(SCAN_TIMEOUT_MS / 1000)} seconds.`;
  return 'The scan was cancelled before it finished.';
}

const emptyOutcome = (ending: ScanOutcome['ending'], cause: string): ScanOutcome => ({
  ending, cause, score: null, grade: null, summary: null, siteName: null, checks: [], layers: [],
});

/**
 * Writes a scan's outcome in one transaction (with `alsoIn`: the job's completion), then tells its end (ScanEnded)
 * once the commit returns: the leaderboard applies the company's facts and keeps the detail in this process
 * synchronously, without a statement, then tells the other processes. So a read that starts after this has
 * reported the scan ended is answered from the new ranking.
 */
export async function commitEnding(
  deps: Pick<ScanJobDeps, 'db' | 'queue' | 'scanEnded' | 'clock' | 'logger' | 'publicUrl' | 'ranksIf'>,
  scanId: string,
  outcome: ScanOutcome,
  alsoIn: (tx: Tx) => Promise<void> = async () => undefined,
  /** Hears the commit before the change is published (the bench's freshness clock starts there). */
  onCommitted: (ended: EndedScan | null) => void = () => undefined,
): Promise<EndedScan | null> {
  const ended = await deps.db.prisma.$transaction(async (tx) => {
    await alsoIn(tx);
    return endScan(tx, scanId, outcome, {
      queue: deps.queue, publicUrl: deps.publicUrl, now: deps.clock(), ranksIf: deps.ranksIf, onEnded: (t, e) => deps.scanEnded.write(t, e),
    });
  }, TX);
  onCommitted(ended);
  for (const kind of ended?.wake ?? []) deps.queue.notify(kind);
  if (ended) await deps.scanEnded.emit(ended.event, (err) => deps.logger.warn({ err, scanId }, "a follower of the scan's end failed"));
  if (ended?.company) {
    // Without a live index here the transaction could not know the point's ranks: they are counted now.
    if (!ended.ranksRecorded) {
      await recordRanks(deps.db, scanId, ended.company.id).catch((err) => deps.logger.warn({ err, scanId }, 'could not record the ranks of a history point'));
    }
  }
  return ended;
}

export function defineScanJob(deps: ScanJobDeps): void {
  const { db, queue, clock } = deps;

  const finish = async (tx: Tx, scanId: string, outcome: ScanOutcome) =>
    // Unscored, so no follower after the commit has anything to do (the queue commits this transaction itself).
    endScan(tx, scanId, outcome, { queue, publicUrl: deps.publicUrl, now: clock(), onEnded: (t, e) => deps.scanEnded.write(t, e) });

  const kind: JobKind<ScanJobPayload> = {
    concurrency: deps.concurrency,
    maxAttempts: SCAN_ATTEMPTS,
    timeoutMs: SCAN_TIMEOUT_MS,
    backoffMs: () => 0,
    async run(job, ctx) {
      const { scanId } = job.payload;
      // Politeness: a census scan waits for its address's turn while it is still `waiting` (rescans/ip-turns.ts).
      if (deps.ipTurns?.enabled) {
        const { rows } = await db.executeSql(`SELECT url, origin FROM scans WHERE id = $1::uuid AND state <> 'ended'`, [scanId]);
        const pending = rows[0] as { url: string; origin: string } | undefined;
        if (pending?.origin === 'rescan') await deps.ipTurns.take(pending.url, ctx.signal);
        if (ctx.signal.aborted) throw ctx.signal.reason;
      }
      // waiting -> running in one statement (no interactive transaction: see the progress steps below).
      const scan = await recordRunning(db, scanId, clock());
      if (!scan) return;
      const log = ctx.logger.child({ scanId });

      // Progress callbacks are synchronous; their writes are chained so events keep the scanner's order. Each step
      // is ONE statement (no interactive transaction): with the embedded database every statement and every
      // transaction round runs on this event loop, between the scans' own work.
      let writes = Promise.resolve();
      const onProgress = (step: string) => {
        writes = writes
          .then(() => (step === 'scoring' ? recordScoring(db, scanId, clock()) : recordStep(db, scanId, step, clock())))
          .catch((err) => log.warn({ err, step }, 'could not record a scan step'));
      };
      const result = await runScanner(scan.url, {
        signal: ctx.signal,
        onProgress,
        fetchPolicy: deps.fetchPolicy,
        maxPages: deps.maxPages,
        logger: { debug: (...a: unknown[]) => log.debug(a), warn: (...a: unknown[]) => log.warn(a) },
      });
      await writes;
      // Lost lease: another worker owns the scan. Shutdown: the worker hands the job back to the queue (not an
      // attempt), and this scan runs again from the start in the next worker; neither records an ending here.
      if (ctx.signal.reason instanceof LeaseLostError || ctx.signal.reason instanceof ShutdownAbort) throw ctx.signal.reason;
      // An interrupted scan whose signal never fired stopped on an error of the scanner's own: keep its cause.
      const outcome: ScanOutcome = result.ending === 'interrupted' && ctx.signal.aborted ? { ...result, cause: interruptedCause(ctx.signal.reason) } : result;
      // The scan's work is done: a database outage at this moment delays its ending instead of losing it.
      const ended = await retryWhileDatabaseDown(() => commitEnding(deps, scanId, outcome, (tx) => ctx.completeIn(tx)), ctx.signal, log, "the scan's ending");
      log.info({ domain: scan.domain, ending: outcome.ending, cause: outcome.cause, score: outcome.score, ms: result.durationMs }, 'scan ended');
      deps.metrics.scanEndings.inc({ ending: outcome.ending });
      deps.metrics.scanDuration.observe({ ending: outcome.ending }, result.durationMs / 1000);
      // Only a scan with recipients queued mail: waking the mail worker for nothing costs a claim statement per scan.
      if (ended && ended.mails > 0) queue.notify(MAIL_JOB);
    },
    async onRetry(job, reason, tx) {
      const updated = await tx.scan.updateMany({ where: { id: job.payload.scanId, state: { not: 'ended' } }, data: { state: 'waiting' } });
      if (updated.count > 0) await appendEvent(tx, job.payload.scanId, 'waiting', clock());
      deps.logger.warn({ scanId: job.payload.scanId, reason }, 'scan queued again');
    },
    async onGiveUp(job, reason, tx) {
      const cause = /lease expired/.test(reason)
        ? `The worker running the scan stopped unexpectedly (${job.attempt} attempts).`
        : 'The scan stopped because of an internal error.';
      const ended = await finish(tx, job.payload.scanId, emptyOutcome('interrupted', cause));
      const scan = await tx.scan.findUnique({ where: { id: job.payload.scanId }, select: { domain: true } });
      deps.logger.warn({ scanId: job.payload.scanId, domain: scan?.domain, ending: 'interrupted', cause, reason }, 'scan ended');
      deps.metrics.scanEndings.inc({ ending: 'interrupted' });
      // The mail job was enqueued in this transaction; wake the local worker once it commits.
      setImmediate(() => {
        queue.notify(MAIL_JOB);
        for (const kind of ended?.wake ?? []) queue.notify(kind);
      });
    },
  };
  queue.define(SCAN_JOB, kind);
}

// The `journey` job: waiting -> running -> ended. Steps are written as the agent takes them, so a reader can follow
// along; the outcome is written in one transaction with the job's completion, so a worker that lost its job (its
// lease expired and another took over) cannot record a second outcome. Shutdown and deadlines end the journey
// `interrupted`; a vanished worker's journey is retried once, then ended `interrupted` (the scans' rules).
import type { Db } from '@arl/db';
import { runJourney, type JourneyBudgets, type JourneyDriver, type JourneyEvidence, type JourneyResult, type JourneyStep, type JourneyTask } from '@arl/journeys';
import type { FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import { LeaseLostError, type JobKind, type JobQueue, type Tx } from '../jobs/queue';
import { DeadlineAbort, ShutdownAbort } from '../jobs/worker';
import { notifyProgress } from '../streams/progress-feed';
import type { Metrics } from '../metrics/metrics';

export const JOURNEY_JOB = 'journey';

export interface JourneyJobPayload {
  journeyId: string;
}

export interface JourneyJobDeps {
  db: Db;
  queue: JobQueue;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  fetchPolicy: Partial<FetchPolicy>;
  /** Chosen per run: the LLM driver when the model endpoint is configured, else the heuristic one. */
  driver: () => JourneyDriver;
  budgets?: Partial<JourneyBudgets>;
  concurrency: number;
}

/** The engine stops itself at its time budget (60 s by default); the job deadline is the safety net above it. */
export const JOURNEY_TIMEOUT_MS = 90_000;
export const JOURNEY_ATTEMPTS = 2;

const TX = { maxWait: 30_000, timeout: 30_000 };

interface Ending {
  outcome: JourneyResult['outcome'] | 'interrupted';
  cause: string;
  steps: readonly JourneyStep[];
  evidence: readonly JourneyEvidence[];
  durationMs: number | null;
}

/** Ends a journey unless it already ended; frees the company for the next journey. */
async function endJourney(tx: Tx, journeyId: string, ending: Ending, now: Date): Promise<boolean> {
  const updated = await tx.journey.updateMany({
    where: { id: journeyId, state: { not: 'ended' } },
    data: {
      state: 'ended',
      activeCompany: null,
      outcome: ending.outcome,
      cause: ending.cause,
      steps: ending.steps as unknown as object[],
      evidence: ending.evidence as unknown as object[],
      durationMs: ending.durationMs,
      endedAt: now,
    },
  });
  if (updated.count === 1) await notifyProgress(tx, `journey:${journeyId}`);
  return updated.count === 1;
}

function interruptedCause(reason: unknown): string {
  if (reason instanceof DeadlineAbort) return `The journey ran past its deadline of ${Math.round(JOURNEY_TIMEOUT_MS / 1000)} seconds.`;
  return 'The journey was cancelled before it finished.';
}

/** The host a journey started from, for log lines (the company's site). */
function domainOf(startUrl: string | null): string | null {
  try {
    return startUrl ? new URL(startUrl).hostname : null;
  } catch {
    return null;
  }
}

export function defineJourneyJob(deps: JourneyJobDeps): void {
  const { db, queue, clock } = deps;

  const kind: JobKind<JourneyJobPayload> = {
    concurrency: deps.concurrency,
    maxAttempts: JOURNEY_ATTEMPTS,
    timeoutMs: JOURNEY_TIMEOUT_MS,
    backoffMs: () => 0,
    async run(job, ctx) {
      const { journeyId } = job.payload;
      const journey = await db.prisma.journey.findUnique({ where: { id: journeyId }, select: { state: true, task: true, startUrl: true, startedAt: true } });
      if (!journey || journey.state === 'ended') return;
      const log = ctx.logger.child({ journeyId });
      const driver = deps.driver();
      const startedAt = journey.startedAt ?? clock();
      // A retried attempt starts over: the steps of the lost attempt are replaced, not appended to.
      await db.prisma.journey.update({
        where: { id: journeyId },
        data: { state: 'running', driver: driver.name, startedAt, attempts: { increment: 1 }, steps: [], evidence: [] },
      });
      await notifyProgress(db.prisma, `journey:${journeyId}`);

      const steps: JourneyStep[] = [];
      let evidence: readonly JourneyEvidence[] = [];
      let writes = Promise.resolve();
      const onStep = (step: JourneyStep, found: readonly JourneyEvidence[]) => {
        steps.push(step);
        evidence = [...found];
        const snapshot = { steps: [...steps], evidence: [...found] };
        writes = writes
          .then(() => db.prisma.journey.updateMany({ where: { id: journeyId, state: 'running' }, data: { steps: snapshot.steps as object[], evidence: snapshot.evidence as object[] } }))
          .then(() => notifyProgress(db.prisma, `journey:${journeyId}`))
          .catch((err) => log.warn({ err }, 'could not record a journey step'));
      };

      let ending: Ending;
      try {
        const result = await runJourney({
          task: journey.task as JourneyTask,
          startUrl: journey.startUrl ?? '',
          fetchPolicy: deps.fetchPolicy,
          driver,
          signal: ctx.signal,
          budgets: deps.budgets,
          onStep,
        });
        ending = result;
      } catch (err) {
        await writes;
        if (!ctx.signal.aborted) throw err;
        // Lost lease: another worker owns it. Shutdown: handed back to the queue and run again from the start.
        if (ctx.signal.reason instanceof LeaseLostError || ctx.signal.reason instanceof ShutdownAbort) throw ctx.signal.reason;
        ending = { outcome: 'interrupted', cause: interruptedCause(ctx.signal.reason), steps, evidence: [...evidence], durationMs: clock().getTime() - startedAt.getTime() };
      }
      await writes;
      await db.prisma.$transaction(async (tx) => {
        await ctx.completeIn(tx);
        await endJourney(tx, journeyId, ending, clock());
      }, TX);
      log.info({ domain: domainOf(journey.startUrl), task: journey.task, ending: ending.outcome, cause: ending.cause, driver: driver.name, ms: ending.durationMs }, 'journey ended');
      deps.metrics.journeyEndings.inc({ outcome: ending.outcome });
      if (ending.durationMs !== null) deps.metrics.journeyDuration.observe({ outcome: ending.outcome }, ending.durationMs / 1000);
    },
    async onRetry(job, reason, tx) {
      await tx.journey.updateMany({ where: { id: job.payload.journeyId, state: { not: 'ended' } }, data: { state: 'waiting' } });
      await notifyProgress(tx, `journey:${job.payload.journeyId}`);
      deps.logger.warn({ journeyId: job.payload.journeyId, reason }, 'journey queued again');
    },
    async onGiveUp(job, reason, tx) {
      const cause = /lease expired/.test(reason)
        ? `The worker running the journey stopped unexpectedly (${job.attempt} attempts).`
        : 'The journey stopped because of an internal error.';
      const row = await tx.journey.findUnique({ where: { id: job.payload.journeyId }, select: { steps: true, evidence: true } });
      await endJourney(
        tx,
        job.payload.journeyId,
        { outcome: 'interrupted', cause, steps: (row?.steps ?? []) as unknown as JourneyStep[], evidence: (row?.evidence ?? []) as unknown as JourneyEvidence[], durationMs: null },
        clock(),
      );
      const journey = await tx.journey.findUnique({ where: { id: job.payload.journeyId }, select: { startUrl: true } });
      deps.logger.warn({ journeyId: job.payload.journeyId, domain: domainOf(journey?.startUrl ?? null), ending: 'interrupted', cause, reason }, 'journey ended');
      deps.metrics.journeyEndings.inc({ outcome: 'interrupted' });
    },
  };
  queue.define(JOURNEY_JOB, kind);
}

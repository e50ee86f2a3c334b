// The worker loop (after pg-boss's worker and graphile-worker's main loop): created -> active -> stopping -> stopped.
// Each turn recovers expired leases now and then, claims due jobs in one statement, and waits on an abortable delay
// that a new local job or a freed slot cuts short. A turn woken that way looks only at the kinds that woke it (the
// others had nothing due at their last look, and what other processes enqueue is found by the next idle poll, which
// looks at every kind). Errors back off instead of spinning. Every job
// gets an AbortSignal and a deadline; its lease is renewed while it runs, and a lost lease aborts it.
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import type { Logger } from 'pino';
import { LeaseLostError, type Job, type JobQueue } from './queue';

export interface WorkerOptions {
  /** How long a claimed job stays ours without a renewal (default 15 s; renewed every third of it). */
  leaseMs?: number;
  /** Idle polling interval for jobs enqueued by other processes (default 500 ms). */
  pollMs?: number;
  /** How often expired leases are looked for (default: the lease). */
  recoverEveryMs?: number;
  /** Recover every active job at start (PGlite: only one process can hold the database, so they are orphans). */
  recoverAllAtStart?: boolean;
  /** Per-kind parallelism overrides (default: the kind's own `concurrency`). */
  concurrency?: Record<string, number>;
  /** Only these kinds (default: every kind defined when the worker starts). */
  kinds?: string[];
}

export type WorkerState = 'created' | 'active' | 'stopping' | 'stopped';

/** Why a job's signal fired. */
export class ShutdownAbort extends Error {
  constructor() {
    super('the worker is shutting down');
    this.name = 'ShutdownAbort';
  }
}
export class DeadlineAbort extends Error {
  constructor(ms: number) {
    super(`the job ran past its deadline of ${ms} ms`);
    this.name = 'DeadlineAbort';
  }
}

interface Running {
  job: Job;
  controller: AbortController;
  done: Promise<void>;
  /** Stops renewing the lease (when the worker hands the job back itself). */
  stopHeartbeat(): void;
}

export class Worker {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private state: WorkerState = 'created';
  private readonly running = new Map<string, Running>();
  private readonly active = new Map<string, number>();
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly recoverEveryMs: number;
  private wake: (() => void) | null = null;
  /** Kinds to look at on the next turn woken early (a local enqueue of the kind, or one of its slots freed). */
  private readonly woken = new Set<string>();
  private loop: Promise<void> | null = null;
  private stopping: Promise<void> | null = null;
  /** Set when the shutdown window ends: a job claimed after that is handed back at once. */
  private handingBack = false;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly queue: JobQueue, private readonly logger: Logger, private readonly options: WorkerOptions = {}) {
    this.leaseMs = options.leaseMs ?? 15_000;
    this.pollMs = options.pollMs ?? 500;
    this.recoverEveryMs = options.recoverEveryMs ?? this.leaseMs;
  }

  get status(): WorkerState {
    return this.state;
  }

  /** Jobs running right now. */
  get inFlight(): number {
    return this.running.size;
  }

  start(): void {
    if (this.state !== 'created') throw new Error(`worker is ${this.state}`);
    this.state = 'active';
    const kinds = new Set(this.options.kinds ?? this.queue.kindNames());
    this.unsubscribe = this.queue.onNotify((kind) => {
      if (kinds.has(kind)) this.poke(kind);
    });
    this.loop = this.run([...kinds]);
    this.logger.info({ workerId: this.id, kinds: [...kinds] }, 'worker started');
  }

  private poke(kind?: string): void {
    if (kind !== undefined) this.woken.add(kind);
    this.wake?.();
  }

  private slotsOf(kind: string): number {
    const limit = this.options.concurrency?.[kind] ?? this.queue.kind(kind)?.concurrency ?? 1;
    return Math.max(0, limit - (this.active.get(kind) ?? 0));
  }

  private async run(kinds: string[]): Promise<void> {
    let lastRecovery = 0;
    let failures = 0;
    if (this.options.recoverAllAtStart) {
      try {
        const recovered = await this.queue.recoverExpired({ all: true });
        if (recovered > 0) this.logger.warn({ recovered }, 'recovered jobs left active by a previous process');
      } catch (err) {
        this.logger.error({ err }, 'start-up recovery failed');
      }
      lastRecovery = Date.now();
    }
    // The first turn and every idle poll look at every kind; a turn woken early only at the kinds that woke it.
    let look: string[] = kinds;
    while (this.state === 'active') {
      let delayMs = this.pollMs;
      try {
        if (Date.now() - lastRecovery >= this.recoverEveryMs) {
          lastRecovery = Date.now();
          await this.queue.recoverExpired();
          look = kinds; // recovered jobs are queued again, of any kind
        }
        if (this.state === 'active') {
          const jobs = await this.queue.claimMany(look.map((kind) => [kind, this.slotsOf(kind)]), this.id, this.leaseMs);
          for (const job of jobs) this.execute(job);
        }
        failures = 0;
      } catch (err) {
        failures += 1;
        delayMs = Math.min(10_000, this.pollMs * 2 ** failures);
        this.logger.error({ err, retryInMs: delayMs }, 'worker loop error');
        for (const kind of look) this.woken.add(kind); // not looked at: look again next turn
      }
      if (this.state !== 'active') break;
      // Kinds woken while this turn was claiming are looked at at once (an error backs off first).
      const early = (failures === 0 && this.woken.size > 0) || (await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), delayMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      }));
      this.wake = null;
      look = early ? kinds.filter((kind) => this.woken.has(kind)) : kinds;
      this.woken.clear();
    }
  }

  private execute(job: Job): void {
    const definition = this.queue.kind(job.kind);
    const controller = new AbortController();
    const log = this.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempt });
    const deadline = new Date(Date.now() + job.timeoutMs);
    const deadlineTimer = setTimeout(() => controller.abort(new DeadlineAbort(job.timeoutMs)), job.timeoutMs);
    let renewing = false;
    /** Set once this attempt marked the job completed (in the handler's transaction or after it). */
    let completed = false;
    const heartbeat = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.queue
        .renew(job, this.id, this.leaseMs)
        .then((ours) => {
          // A renewal that waited on the ending transaction's row lock finds the job completed, no longer ours: that
          // is this worker's own completion (completeIn ran in that transaction), not a lost lease. Aborting then
          // would log a false alarm and abort the follow-up work (change feed, ranks) of a job that is done.
          if (!ours && !controller.signal.aborted && !completed) {
            log.warn('lease lost: aborting the job');
            controller.abort(new LeaseLostError(job.id));
          }
        })
        .catch((err) => log.warn({ err }, 'lease renewal failed'))
        .finally(() => {
          renewing = false;
        });
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    this.active.set(job.kind, (this.active.get(job.kind) ?? 0) + 1);
    if (this.handingBack) controller.abort(new ShutdownAbort());

    const done = (async () => {
      try {
        if (!definition) throw new Error(`no handler for job kind ${job.kind}`);
        await definition.run(job, {
          signal: controller.signal,
          deadline,
          workerId: this.id,
          logger: log,
          completeIn: async (tx) => {
            await this.queue.completeIn(tx, job, this.id);
            completed = true;
          },
        });
        if (!completed) {
          await this.queue.complete(job, this.id);
          completed = true;
        }
      } catch (err) {
        if (err instanceof LeaseLostError) {
          log.warn('job finished after losing its lease: its outcome was discarded');
        } else if (controller.signal.reason instanceof ShutdownAbort) {
          const released = await this.queue.release(job, this.id).catch((releaseErr: unknown) => {
            log.warn({ err: releaseErr }, 'could not hand the job back; it runs again once its lease expires');
            return false;
          });
          log.info({ released }, 'shutting down: job handed back to the queue');
        } else {
          const outcome = await this.queue.fail(job, this.id, err instanceof Error ? err.message : String(err)).catch((failErr: unknown) => {
            // The database did not take the failure either (an outage): the lease expires and the job runs again.
            log.warn({ err: failErr }, 'could not record the failed attempt; the job runs again once its lease expires');
            return 'unrecorded';
          });
          log.error({ err, outcome }, 'job attempt failed');
        }
      } finally {
        clearTimeout(deadlineTimer);
        clearInterval(heartbeat);
        this.active.set(job.kind, (this.active.get(job.kind) ?? 1) - 1);
        this.running.delete(job.id);
        this.poke(job.kind);
      }
    })();
    this.running.set(job.id, { job, controller, done, stopHeartbeat: () => clearInterval(heartbeat) });
  }

  /**
   * Stops claiming and lets the jobs in flight use the shutdown window: those still running near its end are aborted
   * and handed back to the queue (lease released, attempt not counted) for the restarted or another worker. A job
   * that does not stop when aborted is handed back by the worker itself, so the hand-back ends about `timeoutMs`
   * after the call whatever the job is doing (plus one short transaction per such job). Idempotent.
   */
  stop(timeoutMs = 10_000): Promise<void> {
    this.stopping ??= (async () => {
      if (this.state === 'created') {
        this.state = 'stopped';
        return;
      }
      this.state = 'stopping';
      this.unsubscribe?.();
      this.poke();
      // Room kept at the end of the window for the aborted jobs to hand themselves back (one short transaction).
      const handBackMs = Math.min(2000, Math.floor(timeoutMs / 4));
      let windowTimer: NodeJS.Timeout | undefined;
      const window = new Promise<'window'>((resolve) => {
        windowTimer = setTimeout(() => resolve('window'), timeoutMs - handBackMs);
      });
      const allDone = () => Promise.all([...this.running.values()].map((r) => r.done)).then(() => 'done' as const);
      // The loop first (a claim in flight may still hand out jobs; they run like the others), then the jobs.
      let outcome: 'done' | 'window' = await Promise.race([this.loop!.then(() => 'done' as const), window]);
      if (outcome === 'done') outcome = await Promise.race([allDone(), window]);
      clearTimeout(windowTimer);
      this.handingBack = true;
      if (this.running.size > 0) {
        this.logger.info({ inFlight: this.running.size }, 'shutdown window ending: handing the jobs in flight back to the queue');
        for (const { controller } of this.running.values()) controller.abort(new ShutdownAbort());
        // Half of the hand-back room for the jobs to stop and hand themselves back; a job still running then (a
        // handler that does not notice its abort, a read the abort cannot reach) is handed back by the worker, so a
        // deploy never leaves a job locked, to be counted as a crash at the next start. Its late outcome is fenced
        // out (the worker no longer holds the job). Not raced with a timer: on a starved event loop every timer
        // fires late at once, and the hand-back must still happen; the process's own deadline bounds it.
        let graceTimer: NodeJS.Timeout | undefined;
        const grace = new Promise<'grace'>((resolve) => {
          graceTimer = setTimeout(() => resolve('grace'), Math.max(20, Math.floor(handBackMs / 2)));
        });
        const settled = await Promise.race([allDone(), grace]);
        clearTimeout(graceTimer);
        if (settled === 'grace') {
          const stuck = [...this.running.values()];
          for (const { stopHeartbeat } of stuck) stopHeartbeat();
          await Promise.all(stuck.map(async ({ job }) => {
            const released = await this.queue.release(job, this.id);
            this.logger.warn({ jobId: job.id, kind: job.kind, released }, 'job did not stop when aborted: handed back by the worker');
          }));
        }
      }
      this.state = 'stopped';
      this.logger.info({ workerId: this.id }, 'worker stopped');
    })();
    return this.stopping;
  }
}

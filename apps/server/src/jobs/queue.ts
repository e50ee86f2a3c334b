// A durable job queue in the service's own database (PGlite or PostgreSQL), shared by every worker process.
//
// - enqueue() inserts a row, optionally inside the caller's transaction (a rolled-back transaction leaves no job).
// - claim() takes due jobs of one kind with FOR UPDATE SKIP LOCKED and stamps a lease (locked_by, locked_until).
// - The worker renews the lease while the job runs; a worker that dies stops renewing, the lease expires, and
//   recoverExpired() (run by every worker) puts the job back in the queue or gives up on it.
// - release() hands a job back untouched when its worker shuts down: queued again at once, the attempt not counted.
// - complete()/retry()/giveUp() are fenced by the lease: a worker that lost its job cannot finish it.
//
// Job kinds are registered with their handler and hooks (scans, mail, journeys...); the queue itself knows none.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Db, Prisma } from '@arl/db';
import type { Logger } from 'pino';

export type Tx = Prisma.TransactionClient;

export interface Job<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  /** 1 for the first attempt. */
  attempt: number;
  maxAttempts: number;
  timeoutMs: number;
}

export interface JobContext {
  /** Fires at the deadline, when the lease is lost, or when the worker shuts down; `signal.reason` says which. */
  signal: AbortSignal;
  deadline: Date;
  workerId: string;
  logger: Logger;
  /**
   * Marks the job completed inside the caller's transaction, so its outcome and the job's completion commit
   * together. Throws LeaseLostError (rolling the transaction back) when this worker no longer holds the job.
   */
  completeIn(tx: Tx): Promise<void>;
}

export interface JobKind<P = unknown> {
  /** Runs one attempt. Resolving completes the job; throwing retries it with backoff while attempts remain. */
  run(job: Job<P>, ctx: JobContext): Promise<void>;
  /** Parallel jobs of this kind per worker process. */
  concurrency: number;
  /** Default attempts for jobs of this kind (1 = never retried). */
  maxAttempts: number;
  /** Default deadline of one attempt. */
  timeoutMs: number;
  /** Delay before attempt n+1 after attempt n failed (default: 1 s doubling, at most 5 min). */
  backoffMs?(attempt: number): number;
  /** In the transaction that puts the job back in the queue (its attempt failed or its worker vanished). */
  onRetry?(job: Job<P>, reason: string, tx: Tx): Promise<void>;
  /** In the transaction that gives up on the job (attempts used up). */
  onGiveUp?(job: Job<P>, reason: string, tx: Tx): Promise<void>;
}

export interface EnqueueOptions {
  maxAttempts?: number;
  timeoutMs?: number;
  /** Earliest start (default now). */
  runAt?: Date;
}

export class LeaseLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} is no longer held by this worker`);
    this.name = 'LeaseLostError';
  }
}

interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  timeout_ms: number;
}

const toJob = (row: JobRow): Job => ({
  id: row.id,
  kind: row.kind,
  payload: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
  attempt: Number(row.attempts),
  maxAttempts: Number(row.max_attempts),
  timeoutMs: Number(row.timeout_ms),
});

const defaultBackoff = (attempt: number): number => Math.min(300_000, 1000 * 2 ** Math.max(0, attempt - 1));
const MAX_ERROR = 1000;

export class JobQueue {
  private readonly kinds = new Map<string, JobKind<any>>();
  private readonly wakeups = new EventEmitter();

  constructor(private readonly db: Db, private readonly logger: Logger) {
    this.wakeups.setMaxListeners(100);
  }

  define<P>(kind: string, definition: JobKind<P>): void {
    if (this.kinds.has(kind)) throw new Error(`job kind ${kind} is already defined`);
    if (!/^[a-z][a-z0-9_.-]{0,59}$/.test(kind)) throw new Error(`invalid job kind ${JSON.stringify(kind)}`);
    this.kinds.set(kind, definition);
  }

  kind(name: string): JobKind<unknown> | undefined {
    return this.kinds.get(name);
  }

  kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  /** Inserts a job; pass `tx` to make it part of the caller's transaction, then call notify() after the commit. */
  async enqueue<P>(kind: string, payload: P, options: EnqueueOptions = {}, tx?: Tx): Promise<string> {
    const definition = this.kinds.get(kind);
    if (!definition) throw new Error(`unknown job kind ${kind}`);
    const id = randomUUID();
    const values = [
      id,
      kind,
      JSON.stringify(payload),
      options.maxAttempts ?? definition.maxAttempts,
      options.timeoutMs ?? definition.timeoutMs,
      options.runAt ?? null,
    ];
    const sql = `INSERT INTO jobs (id, kind, payload, max_attempts, timeout_ms, run_at)
                 VALUES ($1::uuid, $2, $3::jsonb, $4, $5, COALESCE($6::timestamptz, now()))`;
    if (tx) await tx.$executeRawUnsafe(sql, ...values);
    else {
      await this.db.executeSql(sql, values);
      this.notify(kind);
    }
    return id;
  }

  /** Wakes this process's worker for `kind` (jobs enqueued in a transaction become visible at commit). */
  notify(kind: string): void {
    this.wakeups.emit('job', kind);
  }

  onNotify(listener: (kind: string) => void): () => void {
    this.wakeups.on('job', listener);
    return () => this.wakeups.off('job', listener);
  }

  async claim(kind: string, limit: number, workerId: string, leaseMs: number): Promise<Job[]> {
    return this.claimMany([[kind, limit]], workerId, leaseMs);
  }

  /**
   * Claims due jobs of several kinds, at most `limit` of each, in ONE statement: a worker looks at every kind with
   * free slots in one round trip (on the embedded database every statement runs on the server's event loop).
   */
  async claimMany(wanted: Array<[kind: string, limit: number]>, workerId: string, leaseMs: number): Promise<Job[]> {
    const asked = wanted.filter(([, limit]) => limit > 0);
    if (asked.length === 0) return [];
    // run_at is TIMESTAMPTZ(3): a now() stored there is rounded to the millisecond, so it can lie just after the
    // now() of a claim made at once; comparing at the column's precision makes a job due as soon as it is enqueued.
    // `= ANY(ARRAY(...))`, not `IN (...)`: the planner cannot know the LIMITs, guesses a tenth of the queue and, with
    // 1,000,000 queued jobs, hash-joined a sequential scan of the whole table (1.3 s a claim); the array is an
    // init plan whose few ids are fetched by primary key (server README, "Rescans": the census numbers).
    const { rows } = await this.db.executeSql(
      `UPDATE jobs SET state = 'active', attempts = attempts + 1, locked_by = $1,
              locked_until = now() + make_interval(secs => $2::double precision / 1000)
       WHERE id = ANY(ARRAY(SELECT due.id FROM unnest($3::text[], $4::int[]) AS wanted(kind, n)
                    CROSS JOIN LATERAL (SELECT id FROM jobs WHERE state = 'queued' AND kind = wanted.kind
                                          AND run_at <= now()::timestamptz(3)
                                        ORDER BY run_at, created_at LIMIT wanted.n FOR UPDATE SKIP LOCKED) due))
       RETURNING id, kind, payload, attempts, max_attempts, timeout_ms`,
      [workerId, leaseMs, asked.map(([kind]) => kind), asked.map(([, limit]) => limit)],
    );
    return (rows as JobRow[]).map(toJob);
  }

  /** Extends the lease; false when the job is no longer ours (it expired and was taken over). */
  async renew(job: Job, workerId: string, leaseMs: number): Promise<boolean> {
    const { rows } = await this.db.executeSql(
      `UPDATE jobs SET locked_until = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1::uuid AND locked_by = $2 AND state = 'active' AND attempts = $4 RETURNING id`,
      [job.id, workerId, leaseMs, job.attempt],
    );
    return rows.length === 1;
  }

  async completeIn(tx: Tx, job: Job, workerId: string): Promise<void> {
    const count = await tx.$executeRawUnsafe(
      `UPDATE jobs SET state = 'completed', locked_by = NULL, locked_until = NULL, finished_at = now()
       WHERE id = $1::uuid AND locked_by = $2 AND state = 'active' AND attempts = $3`,
      job.id, workerId, job.attempt,
    );
    if (count !== 1) throw new LeaseLostError(job.id);
  }

  async complete(job: Job, workerId: string): Promise<void> {
    await this.db.prisma.$transaction((tx) => this.completeIn(tx, job, workerId));
  }

  /** A failed attempt: back to the queue with backoff while attempts remain, else given up. Fenced by the lease. */
  async fail(job: Job, workerId: string, reason: string): Promise<'retried' | 'given_up' | 'not_ours'> {
    const definition = this.kinds.get(job.kind);
    try {
      return await this.db.prisma.$transaction(async (tx) => {
        const locked = await tx.$queryRawUnsafe<Array<{ id: string }>>(
          `SELECT id FROM jobs WHERE id = $1::uuid AND locked_by = $2 AND state = 'active' AND attempts = $3 FOR UPDATE`,
          job.id, workerId, job.attempt,
        );
        if (locked.length !== 1) return 'not_ours' as const;
        return this.settleFailed(tx, job, reason, definition?.backoffMs?.(job.attempt) ?? defaultBackoff(job.attempt));
      });
    } catch (err) {
      this.logger.error({ err, jobId: job.id }, 'could not record a failed job attempt; its lease will expire');
      return 'not_ours';
    }
  }

  /**
   * Hands a job back to the queue because its worker is shutting down (a deploy, not a failure): queued again at
   * once, the lease released and the attempt not counted, so a restart or another worker runs it as if it had never
   * been claimed. The kind's onRetry hook runs in the same transaction. Fenced by the lease.
   */
  async release(job: Job, workerId: string): Promise<boolean> {
    const definition = this.kinds.get(job.kind);
    try {
      return await this.db.prisma.$transaction(async (tx) => {
        const count = await tx.$executeRawUnsafe(
          `UPDATE jobs SET state = 'queued', attempts = attempts - 1, locked_by = NULL, locked_until = NULL, run_at = now()
           WHERE id = $1::uuid AND locked_by = $2 AND state = 'active' AND attempts = $3`,
          job.id, workerId, job.attempt,
        );
        if (count !== 1) return false;
        await definition?.onRetry?.(job, 'handed back: the worker is shutting down', tx);
        return true;
      });
    } catch (err) {
      this.logger.error({ err, jobId: job.id }, 'could not hand a job back; its lease will expire');
      return false;
    }
  }

  /**
   * Jobs whose lease expired (their worker died or hung) go back to the queue or are given up. `all` treats every
   * active job as orphaned: right at start-up on PGlite, whose data directory only one process can open.
   */
  async recoverExpired(options: { all?: boolean; batch?: number } = {}): Promise<number> {
    let recovered = 0;
    for (;;) {
      const count = await this.db.prisma.$transaction(async (tx) => {
        const rows = await tx.$queryRawUnsafe<JobRow[]>(
          `SELECT id, kind, payload, attempts, max_attempts, timeout_ms FROM jobs
           WHERE state = 'active' AND ($1::boolean OR locked_until < now())
           ORDER BY locked_until LIMIT $2 FOR UPDATE SKIP LOCKED`,
          options.all === true, options.batch ?? 50,
        );
        for (const row of rows) {
          const job = toJob(row);
          this.logger.warn({ jobId: job.id, kind: job.kind, attempt: job.attempt }, 'job lease expired: its worker stopped');
          await this.settleFailed(tx, job, 'lease expired: the worker running it stopped', 0);
        }
        return rows.length;
      });
      recovered += count;
      if (count === 0) return recovered;
    }
  }

  private async settleFailed(tx: Tx, job: Job, reason: string, backoffMs: number): Promise<'retried' | 'given_up'> {
    const definition = this.kinds.get(job.kind);
    const lastError = reason.slice(0, MAX_ERROR);
    if (job.attempt < job.maxAttempts) {
      await tx.$executeRawUnsafe(
        `UPDATE jobs SET state = 'queued', locked_by = NULL, locked_until = NULL, last_error = $2,
                run_at = now() + make_interval(secs => $3::double precision / 1000)
         WHERE id = $1::uuid`,
        job.id, lastError, backoffMs,
      );
      await definition?.onRetry?.(job, reason, tx);
      return 'retried';
    }
    await tx.$executeRawUnsafe(
      `UPDATE jobs SET state = 'failed', locked_by = NULL, locked_until = NULL, last_error = $2, finished_at = now()
       WHERE id = $1::uuid`,
      job.id, lastError,
    );
    await definition?.onGiveUp?.(job, reason, tx);
    return 'given_up';
  }

  /** Removes finished jobs older than `olderThanMs` (they are history, not state). */
  async purgeFinished(olderThanMs: number): Promise<void> {
    await this.db.executeSql(
      `DELETE FROM jobs WHERE state IN ('completed', 'failed')
       AND finished_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [olderThanMs],
    );
  }

  close(): void {
    this.wakeups.removeAllListeners();
  }
}

// Rescans of curated companies, paced for a census of 1,000,000: every company again each RESCAN_INTERVAL, the
// starts spread evenly over the interval, never-scanned companies first in a bounded first wave.
//
// - Even: a tick every few seconds (5 s by default) adds `rate × elapsed` to a budget (rate = curated / interval, a
//   week of a million is 1.65 starts a second) and starts its whole part; the fraction is carried to the next tick,
//   so over four 5 s ticks at 1.65/s the starts are 8, 8, 8, 9, never a minute's worth at once. The budget is capped
//   at one tick's worth plus one: time the scheduler could not use (a full queue, nothing due, a stopped worker)
//   is not caught up in a burst. The pace lives in the database (rescan_pace), so with several worker processes the
//   rate is the same whichever one takes the tick.
// - First wave: never-scanned curated companies (an import) are started ahead of rescans, at FIRST_WAVE_PER_SECOND
//   at most (its own carried budget) and never beyond the queue's room: an import of 100,000 companies is scanned
//   over a day, not enqueued at once.
// - Room: never more than `concurrency × 2` scans waiting, as before.
// - Due: `next_scan_at <= now` on the index (source, next_scan_at); a started company's next_scan_at moves to
//   now + interval × (1 − j), j drawn per scan in [0, JITTER): companies imported or scanned together drift apart.
//   A company scanned by another route (the API, a dispute, `npm run companies -- rescan`) within the last half
//   interval is not scanned again: its next_scan_at moves to that scan + interval × (1 − j) instead.
// - Politeness: a company whose registrable domain (companies are keyed by it) has a scan not ended is skipped and
//   stays due; the per-address gap is the scan job's (ip-turns.ts).
// - Safe with several processes: a tick runs under a transaction-scoped advisory lock, and the scans are inserted
//   through the same atomic start-or-join as the API, in the same transaction.
import type { Db } from '@arl/db';
import type { Logger } from 'pino';
import type { JobQueue, Tx } from '../jobs/queue';
import { SCAN_JOB } from '../scans/scan-job';
import type { ScanService } from '../scans/service';

/** Never-scanned companies started per second at most (86,400 a day). */
export const FIRST_WAVE_PER_SECOND = 1;
/** A company's next due time is its scan + interval × (1 − j), j in [0, JITTER). */
export const JITTER = 0.1;
/** How long the count of curated companies (the rate's numerator) is kept between ticks. */
const CURATED_COUNT_TTL_MS = 5 * 60_000;

export interface RescanSchedulerOptions {
  db: Db;
  scans: ScanService;
  queue: JobQueue;
  clock: () => Date;
  logger: Logger;
  intervalMs: number;
  /** Parallel scans per worker: sizes how many rescans may wait at once. */
  concurrency: number;
  /** Default 5 s. */
  tickMs?: number;
  /** Delay before the first tick after start (default 5 s). */
  firstTickMs?: number;
  /** Default FIRST_WAVE_PER_SECOND. */
  firstWavePerSecond?: number;
  /** The jitter's draw in [0, 1) (default Math.random). */
  random?: () => number;
}

interface DueCompany {
  id: string;
  website: string;
  domain: string;
  scanned_at: Date | string | null;
}

interface Pace {
  budget: number;
  firstWave: number;
}

/** Whole starts in a budget (a float sum of rates × times: 2.9999999 is 3). */
const whole = (budget: number): number => Math.floor(budget + 1e-9);

/** The scheduler's pace for `elapsedMs`: each budget grows by its rate × elapsed, capped at one tick's worth plus one. */
export function accrue(pace: Pace, rates: { perMs: number; firstWavePerMs: number }, elapsedMs: number, tickMs: number): Pace {
  const grow = (budget: number, perMs: number) => Math.min(budget + perMs * elapsedMs, perMs * tickMs + 1);
  return { budget: grow(pace.budget, rates.perMs), firstWave: grow(pace.firstWave, rates.firstWavePerMs) };
}

export class RescanScheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  private stopped = false;
  private readonly tickMs: number;
  private readonly firstWavePerMs: number;
  private readonly random: () => number;
  private curated: { count: number; at: number } | null = null;

  constructor(private readonly o: RescanSchedulerOptions) {
    this.tickMs = o.tickMs ?? 5000;
    this.firstWavePerMs = (o.firstWavePerSecond ?? FIRST_WAVE_PER_SECOND) / 1000;
    this.random = o.random ?? Math.random;
  }

  start(): void {
    const loop = (delay: number) => {
      this.timer = setTimeout(() => {
        this.ticking = this.tick()
          .catch((err) => this.o.logger.error({ err }, 'rescan tick failed'))
          .finally(() => {
            this.ticking = null;
            if (!this.stopped) loop(this.tickMs);
          });
      }, delay);
    };
    loop(this.o.firstTickMs ?? 5000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  /** When a company scanned at `at` is next due. */
  nextDue(at: Date): Date {
    return new Date(at.getTime() + this.o.intervalMs * (1 - JITTER * this.random()));
  }

  /** One round; returns the number of scans it started. */
  async tick(): Promise<number> {
    const { db, clock } = this.o;
    const started = await db.prisma.$transaction(
      async (tx) => {
        const [{ locked }] = await tx.$queryRawUnsafe<Array<{ locked: boolean }>>(
          `SELECT pg_try_advisory_xact_lock(hashtext('arl-rescans:' || current_schema())) AS locked`,
        );
        if (!locked) return 0;
        return this.round(tx, clock());
      },
      { maxWait: 30_000, timeout: 30_000 },
    );
    if (started > 0) {
      this.o.queue.notify(SCAN_JOB);
      this.o.logger.info({ started }, 'rescans queued');
    }
    return started;
  }

  private async round(tx: Tx, now: Date): Promise<number> {
    const { intervalMs } = this.o;
    const [state] = await tx.$queryRawUnsafe<Array<{ budget: number; first_wave: number; ticked_at: Date | string; waiting: number }>>(
      `SELECT p.budget, p.first_wave, p.ticked_at, (SELECT count(*)::int FROM scans WHERE state = 'waiting') AS waiting
       FROM (SELECT 1) one LEFT JOIN rescan_pace p ON p.id = 1`,
    );
    const last = state.ticked_at === null ? now.getTime() - this.tickMs : new Date(state.ticked_at).getTime();
    const curated = await this.curatedCount(tx, now);
    let pace = accrue(
      { budget: Number(state.budget ?? 0), firstWave: Number(state.first_wave ?? 0) },
      { perMs: curated / intervalMs, firstWavePerMs: this.firstWavePerMs },
      Math.max(0, now.getTime() - last),
      this.tickMs,
    );
    let room = Math.max(0, this.o.concurrency * 2 - Number(state.waiting));
    const moved: Array<{ id: string; at: Date }> = [];
    let count = 0;

    // The first wave: never-scanned companies, on the index (source, scanned_at, next_scan_at).
    const firstWave = Math.min(whole(pace.firstWave), room);
    if (firstWave > 0) {
      const fresh = await tx.$queryRawUnsafe<DueCompany[]>(
        `SELECT c.id, c.website, c.domain, c.scanned_at FROM companies c
         WHERE c.source = 'curated' AND c.scanned_at IS NULL AND c.next_scan_at <= $1::timestamptz
           AND NOT EXISTS (SELECT 1 FROM scans s WHERE s.domain = c.domain AND s.state <> 'ended')
         LIMIT $2`,
        now, firstWave,
      );
      const n = await this.startAll(tx, fresh, now, moved);
      pace = { ...pace, firstWave: pace.firstWave - n };
      room -= n;
      count += n;
    }

    // Rescans in due order, on the index (source, next_scan_at).
    const rescans = Math.min(whole(pace.budget), room);
    if (rescans > 0) {
      const due = await tx.$queryRawUnsafe<DueCompany[]>(
        `SELECT c.id, c.website, c.domain, c.scanned_at FROM companies c
         WHERE c.source = 'curated' AND c.next_scan_at <= $1::timestamptz
           AND NOT EXISTS (SELECT 1 FROM scans s WHERE s.domain = c.domain AND s.state <> 'ended')
         ORDER BY c.next_scan_at, c.id LIMIT $2`,
        now, rescans,
      );
      const n = await this.startAll(tx, due, now, moved);
      pace = { ...pace, budget: pace.budget - n };
      count += n;
    }

    if (moved.length > 0) {
      await tx.$executeRawUnsafe(
        `UPDATE companies c SET next_scan_at = m.at FROM unnest($1::uuid[], $2::timestamptz[]) AS m(id, at) WHERE c.id = m.id`,
        moved.map((m) => m.id), moved.map((m) => m.at),
      );
    }
    await tx.$executeRawUnsafe(
      `INSERT INTO rescan_pace (id, budget, first_wave, ticked_at, curated) VALUES (1, $1, $2, $3::timestamptz, $4)
       ON CONFLICT (id) DO UPDATE SET budget = EXCLUDED.budget, first_wave = EXCLUDED.first_wave, ticked_at = EXCLUDED.ticked_at,
              curated = EXCLUDED.curated`,
      pace.budget, pace.firstWave, now, curated,
    );
    return count;
  }

  /** Starts the scans of `companies`; every one handled gets its next due time in `moved`. Returns the starts. */
  private async startAll(tx: Tx, companies: DueCompany[], now: Date, moved: Array<{ id: string; at: Date }>): Promise<number> {
    let started = 0;
    for (const company of companies) {
      const scannedAt = company.scanned_at === null ? null : new Date(company.scanned_at);
      if (scannedAt !== null && scannedAt.getTime() > now.getTime() - this.o.intervalMs / 2) {
        moved.push({ id: company.id, at: this.nextDue(scannedAt) });
        continue;
      }
      // Whatever happens next (started, joined, unscannable), the company is not due again before its next turn.
      moved.push({ id: company.id, at: this.nextDue(now) });
      const target = this.o.scans.normalize(company.website);
      if (!target.ok) {
        this.o.logger.warn({ domain: company.domain }, 'curated company website cannot be scanned; skipped until its next turn');
        continue;
      }
      const outcome = await this.o.scans.startOrJoin(tx, {
        target: target.value.target, url: target.value.url.href, domain: company.domain, origin: 'rescan', enforceQueueLimit: false,
      });
      if (outcome?.started) started += 1;
    }
    return started;
  }

  /** Curated companies, counted at most every CURATED_COUNT_TTL_MS (a count of 1,000,000 index entries is not free). */
  private async curatedCount(tx: Tx, now: Date): Promise<number> {
    const kept = this.curated;
    if (kept && Math.abs(now.getTime() - kept.at) < CURATED_COUNT_TTL_MS) return kept.count;
    const [{ curated }] = await tx.$queryRawUnsafe<Array<{ curated: number }>>(
      `SELECT count(*)::int AS curated FROM companies WHERE source = 'curated'`,
    );
    this.curated = { count: Number(curated), at: now.getTime() };
    return this.curated.count;
  }
}

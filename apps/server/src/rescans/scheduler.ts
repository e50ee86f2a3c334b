// Rescans of curated companies: never-scanned ones soon after start, every company again each RESCAN_INTERVAL.
//
// Spread out: each tick starts at most `ceil(curated × tick / interval)` rescans of already-scanned companies (so a
// week's rescans are spread over the week), and never more than keeps `concurrency × 2` scans waiting; never-scanned
// companies only wait for that room. Safe with several processes: a tick runs under a transaction-scoped advisory
// lock, "due" means no scan of the company was created within the interval (ended or not), and the scans are
// inserted through the same atomic start-or-join as the API, in the same transaction.
import type { Db } from '@arl/db';
import type { Logger } from 'pino';
import type { JobQueue } from '../jobs/queue';
import { SCAN_JOB } from '../scans/scan-job';
import type { ScanService } from '../scans/service';

export interface RescanSchedulerOptions {
  db: Db;
  scans: ScanService;
  queue: JobQueue;
  clock: () => Date;
  logger: Logger;
  intervalMs: number;
  /** Parallel scans per worker: sizes how many rescans may wait at once. */
  concurrency: number;
  /** Default 60 s. */
  tickMs?: number;
  /** Delay before the first tick after start (default 5 s). */
  firstTickMs?: number;
}

interface DueCompany {
  id: string;
  website: string;
  domain: string;
  scanned_at: Date | null;
}

export class RescanScheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<unknown> | null = null;
  private stopped = false;
  private readonly tickMs: number;

  constructor(private readonly o: RescanSchedulerOptions) {
    this.tickMs = o.tickMs ?? 60_000;
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

  /** One round; returns the number of scans it started. */
  async tick(): Promise<number> {
    const { db, clock, intervalMs } = this.o;
    const started = await db.prisma.$transaction(
      async (tx) => {
        const [{ locked }] = await tx.$queryRawUnsafe<Array<{ locked: boolean }>>(
          `SELECT pg_try_advisory_xact_lock(hashtext('arl-rescans:' || current_schema())) AS locked`,
        );
        if (!locked) return 0;
        const [{ waiting, curated }] = await tx.$queryRawUnsafe<Array<{ waiting: number; curated: number }>>(
          `SELECT (SELECT count(*)::int FROM scans WHERE state = 'waiting') AS waiting,
                  (SELECT count(*)::int FROM companies WHERE source = 'curated') AS curated`,
        );
        const room = Math.max(0, this.o.concurrency * 2 - waiting);
        if (room === 0) return 0;
        const now = clock();
        const due = await tx.$queryRawUnsafe<DueCompany[]>(
          `SELECT c.id, c.website, c.domain, c.scanned_at FROM companies c
           WHERE c.source = 'curated' AND NOT EXISTS (
             SELECT 1 FROM scans s WHERE s.company_id = c.id AND (s.active_target IS NOT NULL OR s.created_at > $1::timestamptz))
           ORDER BY c.scanned_at ASC NULLS FIRST, c.id LIMIT $2`,
          new Date(now.getTime() - intervalMs), room,
        );
        let rescansLeft = Math.max(1, Math.ceil((curated * this.tickMs) / intervalMs));
        let count = 0;
        for (const company of due) {
          if (company.scanned_at !== null) {
            if (rescansLeft === 0) break;
            rescansLeft -= 1;
          }
          const target = this.o.scans.normalize(company.website);
          if (!target.ok) {
            this.o.logger.warn({ domain: company.domain }, 'curated company website cannot be scanned; skipped');
            continue;
          }
          const outcome = await this.o.scans.startOrJoin(tx, {
            target: target.value.target, url: target.value.url.href, domain: company.domain, origin: 'rescan', enforceQueueLimit: false,
          });
          if (outcome?.started) count += 1;
        }
        return count;
      },
      { maxWait: 30_000, timeout: 30_000 },
    );
    if (started > 0) {
      this.o.queue.notify(SCAN_JOB);
      this.o.logger.info({ started }, 'rescans queued');
    }
    return started;
  }
}

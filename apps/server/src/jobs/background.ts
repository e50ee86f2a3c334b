// Everything a worker process runs besides HTTP: the job worker (scans, mail, and any other registered kind), the
// rescan scheduler and the purge of old finished jobs. `npm start` runs it in-process, `npm run worker` alone.
import { RescanScheduler } from '../rescans/scheduler';
import type { Runtime } from '../runtime';
import { Worker } from './worker';

export interface BackgroundOptions {
  /** Lease of a claimed job (default 15 s): how long a dead worker's job waits before another worker takes it. */
  leaseMs?: number;
  pollMs?: number;
  /** Rescan scheduler tick (default 60 s) and first tick (default 5 s). */
  rescanTickMs?: number;
  rescanFirstTickMs?: number;
}

export interface Background {
  worker: Worker;
  rescans: RescanScheduler | null;
  /** Stops claiming, interrupts in-flight jobs, waits for them at most `timeoutMs`. Idempotent. */
  stop(timeoutMs?: number): Promise<void>;
}

const PURGE_EVERY_MS = 3_600_000;
const KEEP_FINISHED_MS = 7 * 86_400_000;

export function startBackground(runtime: Runtime, options: BackgroundOptions = {}): Background {
  const { config, logger } = runtime;
  const worker = new Worker(runtime.jobs, logger.child({ module: 'worker' }), {
    leaseMs: options.leaseMs,
    pollMs: options.pollMs,
    // PGlite's data directory belongs to one process: whatever is still active at start was left by a dead one.
    recoverAllAtStart: runtime.db.kind === 'pglite',
  });
  worker.start();
  let rescans: RescanScheduler | null = null;
  if (config.scan.rescanIntervalMs !== null) {
    rescans = new RescanScheduler({
      db: runtime.db, scans: runtime.scans, queue: runtime.jobs, clock: runtime.clock,
      logger: logger.child({ module: 'rescans' }),
      intervalMs: config.scan.rescanIntervalMs,
      concurrency: config.scan.concurrency,
      tickMs: options.rescanTickMs,
      firstTickMs: options.rescanFirstTickMs,
    });
    rescans.start();
  }
  const purge = setInterval(() => {
    runtime.jobs.purgeFinished(KEEP_FINISHED_MS).catch((err) => logger.warn({ err }, 'job purge failed'));
  }, PURGE_EVERY_MS);
  purge.unref();
  let stopping: Promise<void> | null = null;
  return {
    worker,
    rescans,
    stop(timeoutMs = config.shutdownTimeoutMs) {
      stopping ??= (async () => {
        clearInterval(purge);
        await rescans?.stop();
        await worker.stop(timeoutMs);
      })();
      return stopping;
    },
  };
}

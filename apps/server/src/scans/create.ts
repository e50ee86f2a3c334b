// Wires the scan pipeline of one process: the job queue with its `scan` and `mail` kinds, and the scan service.
import type { Db } from '@arl/db';
import type { FetchPolicy } from '@arl/scanner';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { createRateLimiter } from '../http/rate-limit';
import { JobQueue } from '../jobs/queue';
import type { Metrics } from '../metrics/metrics';
import { defineMailJob } from '../mail/mail-job';
import { createMailTransport } from '../mail/transport';
import { defineScanJob } from './scan-job';
import { IpTurns } from '../rescans/ip-turns';
import type { EndScanDeps } from './results';
import type { ScanEndedEvents } from './scan-ended';
import { ScanService } from './service';
import { ScanViewCache } from './view-cache';
import { RESYNC, type ProgressFeed } from '../streams/progress-feed';
import { SCANNABLE_PORTS } from './target';

export interface ScanPipeline {
  jobs: JobQueue;
  scans: ScanService;
  close(): void;
}

export function createScanPipeline(deps: {
  config: Config;
  db: Db;
  /** Where scans' ends are told (its followers register themselves: the leaderboard, webhooks). */
  scanEnded: ScanEndedEvents;
  clock: () => Date;
  logger: Logger;
  metrics: Metrics;
  /** Progress notifications: they keep operation 6's view cache exact. */
  progress: ProgressFeed;
  /** Overrides of the scanner's fetch rules (tests and the demo pass the sandbox's DNS `lookup`). */
  fetchPolicy?: Partial<FetchPolicy>;
  /** The process's live leaderboard index: the ranks a company's new facts give it (history points record them). */
  ranker?: { ranksIf: NonNullable<EndScanDeps['ranksIf']> };
}): ScanPipeline {
  const { config, db, scanEnded, clock, logger } = deps;
  // Public hosts on web ports only, on every redirect hop as for submitted URLs (scans/target.ts).
  const fetchPolicy: Partial<FetchPolicy> = { ...deps.fetchPolicy, allowPrivateNetworks: config.scan.allowPrivateNetworks, publicPorts: SCANNABLE_PORTS };
  const jobs = new JobQueue(db, logger.child({ module: 'jobs' }));
  const transport = createMailTransport({ smtpUrl: config.mail.smtpUrl, dataDir: config.dataDir, logger: logger.child({ module: 'mail' }) });
  defineMailJob(jobs, { db, transport, from: config.mail.from });
  defineScanJob({
    db, queue: jobs, scanEnded, clock, fetchPolicy,
    metrics: deps.metrics,
    logger: logger.child({ module: 'scans' }),
    publicUrl: config.publicUrl,
    concurrency: config.scan.concurrency,
    maxPages: config.scan.maxPages,
    ranksIf: deps.ranker && ((facts) => deps.ranker!.ranksIf(facts)),
    ipTurns: new IpTurns({ db, gapMs: config.scan.ipGapMs, lookup: fetchPolicy.lookup, logger: logger.child({ module: 'ip-turns' }) }),
  });
  // Live views only where every change is heard before it can be read (the embedded database: view-cache.ts).
  const views = new ScanViewCache({ live: db.kind === 'pglite' });
  const unsubscribe = deps.progress.subscribeAll((topic) => {
    if (topic.startsWith('scan:')) views.changed(topic.slice('scan:'.length));
    else if (topic === RESYNC) views.changed(null);
  });
  // One per-client scan limiter per process, shared by every path a client starts scans through (service.ts).
  const clientLimiter = createRateLimiter(
    { points: config.scan.rateLimit, durationSeconds: 60, keyPrefix: 'scan-client', message: 'Too many scans from this client; try again in a minute.' },
    { db },
  );
  const scans = new ScanService({ db, queue: jobs, clock, fetchPolicy, queueLimit: config.scan.queueLimit, views, clientLimiter });
  return {
    jobs,
    scans,
    close() {
      unsubscribe();
      jobs.close();
      transport.close();
    },
  };
}

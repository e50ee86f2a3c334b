// Wires the long-lived parts of one process (database, change feed, services) from a Config. Both hosts, the
// worker and the CLIs are built on a Runtime; tests build one over a test database.
import { createDb, migrate, seed, type Db } from '@arl/db';
import type { Logger } from 'pino';
import { createChangeFeed, type ChangeFeed } from './changes';
import { pgliteDir, type Config } from './config';
import { databasePoolMax } from './jobs/pool-size';
import { createFeedbackService } from './feedback/create';
import type { FeedbackService } from './feedback/service';
import { DisputeService } from './disputes/service';
import { ReportService } from './reports/service';
import type { Readiness } from './health';
import { createJourneys } from './journeys/create';
import type { JourneyService } from './journeys/service';
import { LeaderboardRepository } from './leaderboard/repository';
import { LeaderboardService } from './leaderboard/service';
import { assertHearsChanges } from './leaderboard/readiness';
import { resolveSecrets, type Secrets } from './local-secrets';
import { createRequestSigner, type FetchPolicy, type RequestSigner } from '@arl/scanner';
import type { JobQueue } from './jobs/queue';
import { createMetrics, observeDatabase, type Metrics } from './metrics/metrics';
import { observeFeeds } from './metrics/feeds';
import { observeCensus } from './metrics/census';
import { createScanPipeline } from './scans/create';
import { ScanEndedEvents } from './scans/scan-ended';
import type { ScanService } from './scans/service';
import { DEFAULT_STREAM_LIMITS, EventStreams, type StreamLimits } from './streams/event-stream';
import { ProgressFeed } from './streams/progress-feed';
import { createWebhooks } from './webhooks/create';
import type { WebhookService } from './webhooks/service';

/** How often an API process on PostgreSQL checks for changes no notification brought (leaderboard/catch-up.ts). */
const CHANGE_CHECK_MS = 2_000;

export interface Runtime {
  config: Config;
  /** The signing keys: from the config, else generated once and kept in DATA_DIR. */
  secrets: Secrets;
  /** Signs every request of a scan (Web Bot Auth); its public key is served at the key directory. Null: unsigned. */
  scannerSigner: RequestSigner | null;
  logger: Logger;
  db: Db;
  changes: ChangeFeed;
  /** Scans' ends in this process (scans/scan-ended.ts): the leaderboard and webhooks follow them. */
  scanEnded: ScanEndedEvents;
  leaderboard: LeaderboardService;
  feedback: FeedbackService;
  /** Disputed verdicts: reports of the dispute kind, the rescans they start and their outcome. */
  disputes: DisputeService;
  readiness: Readiness;
  clock: () => Date;
  /** The durable job queue (scans, mail; journeys register their kind on it). */
  jobs: JobQueue;
  scans: ScanService;
  journeys: JourneyService;
  /** Webhook subscriptions (their deliveries are `webhook` jobs on the same queue). */
  webhooks: WebhookService;
  /** Progress notifications of scans and journeys (across processes), and the open event streams that follow them. */
  progress: ProgressFeed;
  streams: EventStreams;
  /** Prometheus metrics of this process (served by the operations listener, METRICS_PORT). */
  metrics: Metrics;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger: Logger;
  /** An open database; when absent one is opened from the config (and closed with the runtime). */
  db?: Db;
  /** Apply migrations and the seed (default true). */
  prepare?: boolean;
  clock?: () => Date;
  /** Overrides of the fetch rules of scans and journeys, e.g. the sandbox's DNS `lookup` (tests, demo, bench); never from env. */
  fetchPolicy?: Partial<FetchPolicy>;
  /** Overrides of the event streams' limits and timings (tests); never from env. */
  streamLimits?: Partial<StreamLimits>;
  /** This process runs the job worker (sizes the database pool; default: WORKER_IN_PROCESS). */
  runsWorker?: boolean;
  /**
   * How often to look for changes no notification brought, in ms (default 2 s on PostgreSQL, never on PGlite);
   * 0: only when asked (tests that check what a missed notification leaves must not race the timer).
   */
  changeCheckMs?: number;
}

export async function createRuntime(config: Config, options: RuntimeOptions): Promise<Runtime> {
  const { logger } = options;
  const secrets = resolveSecrets(config);
  const scannerSigner = secrets.scannerSigningKey ? await createRequestSigner({ privateKey: secrets.scannerSigningKey, agent: config.publicUrl }) : null;
  const ownsDb = !options.db;
  const db =
    options.db ??
    (await createDb({
      databaseUrl: config.databaseUrl ?? undefined,
      dataDir: pgliteDir(config),
      poolMax: databasePoolMax(config, options.runsWorker ?? config.scan.inProcessWorker),
      logger: logger.child({ module: 'db' }),
    }));
  try {
    if (options.prepare !== false) {
      const started = Date.now();
      const { applied } = await migrate(db);
      const seeded = await seed(db, { seedFile: config.seedFile ?? undefined, logger: logger.child({ module: 'seed' }) });
      logger.info({ applied, seeded, ms: Date.now() - started, database: db.kind }, 'database ready');
    }
    const clock = options.clock ?? (() => new Date());
    const changes = await createChangeFeed(db, logger.child({ module: 'changes' }));
    const progress = await ProgressFeed.start(db, logger.child({ module: 'progress' }));
    const streams = new EventStreams(progress, logger.child({ module: 'streams' }), { ...DEFAULT_STREAM_LIMITS, ...options.streamLimits });
    const scanEnded = new ScanEndedEvents();
    const leaderboard = new LeaderboardService({
      repository: new LeaderboardRepository(db),
      changes,
      scanEnded,
      cursorSecret: secrets.cursor,
      clock,
      checkEveryMs: options.changeCheckMs ?? (db.kind === 'postgres' ? CHANGE_CHECK_MS : 0),
    });
    const metrics = createMetrics();
    observeDatabase(metrics, db);
    observeFeeds(metrics, { changes, progress, leaderboard });
    if (config.scan.rescanIntervalMs !== null) observeCensus(metrics, { db, intervalMs: config.scan.rescanIntervalMs, clock });
    const scanFetchPolicy: Partial<FetchPolicy> = {
      ...options.fetchPolicy,
      ...(scannerSigner ? { signer: scannerSigner } : {}),
      ...(config.scan.extraCaPem ? { extraCaPem: config.scan.extraCaPem } : {}),
    };
    if (config.scan.extraCaPem) logger.warn('SCAN_EXTRA_CA_FILE is set: scans trust its certificate authorities (tests and benches only)');
    const pipeline = createScanPipeline({
      config, db, scanEnded, progress, clock, logger, metrics, fetchPolicy: scanFetchPolicy, ranker: leaderboard,
    });
    const webhooks = createWebhooks({ config, db, queue: pipeline.jobs, scanEnded, clock, logger, fetchPolicy: options.fetchPolicy });
    const disputes = new DisputeService({
      db, reports: new ReportService(db, clock), scans: pipeline.scans, logger: logger.child({ module: 'disputes' }),
      feedbackPublicUrl: config.feedbackPublicUrl, publicUrl: config.publicUrl, clock, rescanIntervalMs: config.scan.disputeRescanIntervalMs,
    });
    const feedback = createFeedbackService(config, secrets.invite, db, clock, disputes);
    const journeys = createJourneys({ config, db, queue: pipeline.jobs, clock, logger, metrics, fetchPolicy: options.fetchPolicy });
    const readiness: Readiness = {
      draining: false,
      async check() {
        await db.executeSql('SELECT 1');
        assertHearsChanges(changes, leaderboard, db.kind === 'postgres' ? CHANGE_CHECK_MS : 0);
      },
    };
    let closed = false;
    return {
      config, secrets, scannerSigner, logger, db, changes, scanEnded, leaderboard, feedback, disputes, readiness, clock,
      jobs: pipeline.jobs,
      scans: pipeline.scans,
      journeys,
      webhooks,
      progress,
      streams,
      metrics,
      async close() {
        if (closed) return;
        closed = true;
        streams.closeAll();
        leaderboard.close();
        pipeline.close();
        await changes.close();
        await progress.close();
        if (ownsDb) await db.close();
      },
    };
  } catch (err) {
    if (ownsDb) await db.close().catch(() => undefined);
    throw err;
  }
}

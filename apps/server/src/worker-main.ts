// `npm run worker`: the job worker alone (scans, journeys, mail, rescans), for deployments where several API and
// worker processes share one PostgreSQL (WORKER_IN_PROCESS=false on the API processes). Flags:
//   --resolve NAME=ADDRESS   pin scan hostnames to addresses (repeatable, NAME may be *.suffix)
//   --lease-ms N             job lease (default 15000): how soon another worker takes over a dead worker's job
// With METRICS_PORT set it serves /metrics, /healthz and /readyz (ready: the database answers and the worker takes
// jobs). SIGTERM/SIGINT stop taking jobs, let in-flight jobs use most of SHUTDOWN_TIMEOUT_MS and hand the rest back
// to the queue; a second signal exits at once.
// Only light modules are loaded before the start-up checks, so a refusal comes at once; the rest after them.
import { exitOnSignals, loadConfigOrExit, runMain } from './cli/process-lifecycle';
import { storageOf } from './lifecycle/claim';
import { assertPortsFree } from './lifecycle/port-check';

function flag(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(name.length + 1) : argv[i + 1];
}

runMain('Worker', async () => {
  const argv = process.argv.slice(2);
  const config = loadConfigOrExit();
  if (!config.databaseUrl) {
    process.stderr.write('npm run worker needs DATABASE_URL: the embedded database belongs to one process, and `npm start` already runs the worker in-process.\n');
    process.exit(2);
  }
  const leaseRaw = flag(argv, '--lease-ms');
  const leaseMs = leaseRaw === undefined ? undefined : Number(leaseRaw);
  if (leaseMs !== undefined && (!Number.isInteger(leaseMs) || leaseMs < 100 || leaseMs > 600_000)) {
    process.stderr.write('--lease-ms must be an integer from 100 to 600000\n');
    process.exit(2);
  }
  if (config.metricsPort) await assertPortsFree(config.host, [{ variable: 'METRICS_PORT', port: config.metricsPort }]);
  // The heavy modules (database, scanner) load only now, so a refusal above comes at once.
  const { parseResolveFlags } = require('./cli/resolve-flag') as typeof import('./cli/resolve-flag');
  const { startBackground } = require('./jobs/background') as typeof import('./jobs/background');
  const { createLogger, logOutputOf, secretsOf } = require('./logger') as typeof import('./logger');
  const { startOpsServer } = require('./metrics/ops-server') as typeof import('./metrics/ops-server');
  const { createRuntime } = require('./runtime') as typeof import('./runtime');
  const logger = createLogger(config.logLevel, { secrets: secretsOf(config), ...logOutputOf(config) });
  logger.info({ ...storageOf(config), dataDir: config.dataDir }, 'starting');
  const runtime = await createRuntime(config, { logger, fetchPolicy: parseResolveFlags(argv), runsWorker: true });
  const background = startBackground(runtime, { leaseMs });
  const ops = config.metricsPort === null ? null : await startOpsServer({
    host: config.host, port: config.metricsPort, metrics: runtime.metrics, logger,
    ready: async () => {
      if (background.worker.status !== 'active') throw new Error(`The worker is ${background.worker.status}.`);
      await runtime.readiness.check().catch(() => { throw new Error('The database does not answer.'); });
    },
  });
  logger.info({ workerId: background.worker.id, database: runtime.db.kind, concurrency: config.scan.concurrency, metrics: ops?.url ?? null, pid: process.pid }, 'worker running');

  exitOnSignals(logger, config.shutdownTimeoutMs, async () => {
    await background.stop(Math.floor(config.shutdownTimeoutMs * 0.8));
    await ops?.close();
    await runtime.close();
  });
});

// `npm start`: both hosts and the in-process worker on the configured database (embedded PGlite by default).
// Flag: --resolve NAME=ADDRESS pins scan hostnames to addresses (tests and demos; repeatable, NAME may be *.suffix).
// Only light modules are loaded before the start-up guards, so a refusal comes at once; the rest after them.
import { exitOnSignals, loadConfigOrExit, runMain } from './cli/process-lifecycle';
import { claimDataDir, storageOf } from './lifecycle/claim';
import { assertPortsFree } from './lifecycle/port-check';

runMain('Server', async () => {
  const config = loadConfigOrExit();
  // Before anything is opened: the data directory is ours alone, and the ports are free.
  claimDataDir(config);
  await assertPortsFree(config.host, [
    { variable: 'PORT', port: config.port },
    { variable: 'FEEDBACK_PORT', port: config.feedbackPort },
    ...(config.metricsPort ? [{ variable: 'METRICS_PORT', port: config.metricsPort }] : []),
  ]);
  // The heavy modules (database, Express, scanner) load only now, so a refusal above comes at once.
  const { parseResolveFlags } = require('./cli/resolve-flag') as typeof import('./cli/resolve-flag');
  const { startBackground } = require('./jobs/background') as typeof import('./jobs/background');
  const { createLogger, logOutputOf, secretsOf } = require('./logger') as typeof import('./logger');
  const { startOpsServer } = require('./metrics/ops-server') as typeof import('./metrics/ops-server');
  const { createRuntime } = require('./runtime') as typeof import('./runtime');
  const { listen } = require('./server') as typeof import('./server');
  const logger = createLogger(config.logLevel, { secrets: secretsOf(config), ...logOutputOf(config) });
  logger.info({ ...storageOf(config), dataDir: config.dataDir }, 'starting');
  const runtime = await createRuntime(config, { logger, fetchPolicy: parseResolveFlags(process.argv.slice(2)) });
  const servers = await listen(runtime);
  const background = config.scan.inProcessWorker ? startBackground(runtime) : null;
  const ops = config.metricsPort === null ? null : await startOpsServer({
    host: config.host, port: config.metricsPort, metrics: runtime.metrics, logger,
    ready: async () => {
      if (runtime.readiness.draining) throw new Error('The service is shutting down.');
      await runtime.readiness.check().catch(() => { throw new Error('The database does not answer.'); });
    },
  });
  logger.info({ leaderboard: servers.leaderboardUrl, feedback: servers.feedbackUrl, metrics: ops?.url ?? null, database: runtime.db.kind, pid: process.pid }, 'listening');

  exitOnSignals(logger, config.shutdownTimeoutMs, async () => {
    runtime.readiness.draining = true;
    // In-flight scans and journeys get most of the deadline to finish; what is still running then is handed back
    // to the queue for the next start. Requests drain meanwhile.
    await Promise.all([background?.stop(Math.floor(config.shutdownTimeoutMs * 0.8)), servers.close()]);
    await ops?.close();
    await runtime.close();
  });
});

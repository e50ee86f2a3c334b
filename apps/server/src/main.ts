// `npm start`: both hosts and the in-process worker on the configured database (embedded PGlite by default).
// Flag: --resolve NAME=ADDRESS pins scan hostnames to addresses (tests and demos; repeatable, NAME may be *.suffix).
import { exitOnSignals, loadConfigOrExit, runMain } from './cli/process-lifecycle';
import { parseResolveFlags } from './cli/resolve-flag';
import { startBackground } from './jobs/background';
import { claimDataDir, storageOf } from './lifecycle/claim';
import { assertPortsFree } from './lifecycle/port-check';
import { createLogger, logOutputOf, secretsOf } from './logger';
import { startOpsServer } from './metrics/ops-server';
import { createRuntime } from './runtime';
import { listen } from './server';

runMain('Server', async () => {
  const config = loadConfigOrExit();
  // Before anything is opened: the data directory is ours alone, and the ports are free.
  claimDataDir(config);
  await assertPortsFree(config.host, [
    { variable: 'PORT', port: config.port },
    { variable: 'FEEDBACK_PORT', port: config.feedbackPort },
    ...(config.metricsPort ? [{ variable: 'METRICS_PORT', port: config.metricsPort }] : []),
  ]);
  const logger = createLogger(config.logLevel, { secrets: secretsOf(config), ...logOutputOf(config) });
  logger.info({ ...storageOf(config), dataDir: config.dataDir }, 'starting');
  const runtime = await createRuntime(config, { logger, fetchPolicy: parseResolveFlags(process.argv.slice(2)) });
  const servers = await listen(runtime);
  const background = config.scan.inProcessWorker ? startBackground(runtime) : null;
  const ops = config.metricsPort === null ? null : await startOpsServer({
    host: config.host, port: config.metricsPort, metrics: runtime.metrics,
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

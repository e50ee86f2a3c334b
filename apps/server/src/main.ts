// `npm start`: both hosts and the in-process worker on the configured database (embedded PGlite by default).
// Flag: --resolve NAME=ADDRESS pins scan hostnames to addresses (tests and demos; repeatable, NAME may be *.suffix).
import { exitOnSignals, loadConfigOrExit, runMain } from './cli/process-lifecycle';
import { parseResolveFlags } from './cli/resolve-flag';
import { startBackground } from './jobs/background';
import { createLogger, secretsOf } from './logger';
import { createRuntime } from './runtime';
import { listen } from './server';

runMain('Server', async () => {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, { secrets: secretsOf(config) });
  const runtime = await createRuntime(config, { logger, fetchPolicy: parseResolveFlags(process.argv.slice(2)) });
  const servers = await listen(runtime);
  const background = config.scan.inProcessWorker ? startBackground(runtime) : null;
  logger.info({ leaderboard: servers.leaderboardUrl, feedback: servers.feedbackUrl, database: runtime.db.kind }, 'listening');

  exitOnSignals(logger, config.shutdownTimeoutMs, async () => {
    runtime.readiness.draining = true;
    // Stop taking jobs and interrupt in-flight scans (they end `interrupted`) within half the deadline.
    await background?.stop(Math.floor(config.shutdownTimeoutMs / 2));
    await servers.close();
    await runtime.close();
  });
});

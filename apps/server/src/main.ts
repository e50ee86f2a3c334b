// `npm start`: both hosts and the in-process worker on the configured database (embedded PGlite by default).
import { ConfigError, loadConfig } from './config';
import { parseResolveFlags } from './cli/resolve-flag';
import { startBackground } from './jobs/background';
import { createLogger } from './logger';
import { createRuntime } from './runtime';
import { listen } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const scanFetchPolicy = parseResolveFlags(process.argv.slice(2));
  const runtime = await createRuntime(config, { logger, scanFetchPolicy });
  const servers = await listen(runtime);
  const background = config.scan.inProcessWorker ? startBackground(runtime) : null;
  logger.info({ leaderboard: servers.leaderboardUrl, feedback: servers.feedbackUrl, database: runtime.db.kind }, 'listening');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    runtime.readiness.draining = true;
    logger.info({ signal }, 'draining');
    const deadline = setTimeout(() => {
      logger.error('shutdown deadline passed: exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    try {
      // Stop taking jobs and interrupt in-flight scans (they end `interrupted`) within half the deadline.
      await background?.stop(Math.floor(config.shutdownTimeoutMs / 2));
      await servers.close();
      await runtime.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});

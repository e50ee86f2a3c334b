// Start-up and shutdown shared by every long-running entry point (`npm start`, `npm run worker`).
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirBusyError } from '../lifecycle/data-dir-lock';
import { PortBusyError } from '../lifecycle/port-check';

/** The configuration, or exit 2 with the list of problems (a bad setting is the operator's to fix, not a crash). */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

/**
 * SIGTERM/SIGINT run `drain` once, then exit 0; a failure, the deadline or a second signal exit 1, so an
 * orchestrator never waits on a stuck process. A signal within a second of the first is the same one delivered
 * twice (Ctrl-C in a terminal reaches node from the terminal and again through npm, which forwards it), not a
 * second request.
 */
export function exitOnSignals(logger: Logger, deadlineMs: number, drain: () => Promise<void>): void {
  let stopping = false;
  let firstAt = 0;
  const shutdown = async (signal: string) => {
    if (stopping && Date.now() - firstAt < SAME_SIGNAL_MS) return;
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    firstAt = Date.now();
    logger.info({ signal }, 'draining');
    setTimeout(() => {
      logger.error('shutdown deadline passed: exiting');
      process.exit(1);
    }, deadlineMs).unref();
    try {
      await drain();
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

const SAME_SIGNAL_MS = 1000;

/** Runs an entry point's main, reporting a start-up failure in one line (details are in the log). */
export function runMain(what: string, main: () => Promise<void>): void {
  main().catch((err) => {
    if (err instanceof DataDirBusyError || err instanceof PortBusyError) {
      // Refusals are complete sentences for the operator, nothing failed.
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`${what} start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

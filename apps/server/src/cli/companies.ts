// `npm run companies -- <command>`: the operator's tool for the company population (import a list such as the
// Tranco top 100,000, add, remove, rename, move, list, rescan). Runs on the configured database (the same
// environment as `npm start`); migrations and the seed are applied first, like at start-up. The embedded database
// has one owner (DATA_DIR lock), so it runs while the server is stopped; on PostgreSQL it runs beside the API
// processes, which see its changes without a restart (cli/companies-commands.ts says how).
// Exit codes: 0 done, 1 refused input (nothing changed), 2 usage or environment error.
import pino from 'pino';
import { ConfigError, loadConfig } from '../config';
import { claimDataDir } from '../lifecycle/claim';
import { DataDirBusyError } from '../lifecycle/data-dir-lock';
import type { Runtime } from '../runtime';
import { EnvironmentError, parseCompaniesCommand, RefusedError, runCompaniesCommand, UsageError, USAGE } from './companies-commands';
import { runMain } from './run-main';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    (argv.length === 0 ? process.stderr : process.stdout).write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  // stdout closed early (`list | head`): the reader has what it wanted, so that is a normal end.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : 2));
  let runtime: Runtime | undefined;
  try {
    const config = loadConfig();
    // Logs go to stderr so that stdout carries only the command's data.
    const logger = pino({ name: 'arl-companies', level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
    const command = parseCompaniesCommand(argv);
    claimDataDir(config); // the embedded database has one owner: refuse while the server runs
    // The database stack is loaded only now: a refusal above comes at once.
    const { createRuntime } = require('../runtime') as typeof import('../runtime');
    runtime = await createRuntime(config, { logger });
    await runCompaniesCommand(runtime, command, process.stdout, process.stderr);
    return 0;
  } catch (err) {
    if (err instanceof RefusedError) {
      if (err.message) process.stderr.write(`${err.message}\n`);
      return 1;
    }
    if (err instanceof UsageError || err instanceof EnvironmentError || err instanceof ConfigError || err instanceof DataDirBusyError) {
      process.stderr.write(`${err.message}\n${err instanceof UsageError ? 'Run `npm run companies -- --help` for usage.\n' : ''}`);
      return 2;
    }
    if ((err as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    // The database unreachable, a statement refused: the environment, not the input.
    process.stderr.write(`Failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

runMain(main, 2);

// `npm run feedback -- <command>`: the feedback project owner's tool. Runs on the configured database (the same
// environment as `npm start`); migrations and the seed are applied first, like at start-up.
// Exit codes: 0 done, 1 failed (unknown project, database error), 2 usage error.
import * as fs from 'node:fs';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config';
import { claimDataDir } from '../lifecycle/claim';
import { DataDirBusyError } from '../lifecycle/data-dir-lock';
import type { Runtime } from '../runtime';
import { parseCommand } from './feedback-args';
import { checkFeedbackCommand, runFeedbackCommand, UsageError, USAGE } from './feedback-commands';
import { runMain } from './run-main';

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    process.stdout.write(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  let runtime: Runtime | undefined;
  try {
    const config = loadConfig();
    // Logs go to stderr so that stdout carries only the command's output (tokens, exports).
    const logger = pino({ name: 'arl-feedback', level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
    const command = parseCommand(argv);
    checkFeedbackCommand(command.positionals, command.values);
    claimDataDir(config); // the embedded database has one owner: refuse while the server runs
    // The database stack is loaded only now: a refusal above comes at once.
    const { createRuntime } = require('../runtime') as typeof import('../runtime');
    runtime = await createRuntime(config, { logger });
    const out = command.values.out ? fs.createWriteStream(command.values.out as string) : process.stdout;
    await runFeedbackCommand(runtime, command.positionals, command.values, out, process.stderr);
    if (out !== process.stdout) await new Promise<void>((resolve, reject) => (out as fs.WriteStream).end((err?: Error | null) => (err ? reject(err) : resolve())));
    return 0;
  } catch (err) {
    if (err instanceof DataDirBusyError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n${err instanceof UsageError && err.exitCode === undefined ? 'Run `npm run feedback -- --help` for usage.\n' : ''}`);
      return err instanceof UsageError && err.exitCode !== undefined ? err.exitCode : 2;
    }
    process.stderr.write(`Failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

runMain(main, 1);

#!/usr/bin/env node
// The `arl` binary: parse, run, exit with 0 (passed), 1 (failed) or 2 (could not decide). Whatever goes wrong, the
// reason is one line on stderr (`arl: ...`) and the exit code 2: a pipeline log shows a sentence, never a stack.
import { parseCommand, USAGE } from './args';
import { runCheck } from './check';
import { CliError, EXIT, oneLine } from './errors';
import { errorAnnotation } from './format/github';
import { stderrProgress } from './progress';
import { VERSION } from './version';

async function main(argv: readonly string[]): Promise<number> {
  const githubFormat = argv.some((a, i) => a === '--format=github' || (a === '--format' && argv[i + 1] === 'github'));
  try {
    const cmd = parseCommand(argv);
    if (cmd.command === 'help') return void process.stdout.write(USAGE), EXIT.passed;
    if (cmd.command === 'version') return void process.stdout.write(`arl ${VERSION}\n`), EXIT.passed;
    return await runCheck(cmd, {
      stdout: (text) => process.stdout.write(text),
      progress: stderrProgress,
      stepSummaryFile: process.env.GITHUB_STEP_SUMMARY || undefined,
      // --timeout counts from the process's start: loading arl is part of the time a pipeline waits.
      startedAt: performance.timeOrigin,
    });
  } catch (err) {
    const message = reasonOf(err);
    process.stderr.write(`arl: ${message}\n`);
    // In Actions the reason also shows on the run's page, not only in the log.
    if (githubFormat) process.stdout.write(errorAnnotation(message));
    return err instanceof CliError ? err.exitCode : EXIT.error;
  }
}

/** Our sentence for a CliError; for anything else (a bug in arl), its message on one line, without the stack. */
function reasonOf(err: unknown): string {
  if (err instanceof CliError) return oneLine(err.message);
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return oneLine(`Unexpected error (a bug in arl, please report it): ${message}`);
}

// A failure outside main's promise chain (an emitter's error, a stray rejection) ends the run the same way.
const fail = (err: unknown) => {
  process.stderr.write(`arl: ${reasonOf(err)}\n`);
  process.exit(EXIT.error);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

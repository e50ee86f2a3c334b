#!/usr/bin/env node
// The `arl` binary: parse, run, exit with 0 (passed), 1 (failed) or 2 (could not decide).
import { parseCommand, USAGE } from './args';
import { runCheck } from './check';
import { CliError, EXIT } from './errors';
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
    });
  } catch (err) {
    const message = err instanceof CliError ? err.message : `Unexpected error: ${(err as Error)?.stack ?? String(err)}`;
    process.stderr.write(`arl: ${message}\n`);
    // In Actions the reason also shows on the run's page, not only in the log.
    if (githubFormat) process.stdout.write(errorAnnotation(message.split('\n')[0]));
    return err instanceof CliError ? err.exitCode : EXIT.error;
  }
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});

// `arl check`: scan (service or local), load the baseline, decide, print the verdict in the chosen format, and
// return the exit code. I/O is injected so tests and the binary share this path.
import * as fs from 'node:fs';
import type { CheckCommand } from './args';
import { loadBaseline } from './baseline';
import { Deadline } from './deadline';
import { CliError, EXIT } from './errors';
import { formatGithub, writeStepSummary } from './format/github';
import { formatMarkdown } from './format/markdown';
import { formatText } from './format/text';
import type { GateResult } from './model';
import type { Progress } from './progress';
import { runThroughService } from './run-api';
import { runLocally } from './run-local';
import { decide } from './verdict';

export interface CheckIo {
  stdout: (text: string) => void;
  progress: Progress;
  /** $GITHUB_STEP_SUMMARY, for --format github. */
  stepSummaryFile?: string;
  /** When the run began (epoch ms) for the --timeout deadline; default: when runCheck is called. */
  startedAt?: number;
}

export async function runCheck(cmd: CheckCommand, io: CheckIo): Promise<number> {
  // One deadline for everything below: --timeout bounds the whole run, not each step.
  const deadline = Deadline.after(cmd.timeoutMs, io.startedAt);
  // The baseline first: a wrong domain or file should not cost a scan.
  const baseline = cmd.baseline === null ? null : await loadBaseline(cmd.baseline, cmd.api, deadline);
  if (baseline) io.progress(`baseline ${baseline.source}: ${baseline.score}/100 (${baseline.grade}), scanned ${baseline.scannedAt}`);
  const run = cmd.local
    ? await runLocally({ url: cmd.url, allowPrivate: cmd.allowPrivate, deadline, progress: io.progress })
    : await runThroughService({ api: cmd.api, url: cmd.url, deadline, progress: io.progress });
  const result = decide(run, baseline, cmd);
  io.stdout(render(result, cmd.format));
  if (cmd.commentFile) {
    try {
      fs.writeFileSync(cmd.commentFile, formatMarkdown(result));
    } catch (err) {
      throw new CliError(`Cannot write the comment to ${cmd.commentFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
    }
    io.progress(`comment written to ${cmd.commentFile}`);
  }
  if (cmd.format === 'github' && writeStepSummary(result, io.stepSummaryFile)) io.progress('job summary written');
  io.progress(`gate ${result.verdict.passed ? 'passed' : 'failed'}`);
  return result.verdict.passed ? EXIT.passed : EXIT.failed;
}

export function render(result: GateResult, format: CheckCommand['format']): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(result, null, 2)}\n`;
    case 'markdown':
      return formatMarkdown(result);
    case 'github':
      return formatGithub(result);
    default:
      return formatText(result);
  }
}

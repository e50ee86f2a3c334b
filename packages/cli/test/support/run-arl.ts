// Runs the built `arl` binary (bin/arl.js, the shim npm links) in a child process as a pipeline would, and reports
// how it ended. A run that has not ended by `killAfterMs` is killed and reported with code null: a hang shows up
// as a failed expectation on the exit code, not as a test that never returns. The default is far beyond a run's normal
// time (a loaded machine can stretch a second to many), so it only catches a hang.
import { execFile } from 'node:child_process';
import * as path from 'node:path';

export const ARL_BIN = path.resolve(__dirname, '../../bin/arl.js');

export interface ArlRun {
  /** The exit code, or null when the run was killed (it did not end by itself). */
  code: number | null;
  stdout: string;
  stderr: string;
  elapsedMs: number;
}

export function runArl(args: string[], options: { bin?: string; killAfterMs?: number } = {}): Promise<ArlRun> {
  // No GITHUB_* or ARL_* variables from the machine running the tests: each test states the ones it means.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_') && !k.startsWith('ARL_')));
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [options.bin ?? ARL_BIN, ...args], { env, timeout: options.killAfterMs ?? 120_000 }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      resolve({ code: typeof code === 'number' ? code : null, stdout, stderr, elapsedMs: Date.now() - started });
    });
  });
}

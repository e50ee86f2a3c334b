// Runs the built `arl` binary (packages/cli, as npm links it into node_modules/.bin) as a pipeline would: a child
// process with its own environment, stdout and stderr captured, the exit code returned.
import { execFile } from 'node:child_process';
import * as path from 'node:path';

export const ARL_BIN = path.join(path.dirname(require.resolve('@arl/cli/package.json')), (require('@arl/cli/package.json') as { bin: { arl: string } }).bin.arl);

export interface ArlRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function runArl(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<ArlRun> {
  // No GITHUB_* or ARL_* variables from the machine running the tests: each test states the ones it means.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GITHUB_') && !k.startsWith('ARL_')));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [ARL_BIN, ...args], { env: { ...base, ...env }, timeout: timeoutMs }, (error, stdout, stderr) => {
      const code = error ? (error as { code?: unknown }).code : 0;
      if (typeof code !== 'number') return reject(error);
      resolve({ code, stdout, stderr });
    });
  });
}

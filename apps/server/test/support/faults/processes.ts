// The service's built entry points (dist/) as child processes, as an operator runs them: `npm start` with the
// in-process worker off (the API) and `npm run worker`, each with its own output kept for the failure message.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

// FAULT_SUITE_DIST runs the suite against another build of the server (e.g. an older commit's, to see it fail there).
const DIST = process.env.FAULT_SUITE_DIST ? path.resolve(process.env.FAULT_SUITE_DIST) : path.resolve(__dirname, '../../../dist');

export interface ServiceProcess {
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

export function spawnEntry(script: 'main.js' | 'worker-main.js', env: Record<string, string>, args: string[] = []): ServiceProcess {
  let output = '';
  const proc = spawn(process.execPath, [path.join(DIST, script), ...args], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return {
    proc,
    output: () => output,
    exited,
    async kill(signal) {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

/** Resolves once `url` answers 200 (or rejects after `ms`: a deadline for a hang, far beyond a loaded machine's start-up). */
export async function waitForOk(url: string, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${ms} ms (last: ${status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

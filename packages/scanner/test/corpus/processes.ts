import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** A corpus server the tests can scan: its base URL on loopback and a way to stop it. */
export interface RunningServer {
  /** Where a scan should start (the MCP endpoint, the site's home page...). */
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** A free loopback port for packages that only take a fixed PORT (the reference servers read process.env.PORT). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The JavaScript file a package names as its bin, resolved from this package's dependencies. */
export function packageBin(packageName: string, binName?: string): string {
  // Not every package exports ./package.json, so look for it along the resolution paths.
  const manifestPath = (require.resolve.paths(packageName) ?? []).map((dir) => path.join(dir, packageName, 'package.json')).find((p) => fs.existsSync(p));
  if (!manifestPath) throw new Error(`${packageName} is not installed`);
  const manifest = require(manifestPath) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[binName ?? Object.keys(manifest.bin ?? {})[0]];
  if (!bin) throw new Error(`${packageName} has no bin`);
  return path.join(path.dirname(manifestPath), bin);
}

/**
 * Runs a package's own server entry point in a child process (several are ESM-only, which Jest's CommonJS sandbox
 * cannot import) and resolves once its output matches `ready`. The deadline only catches a server that never starts:
 * far beyond a normal start, which a loaded machine can stretch to many seconds.
 */
export async function startNodeProcess(script: string, args: string[], options: { env?: Record<string, string>; ready: RegExp; timeoutMs?: number }): Promise<{ child: ChildProcess; match: RegExpExecArray; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  };
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${path.basename(script)} did not start in time; output: ${output.slice(-500)}`));
    }, options.timeoutMs ?? 120_000);
    let done = false;
    const onData = (chunk: Buffer): void => {
      if (done) return;
      output += chunk.toString();
      const found = options.ready.exec(output);
      if (found) {
        done = true;
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${path.basename(script)} exited with ${code}; output: ${output.slice(-500)}`));
    });
  });
  // Keep draining the pipes so a chatty server never blocks on a full buffer.
  child.stdout!.resume();
  child.stderr!.resume();
  return { child, match, stop };
}

// A test server for the scan pipeline: the sandbox personas on loopback, a Runtime whose scanner resolves the
// personas' hostnames through the sandbox (injected, not through env), both hosts listening, and the real worker.
import type { LeaderboardSchemas } from '@arl/contract';
import { startSandbox, type PersonaName, type Sandbox } from '@arl/sandbox';
import { startBackground, type Background, type BackgroundOptions } from '../../src/jobs/background';
import { startTestServer, type TestServer, type TestServerOptions } from './harness';

export interface ScanTestServer extends TestServer {
  sandbox: Sandbox;
  background: Background | null;
  urlOf(persona: PersonaName): string;
  /** Polls operation 6 until the scan has ended (bounded). */
  waitForEnd(scanId: string, timeoutMs?: number): Promise<ScanView>;
}

export type ScanView = LeaderboardSchemas['Scan'];

export interface ScanTestServerOptions extends Omit<TestServerOptions, 'fetchPolicy' | 'dbName'> {
  latencyMs?: number;
  /** Start the worker in this process (default true). */
  worker?: boolean;
  background?: BackgroundOptions;
  sandbox?: Sandbox;
}

export async function startScanTestServer(options: ScanTestServerOptions = {}): Promise<ScanTestServer> {
  const sandbox = options.sandbox ?? (await startSandbox({ latencyMs: options.latencyMs ?? 0 }));
  const server = await startTestServer({
    ...options,
    env: { SCAN_RATE_LIMIT: '0', ...options.env },
    fetchPolicy: { lookup: sandbox.lookup },
    dbName: 'scans',
  });
  const background = options.worker === false ? null : startBackground(server.runtime, { pollMs: 100, ...options.background });
  return {
    ...server,
    sandbox,
    background,
    urlOf: (persona) => sandbox.urlOf(persona),
    waitForEnd: (scanId, timeoutMs = 120_000) => waitForScanEnd(server.leaderboardUrl, scanId, timeoutMs),
    async close() {
      await background?.stop(5000);
      await server.close();
      if (!options.sandbox) await sandbox.close();
    },
  };
}

export async function readScan(baseUrl: string, scanId: string): Promise<ScanView> {
  const res = await fetch(`${baseUrl}/v1/leaderboard/scans/${scanId}`);
  if (res.status !== 200) throw new Error(`GET scan ${scanId}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ScanView;
}

export async function waitForScanEnd(baseUrl: string, scanId: string, timeoutMs = 120_000): Promise<ScanView> {
  return pollUntil(`scan ${scanId} to end`, async () => {
    const scan = await readScan(baseUrl, scanId);
    return scan.state === 'ended' ? scan : undefined;
  }, timeoutMs);
}

// The deadlines catch a hang: far beyond the normal wait, because a loaded CI machine (every package's tests side by
// side on 2 cores) makes a wait of seconds take many times as long.
export async function pollUntil<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 120_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

// A test server for the scan pipeline: the sandbox personas on loopback, a Runtime whose scanner resolves the
// personas' hostnames through the sandbox (injected, not through env), both hosts listening, and the real worker.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createLeaderboardClient } from '@arl/client';
import { createTestDb, type TestDb } from '@arl/db';
import { startSandbox, type PersonaName, type Sandbox } from '@arl/sandbox';
import { loadConfig, type Config } from '../../src/config';
import { startBackground, type Background, type BackgroundOptions } from '../../src/jobs/background';
import { createLogger } from '../../src/logger';
import { createRuntime, type Runtime } from '../../src/runtime';
import { listen, type RunningServers } from '../../src/server';

export interface ScanTestServer {
  sandbox: Sandbox;
  runtime: Runtime;
  servers: RunningServers;
  config: Config;
  db: TestDb;
  dataDir: string;
  leaderboardUrl: string;
  client: ReturnType<typeof createLeaderboardClient>;
  background: Background | null;
  urlOf(persona: PersonaName): string;
  /** Polls operation 6 until the scan has ended (bounded). */
  waitForEnd(scanId: string, timeoutMs?: number): Promise<ScanView>;
  close(): Promise<void>;
}

export type ScanView = {
  id: string; state: string; domain: string; ending?: string; cause?: string; score?: number; grade?: string; endedAt?: string;
  events: Array<{ step: string; at: string }>;
};

export interface ScanTestServerOptions {
  env?: Record<string, string>;
  latencyMs?: number;
  /** Start the worker in this process (default true). */
  worker?: boolean;
  background?: BackgroundOptions;
  seed?: boolean;
  sandbox?: Sandbox;
  clock?: () => Date;
}

export async function startScanTestServer(options: ScanTestServerOptions = {}): Promise<ScanTestServer> {
  const sandbox = options.sandbox ?? (await startSandbox({ latencyMs: options.latencyMs ?? 0 }));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-scan-test-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    SCAN_ALLOW_PRIVATE_NETWORKS: 'true',
    RESCAN_INTERVAL: 'off',
    SCAN_RATE_LIMIT: '0',
    VALIDATE_RESPONSES: 'fail',
    ...options.env,
  });
  const db = await createTestDb('scans');
  const logger = createLogger(config.logLevel);
  const runtime = await createRuntime(config, { logger, db, prepare: options.seed === true, clock: options.clock, scanFetchPolicy: { lookup: sandbox.lookup } });
  const servers = await listen(runtime, { port: 0, feedbackPort: 0 });
  const background = options.worker === false ? null : startBackground(runtime, { pollMs: 100, ...options.background });
  const client = createLeaderboardClient(servers.leaderboardUrl);
  return {
    sandbox, runtime, servers, config, db, dataDir, client, background,
    leaderboardUrl: servers.leaderboardUrl,
    urlOf: (persona) => sandbox.urlOf(persona),
    waitForEnd: (scanId, timeoutMs = 20_000) => waitForScanEnd(servers.leaderboardUrl, scanId, timeoutMs),
    async close() {
      await background?.stop(5000);
      await servers.close();
      await runtime.close();
      await db.dispose();
      if (!options.sandbox) await sandbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function readScan(baseUrl: string, scanId: string): Promise<ScanView> {
  const res = await fetch(`${baseUrl}/v1/leaderboard/scans/${scanId}`);
  if (res.status !== 200) throw new Error(`GET scan ${scanId}: ${res.status} ${await res.text()}`);
  return (await res.json()) as ScanView;
}

export async function waitForScanEnd(baseUrl: string, scanId: string, timeoutMs = 20_000): Promise<ScanView> {
  return pollUntil(`scan ${scanId} to end`, async () => {
    const scan = await readScan(baseUrl, scanId);
    return scan.state === 'ended' ? scan : undefined;
  }, timeoutMs);
}

export async function pollUntil<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
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

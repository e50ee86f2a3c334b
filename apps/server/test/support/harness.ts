// Test harness: a real Runtime over a fresh test database (PGlite in memory, or a fresh PostgreSQL schema when
// TEST_DATABASE_URL is set), both hosts really listening on ephemeral loopback ports, and typed clients.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createFeedbackClient, createLeaderboardClient } from '@arl/client';
import { createTestDb, type TestDb } from '@arl/db';
import type { FetchPolicy } from '@arl/scanner';
import { loadConfig, type Config } from '../../src/config';
import type { DestinationStream } from 'pino';
import { createLogger, secretsOf } from '../../src/logger';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime';
import { listen, type RunningServers } from '../../src/server';

export interface TestServer {
  runtime: Runtime;
  db: TestDb;
  dataDir: string;
  servers: RunningServers;
  config: Config;
  leaderboardUrl: string;
  feedbackUrl: string;
  client: ReturnType<typeof createLeaderboardClient>;
  feedback: ReturnType<typeof createFeedbackClient>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
  clock?: () => Date;
  /** Seed the default categories/companies/projects (default false: tests insert what they need). */
  seed?: boolean;
  /** How scans and journeys fetch (e.g. the sandbox's DNS override). */
  fetchPolicy?: Partial<FetchPolicy>;
  /** Name hint of the test database (its PostgreSQL schema). */
  dbName?: string;
  /** Where log lines go (default stdout at TEST_LOG_LEVEL); tests that read the log pass a stream and LOG_LEVEL. */
  logStream?: DestinationStream;
  /** Event stream limits and timings (heartbeat, lifetime, per-client and total bounds). */
  streamLimits?: RuntimeOptions['streamLimits'];
  /** The leaderboard's periodic catch-up (RuntimeOptions.changeCheckMs; 0: only when a test asks). */
  changeCheckMs?: number;
  /** Fixed ports (default: ephemeral), e.g. when PUBLIC_URL must name the real address. */
  ports?: { port: number; feedbackPort: number };
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-test-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    SCAN_ALLOW_PRIVATE_NETWORKS: 'true',
    RESCAN_INTERVAL: 'off',
    VALIDATE_RESPONSES: 'fail',
    ...options.env,
  });
  const db = await createTestDb(options.dbName);
  const logger = createLogger(config.logLevel, { secrets: secretsOf(config), destination: options.logStream });
  const runtime = await createRuntime(config, {
    logger, db, prepare: options.seed === true, clock: options.clock, fetchPolicy: options.fetchPolicy, streamLimits: options.streamLimits, changeCheckMs: options.changeCheckMs,
  });
  const servers = await listen(runtime, options.ports ?? { port: 0, feedbackPort: 0 });
  return {
    runtime,
    db,
    dataDir,
    servers,
    config,
    leaderboardUrl: servers.leaderboardUrl,
    feedbackUrl: servers.feedbackUrl,
    client: createLeaderboardClient(servers.leaderboardUrl),
    feedback: createFeedbackClient(servers.feedbackUrl),
    async close() {
      await servers.close();
      await runtime.close();
      await db.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts the exact error shape of the contract and that the body's requestId is the response header. */
export function expectErrorBody(res: { status: number; headers: Record<string, string>; body: unknown }, status: number, code?: string): void {
  expect(res.status).toBe(status);
  const body = res.body as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
  expect(typeof body.code === 'string' && body.code.length > 0).toBe(true);
  expect(typeof body.message === 'string' && (body.message as string).length > 0).toBe(true);
  expect(body.requestId).toBe(res.headers['x-request-id']);
  if (code) expect(body.code).toBe(code);
}

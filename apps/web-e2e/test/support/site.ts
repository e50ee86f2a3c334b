// The whole site for the browser tests: the sandbox personas on loopback, a fresh test database with the seed (71
// curated companies, the feedback projects), both hosts listening on free loopback ports (the feedback host's URL
// must be known before start: the pages hand it to the browser), and the real worker scanning.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createFeedbackClient, createLeaderboardClient, type LeaderboardSchemas } from '@arl/client';
import { createTestDb, type TestDb } from '@arl/db';
import { startSandbox, type PersonaName, type Sandbox } from '@arl/sandbox';
import { createLogger, createRuntime, listen, loadConfig, startBackground, type Runtime } from '@arl/server';

export interface Site {
  baseUrl: string;
  feedbackUrl: string;
  runtime: Runtime;
  db: TestDb;
  sandbox: Sandbox;
  api: ReturnType<typeof createLeaderboardClient>;
  feedback: ReturnType<typeof createFeedbackClient>;
  /** Scans a persona through the API and waits for the end. */
  scan(persona: PersonaName): Promise<LeaderboardSchemas['Scan']>;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const sandbox = await startSandbox({ latencyMs: 0 });
  const [port, feedbackPort] = await freePorts(2);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-web-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    FEEDBACK_PORT: String(feedbackPort),
    SCAN_ALLOW_PRIVATE_NETWORKS: 'true',
    SCAN_RATE_LIMIT: '0',
    RESCAN_INTERVAL: 'off',
    VALIDATE_RESPONSES: 'fail',
  });
  const db = await createTestDb('web');
  // Scan deadlines far beyond a scan's normal time: the pages show the scans' verdicts, which a loaded machine must not
  // turn into timeouts. Nothing in the sandbox waits for one.
  const fetchPolicy = { lookup: sandbox.lookup, requestTimeoutMs: 60_000, scanBudgetMs: 120_000 };
  const runtime = await createRuntime(config, { logger: createLogger(config.logLevel), db, prepare: true, fetchPolicy });
  const servers = await listen(runtime, { port, feedbackPort });
  const background = startBackground(runtime, { pollMs: 50 });
  const api = createLeaderboardClient(servers.leaderboardUrl);
  return {
    baseUrl: servers.leaderboardUrl,
    feedbackUrl: servers.feedbackUrl,
    runtime,
    db,
    sandbox,
    api,
    feedback: createFeedbackClient(servers.feedbackUrl),
    async scan(persona) {
      const { data, error } = await api.POST('/v1/leaderboard/scans', { body: { url: sandbox.urlOf(persona) } });
      if (!data) throw new Error(`scan of ${persona}: ${error?.message}`);
      return waitForScan(api, data.scan.id);
    },
    async close() {
      await background.stop(5000);
      await servers.close();
      await runtime.close();
      await db.dispose();
      await sandbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until the scan ends; the deadline, far beyond a scan's normal time, only catches a hang. */
export async function waitForScan(api: ReturnType<typeof createLeaderboardClient>, scanId: string, timeoutMs = 120_000): Promise<LeaderboardSchemas['Scan']> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data } = await api.GET('/v1/leaderboard/scans/{scanId}', { params: { path: { scanId } } });
    if (data?.state === 'ended') return data;
    if (Date.now() > deadline) throw new Error(`scan ${scanId} did not end in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise<net.Server>((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

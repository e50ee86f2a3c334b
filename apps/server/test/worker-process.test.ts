// Crash safety and shutdown with real child processes (the built dist/ entry points; the test task builds first).
//
// PGlite (always): `npm start` in a child on a DATA_DIR: kill -9 mid-scan and restart -> the scan is retried once
// and finishes; killed twice -> it ends `interrupted`; SIGTERM mid-scan -> the child exits cleanly within the
// deadline and the scan ended `interrupted`; every restart finds what was there before.
// PostgreSQL (only with TEST_DATABASE_URL: PGlite cannot be shared by processes): two `npm run worker` processes
// share the queue, no scan runs twice, and a worker killed mid-scan is replaced by the other after its lease.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '@arl/sandbox';
import { pollUntil, readScan, waitForScanEnd, startScanTestServer, type ScanView } from './support/scan-harness';

const DIST = path.resolve(__dirname, '../dist');
jest.setTimeout(90_000);

interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnNode(script: string, env: Record<string, string>, args: string[] = []): Child {
  let output = '';
  const proc = spawn(process.execPath, [path.join(DIST, script), '--resolve', '*.test=127.0.0.1', ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HOST: '127.0.0.1', SCAN_ALLOW_PRIVATE_NETWORKS: 'true', RESCAN_INTERVAL: 'off', SCAN_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output: () => output, exited };
}

async function post(baseUrl: string, url: string): Promise<{ id: string }> {
  const res = await fetch(`${baseUrl}/v1/leaderboard/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
  if (res.status !== 202) throw new Error(`POST scans: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { scan: { id: string } }).scan;
}

const steps = (scan: ScanView) => scan.events.map((e) => e.step);
const midScan = (scan: ScanView) => steps(scan).filter((s) => s === 'gathering').length;

let sandbox: Sandbox;
beforeAll(async () => {
  // 150 ms per response: a scan of the exemplary persona takes a few seconds, long enough to be caught mid-way.
  sandbox = await startSandbox({ latencyMs: 150 });
});
afterAll(() => sandbox.close());

describe('embedded database (PGlite) in a child process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-proc-'));
  let child: Child | null = null;
  afterAll(async () => {
    if (child && child.proc.exitCode === null) {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function startServer(): Promise<string> {
    child = spawnNode('main.js', { DATA_DIR: dataDir, PORT: '0', FEEDBACK_PORT: '0', SHUTDOWN_TIMEOUT_MS: '8000' });
    const c = child;
    const line = await pollUntil('the server to listen', async () => {
      if (c.proc.exitCode !== null) throw new Error(`server exited: ${c.output()}`);
      return c.output().split('\n').find((l) => l.includes('"msg":"listening"'));
    }, 60_000);
    return (JSON.parse(line) as { leaderboard: string }).leaderboard;
  }

  async function kill9(): Promise<void> {
    child!.proc.kill('SIGKILL');
    await child!.exited;
  }

  let base = '';

  test('kill -9 mid-scan: killed twice, scans end interrupted; killed once and restarted, a scan is retried and finishes', async () => {
    base = await startServer();
    // Two scans run at once (SCAN_CONCURRENCY 2); both are killed in attempt 1, then again in attempt 2.
    const a = await post(base, `${sandbox.urlOf('exemplary')}?kill=a`);
    const b = await post(base, `${sandbox.urlOf('exemplary')}?kill=b`);
    const bothAt = (n: number) => async () => midScan(await readScan(base, a.id)) === n && midScan(await readScan(base, b.id)) === n;
    await pollUntil('attempt 1 of both gathering', bothAt(1), 30_000);
    await kill9();
    base = await startServer();
    await pollUntil('attempt 2 of both gathering', bothAt(2), 30_000);
    await kill9();
    base = await startServer();
    for (const scan of [a, b]) {
      const given = await waitForScanEnd(base, scan.id, 30_000);
      expect(given.ending).toBe('interrupted');
      expect(given.cause).toMatch(/stopped unexpectedly/);
      expect(given).not.toHaveProperty('score');
      expect(steps(given).filter((s) => s === 'running')).toHaveLength(2);
    }

    const once = await post(base, `${sandbox.urlOf('exemplary')}?kill=once`);
    await pollUntil('the scan to be gathering', async () => midScan(await readScan(base, once.id)) === 1, 30_000);
    await kill9();
    base = await startServer();
    const retried = await waitForScanEnd(base, once.id, 60_000);
    expect(retried.ending).toBe('finished');
    expect(steps(retried).filter((s) => s === 'waiting')).toHaveLength(2);
    expect(steps(retried).filter((s) => s === 'running')).toHaveLength(2);
    expect(steps(retried).at(-1)).toBe('ended');

    // Nothing is stuck: the killed targets can be scanned again.
    const again = await post(base, `${sandbox.urlOf('exemplary')}?kill=a`);
    expect(again.id).not.toBe(a.id);
    expect((await waitForScanEnd(base, again.id, 30_000)).ending).toBe('finished');
  });

  test('SIGTERM mid-scan: a clean exit within the deadline, the scan ended interrupted; a restart finds everything', async () => {
    const scan = await post(base, `${sandbox.urlOf('exemplary')}?sigterm`);
    await pollUntil('the scan to be gathering', async () => midScan(await readScan(base, scan.id)) === 1, 30_000);
    const started = Date.now();
    child!.proc.kill('SIGTERM');
    expect(await child!.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);

    base = await startServer();
    const ended = await readScan(base, scan.id);
    expect(ended).toMatchObject({ state: 'ended', ending: 'interrupted' });
    expect(ended.cause).toMatch(/shut down/);
    // What the first test stored survived the restarts.
    const res = await fetch(`${base}/v1/leaderboard/companies/exemplary-co.test?community=include`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { score: number | null }).score).not.toBeNull();
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  describe('PostgreSQL: two worker processes share one queue', () => {
    test('every scan ends exactly once; a worker killed mid-scan is replaced by the other after its lease', async () => {
      const t = await startScanTestServer({ worker: false, sandbox });
      const url = new URL(pgUrl);
      url.searchParams.set('schema', t.runtime.db.schema);
      const env = { DATABASE_URL: url.toString(), SCAN_CONCURRENCY: '2', SHUTDOWN_TIMEOUT_MS: '5000' };
      const workers = [spawnNode('worker-main.js', env, ['--lease-ms', '1500']), spawnNode('worker-main.js', env, ['--lease-ms', '1500'])];
      try {
        for (const w of workers) {
          await pollUntil('worker start', async () => {
            if (w.proc.exitCode !== null) throw new Error(w.output());
            return w.output().includes('"msg":"worker running"');
          }, 60_000);
        }
        const personas = ['exemplary', 'typical-saas', 'content-site', 'bare-mcp', 'mcp-app'] as const;
        const scans = [];
        for (let i = 0; i < 12; i += 1) scans.push(await post(t.leaderboardUrl, `${sandbox.urlOf(personas[i % personas.length])}?n=${i}`));
        const ended = await Promise.all(scans.map((s) => waitForScanEnd(t.leaderboardUrl, s.id, 60_000)));
        for (const scan of ended) {
          expect(scan.ending).toBe('finished');
          expect(steps(scan).filter((s) => s === 'running')).toHaveLength(1);
        }

        const slow = await post(t.leaderboardUrl, `${sandbox.urlOf('exemplary')}?victim`);
        await pollUntil('gathering', async () => midScan(await readScan(t.leaderboardUrl, slow.id)) === 1, 30_000);
        const [{ locked_by }] = (await t.db.executeSql(`SELECT locked_by FROM jobs WHERE payload->>'scanId' = $1`, [slow.id])).rows;
        const victim = workers.find((w) => String(locked_by).includes(`:${w.proc.pid}:`))!;
        victim.proc.kill('SIGKILL');
        await victim.exited;
        const recovered = await waitForScanEnd(t.leaderboardUrl, slow.id, 60_000);
        expect(recovered.ending).toBe('finished');
        expect(steps(recovered).filter((s) => s === 'running')).toHaveLength(2);
      } finally {
        for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGTERM');
        await Promise.all(workers.map((w) => w.exited));
        await t.close();
      }
    });
  });
}

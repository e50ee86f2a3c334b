// Crash safety and shutdown with real child processes (the built dist/ entry points; the test task builds first).
//
// PGlite (always): `npm start` in a child on a DATA_DIR: the DATA_DIR has one owner (a second server and the owner
// CLI are refused while it runs, naming the directory and the owner's PID; the CLI runs once it stopped); kill -9
// mid-scan and restart -> the scan is retried once and finishes (kill -9 leaves no stale lock); killed twice -> it
// ends `interrupted`; SIGTERM mid-scan -> the child exits cleanly within the deadline, the scan is handed back to
// the queue (not an attempt) and the restarted server finishes it with exactly one mail; every restart finds what
// was there before.
// PostgreSQL (only with TEST_DATABASE_URL: PGlite cannot be shared by processes): two `npm run worker` processes
// share the queue, no scan runs twice, and a worker killed mid-scan is replaced by the other after its lease; two
// API processes beside them serve the same data (a scan submitted to one is read from the other, the leaderboards
// agree); the workers' health, readiness and metrics probes answer.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startSandbox, type Sandbox } from '@arl/sandbox';
import { pollUntil, readScan, waitForScanEnd, startScanTestServer, type ScanView } from './support/scan-harness';

const DIST = path.resolve(__dirname, '../dist');

interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnNode(script: string, env: Record<string, string>, args: string[] = []): Child {
  let output = '';
  // The long-running entry points resolve the sandbox's names; the CLIs take only their own arguments.
  const resolve = script.startsWith('cli/') ? [] : ['--resolve', '*.test=127.0.0.1'];
  const proc = spawn(process.execPath, [path.join(DIST, script), ...resolve, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', HOST: '127.0.0.1', SCAN_ALLOW_PRIVATE_NETWORKS: 'true', RESCAN_INTERVAL: 'off', SCAN_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  // 'close', not 'exit': 'exit' can come before the child's pipes are drained, and the tests read the whole output.
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
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

  async function startServer(env: Record<string, string> = {}): Promise<string> {
    // A short shutdown window, so that a scan (several seconds at 150 ms per response) cannot finish inside it.
    child = spawnNode('main.js', { DATA_DIR: dataDir, PORT: '0', FEEDBACK_PORT: '0', SHUTDOWN_TIMEOUT_MS: '1500', ...env });
    const c = child;
    const line = await pollUntil('the server to listen', async () => {
      if (c.proc.exitCode !== null) throw new Error(`server exited: ${c.output()}`);
      return c.output().split('\n').find((l) => l.includes('"msg":"listening"'));
    }, 120_000);
    return (JSON.parse(line) as { leaderboard: string }).leaderboard;
  }

  async function kill9(): Promise<void> {
    child!.proc.kill('SIGKILL');
    await child!.exited;
  }

  let base = '';

  /** Runs a child to its exit (refusals must come at once, not after a database start). */
  async function runToExit(c: Child): Promise<{ code: number | null; output: string }> {
    // A process that was not refused keeps running: stop it rather than leave it behind, and let the test fail.
    const timer = setTimeout(() => c.proc.kill('SIGKILL'), 120_000);
    const code = await c.exited;
    clearTimeout(timer);
    return { code, output: c.output() };
  }

  test('one owner per DATA_DIR: a second server and the owner CLI are refused at once, naming the directory and the PID', async () => {
    base = await startServer();
    const ownerPid = child!.proc.pid!;
    const before = fs.readdirSync(path.join(dataDir, 'pglite')).length;
    const second = await runToExit(spawnNode('main.js', { DATA_DIR: dataDir, PORT: '0', FEEDBACK_PORT: '0' }));
    expect(second.code).toBe(1);
    expect(second.output.trim()).toBe(
      `${dataDir} is already in use by process ${ownerPid}: only one process may open the embedded database, so stop that process first or choose another DATA_DIR.`,
    );
    const cli = await runToExit(spawnNode('cli/feedback.js', { DATA_DIR: dataDir }, ['project', 'create', 'ghost', '--name', 'Ghost']));
    expect(cli.code).toBe(1);
    expect(cli.output).toContain(`${dataDir} is already in use by process ${ownerPid}`);
    const migrate = await runToExit(spawnNode('cli/db.js', { DATA_DIR: dataDir }, ['migrate']));
    expect(migrate.code).toBe(1);
    expect(migrate.output).toContain(`${dataDir} is already in use by process ${ownerPid}`);
    // Nothing was opened or written by the refused processes, and the owner still serves.
    expect(fs.readdirSync(path.join(dataDir, 'pglite')).length).toBe(before);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  test('kill -9 mid-scan: killed twice, scans end interrupted; killed once and restarted, a scan is retried and finishes', async () => {
    // Two scans run at once (SCAN_CONCURRENCY 2); both are killed in attempt 1, then again in attempt 2.
    const a = await post(base, `${sandbox.urlOf('exemplary')}?kill=a`);
    const b = await post(base, `${sandbox.urlOf('exemplary')}?kill=b`);
    const bothAt = (n: number) => async () => midScan(await readScan(base, a.id)) === n && midScan(await readScan(base, b.id)) === n;
    await pollUntil('attempt 1 of both gathering', bothAt(1), 120_000);
    await kill9();
    base = await startServer();
    await pollUntil('attempt 2 of both gathering', bothAt(2), 120_000);
    await kill9();
    base = await startServer();
    for (const scan of [a, b]) {
      const given = await waitForScanEnd(base, scan.id, 120_000);
      expect(given.ending).toBe('interrupted');
      expect(given.cause).toMatch(/stopped unexpectedly/);
      expect(given).not.toHaveProperty('score');
      expect(steps(given).filter((s) => s === 'running')).toHaveLength(2);
    }

    const once = await post(base, `${sandbox.urlOf('exemplary')}?kill=once`);
    await pollUntil('the scan to be gathering', async () => midScan(await readScan(base, once.id)) === 1, 120_000);
    await kill9();
    base = await startServer();
    const retried = await waitForScanEnd(base, once.id, 120_000);
    expect(retried.ending).toBe('finished');
    expect(steps(retried).filter((s) => s === 'waiting')).toHaveLength(2);
    expect(steps(retried).filter((s) => s === 'running')).toHaveLength(2);
    expect(steps(retried).at(-1)).toBe('ended');

    // Nothing is stuck: the killed targets can be scanned again.
    const again = await post(base, `${sandbox.urlOf('exemplary')}?kill=a`);
    expect(again.id).not.toBe(a.id);
    expect((await waitForScanEnd(base, again.id, 120_000)).ending).toBe('finished');
  });

  test('SIGTERM mid-scan (a deploy): a clean exit, the scan handed back to the queue; the restart finishes it, one mail', async () => {
    const submitted = await fetch(`${base}/v1/leaderboard/scans`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${sandbox.urlOf('exemplary')}?sigterm`, email: 'deploy@example.com' }),
    });
    expect(submitted.status).toBe(202);
    const scan = ((await submitted.json()) as { scan: { id: string } }).scan;
    await pollUntil('the scan to be gathering', async () => midScan(await readScan(base, scan.id)) === 1, 120_000);
    child!.proc.kill('SIGTERM');
    expect(await child!.exited).toBe(0);
    expect(child!.output()).toContain('job handed back to the queue');
    // The exit did not wait for the scan (it needs several seconds, the window is 1.5 s): this process never ended
    // it. How long the hand-back takes is held to the window, with slack, in shutdown-handback.test.ts; a wall-clock
    // bound here failed on a slow machine (1,586 ms against 1,500) without anything being wrong.
    expect(child!.output().split('\n').filter((l) => l.includes('"msg":"scan ended"') && l.includes(scan.id))).toEqual([]);

    // Stopped: the owner CLI may open the data directory now.
    const cli = await runToExit(spawnNode('cli/feedback.js', { DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, ['project', 'list']));
    // The output with the code: when it fails, what the CLI said is the cause.
    expect({ code: cli.code, output: cli.code === 0 ? '' : cli.output }).toEqual({ code: 0, output: '' });
    expect(cli.output).toMatch(/^leaderboard\t/m);

    base = await startServer();
    const ended = await waitForScanEnd(base, scan.id, 120_000);
    expect(ended.ending).toBe('finished');
    expect(steps(ended).filter((s) => s === 'running')).toHaveLength(2);
    expect(steps(ended).filter((s) => s === 'waiting')).toHaveLength(2);
    // The hand-back was not an attempt: the restarted server finished the job on attempt 1 (of 2).
    // The line is written after the ending commits, and a pipe's bytes can arrive after the HTTP answer that showed
    // the ending (issue 38: read once, it was not there yet on a loaded machine): wait for it.
    const c = child!;
    const endLine = await pollUntil('the scan ended line', async () =>
      c.output().split('\n').find((l) => l.includes('"msg":"scan ended"') && l.includes(scan.id)));
    expect(JSON.parse(endLine)).toMatchObject({ attempt: 1, domain: 'exemplary-co.test', ending: 'finished' });
    const outbox = path.join(dataDir, 'outbox');
    const mails = await pollUntil('the mail', async () => {
      const found = (fs.existsSync(outbox) ? fs.readdirSync(outbox) : []).filter((f) => /^To: deploy@example\.com$/m.test(fs.readFileSync(path.join(outbox, f), 'utf8')));
      return found.length > 0 ? found : undefined;
    });
    expect(mails).toHaveLength(1);
    expect(fs.readFileSync(path.join(outbox, mails[0]), 'utf8')).toContain('exemplary-co.test');
    // What the first test stored survived the restarts.
    const res = await fetch(`${base}/v1/leaderboard/companies/exemplary-co.test?community=include`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { score: number | null }).score).not.toBeNull();
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  describe('PostgreSQL: two API processes and two worker processes on one database', () => {
    test('every scan ends exactly once and reads the same from either API; a killed worker is replaced after its lease', async () => {
      const t = await startScanTestServer({ worker: false, sandbox });
      const url = new URL(pgUrl);
      url.searchParams.set('schema', t.runtime.db.schema);
      const env = { DATABASE_URL: url.toString(), SCAN_CONCURRENCY: '2', SHUTDOWN_TIMEOUT_MS: '5000', METRICS_PORT: '0' };
      const workers = [spawnNode('worker-main.js', env, ['--lease-ms', '1500']), spawnNode('worker-main.js', env, ['--lease-ms', '1500'])];
      // The README's scale-out recipe: API processes without the in-process worker, each on its own ports.
      const apis = [0, 1].map(() => spawnNode('main.js', { ...env, WORKER_IN_PROCESS: 'false', PORT: '0', FEEDBACK_PORT: '0' }));
      const line = (c: Child, msg: string) =>
        pollUntil(msg, async () => {
          if (c.proc.exitCode !== null) throw new Error(c.output());
          const found = c.output().split('\n').find((l) => l.includes(`"msg":"${msg}"`));
          return found ? (JSON.parse(found) as Record<string, string>) : undefined;
        }, 120_000);
      try {
        const workerProbes = await Promise.all(workers.map((w) => line(w, 'worker running')));
        const [one, two] = await Promise.all(apis.map((a) => line(a, 'listening')));
        for (const probe of workerProbes) {
          expect((await fetch(`${probe.metrics}/healthz`)).status).toBe(200);
          expect((await fetch(`${probe.metrics}/readyz`)).status).toBe(200);
        }

        const personas = ['exemplary', 'typical-saas', 'content-site', 'bare-mcp', 'mcp-app'] as const;
        const scans = [];
        for (let i = 0; i < 12; i += 1) scans.push(await post(one.leaderboard, `${sandbox.urlOf(personas[i % personas.length])}?n=${i}`));
        // Submitted to one API process, read from the other.
        const ended = await Promise.all(scans.map((s) => waitForScanEnd(two.leaderboard, s.id, 120_000)));
        for (const scan of ended) {
          expect(scan.ending).toBe('finished');
          expect(steps(scan).filter((s) => s === 'running')).toHaveLength(1);
          expect(await readScan(one.leaderboard, scan.id)).toEqual(scan);
        }
        // Both API processes rank the same companies the same way (each learnt of the scans through the change feed).
        const board = async (base: string) => (await (await fetch(`${base}/v1/leaderboard?community=include&limit=50`)).json()) as { items: unknown[]; total: number };
        const [a, b] = [await board(one.leaderboard), await board(two.leaderboard)];
        expect(a.items.length).toBeGreaterThan(0);
        expect(a.total).toBe(a.items.length);
        expect(b).toEqual(a);

        // The workers' metrics: queue depth from the shared table, scan endings counted where they ran.
        // Counted after each ending commits, so the last count may trail the API's answer: wait for the twelfth.
        const endedBy = (m: string) => Number(/^arl_scans_ended_total\{ending="finished"\} (\d+)$/m.exec(m)?.[1] ?? 0);
        const readMetrics = () => Promise.all(workerProbes.map(async (p) => (await fetch(`${p.metrics}/metrics`)).text()));
        const metrics = await pollUntil('twelve endings counted', async () => {
          const texts = await readMetrics();
          return endedBy(texts[0]) + endedBy(texts[1]) >= 12 ? texts : undefined;
        });
        expect(endedBy(metrics[0]) + endedBy(metrics[1])).toBe(12);
        expect(metrics[0]).toMatch(/^arl_db_pool_connections\{state="total"\} \d+$/m);

        const slow = await post(one.leaderboard, `${sandbox.urlOf('exemplary')}?victim`);
        await pollUntil('gathering', async () => midScan(await readScan(two.leaderboard, slow.id)) === 1, 120_000);
        const [{ locked_by }] = (await t.db.executeSql(`SELECT locked_by FROM jobs WHERE payload->>'scanId' = $1`, [slow.id])).rows;
        const victim = workers.find((w) => String(locked_by).includes(`:${w.proc.pid}:`))!;
        victim.proc.kill('SIGKILL');
        await victim.exited;
        const recovered = await waitForScanEnd(one.leaderboard, slow.id, 120_000);
        expect(recovered.ending).toBe('finished');
        expect(steps(recovered).filter((s) => s === 'running')).toHaveLength(2);
      } finally {
        for (const c of [...workers, ...apis]) if (c.proc.exitCode === null) c.proc.kill('SIGTERM');
        await Promise.all([...workers, ...apis].map((c) => c.exited));
        await t.close();
      }
    });
  });
}

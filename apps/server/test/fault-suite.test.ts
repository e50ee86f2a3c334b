// The fault suite: the production shape (an API process and a worker process, separate, on PostgreSQL) under load,
// through five faults: (a) PostgreSQL stopped and started, (b) the LISTEN backends terminated, (c) the worker
// SIGKILLed mid-scan and started again, (d) the API process SIGKILLed and started again, (e) the network between the
// processes and PostgreSQL cut and restored. After each: every accepted scan ends, the list and every company read
// equal the database, and no answer was a 500 (a database outage is 503, inside the outage window only).
//
// The cluster is the test's own (support/faults/private-postgres.ts), reached through a TCP proxy the test controls
// (support/faults/tcp-proxy.ts); the machine's shared PostgreSQL is never touched. The closing table is printed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startFlippingSites, type FlippingSites } from './support/faults/flipping-sites';
import { startPrivatePostgres, type PrivatePostgres } from './support/faults/private-postgres';
import { spawnEntry, waitForOk, type ServiceProcess } from './support/faults/processes';
import { startTcpProxy, type TcpProxy } from './support/faults/tcp-proxy';
import { freePort } from './support/ports';

jest.setTimeout(600_000);

const SITES = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let pg: PrivatePostgres;
let proxy: TcpProxy;
let sites: FlippingSites;
let api: ServiceProcess;
let worker: ServiceProcess;
let apiUrl: string;
let apiEnv: Record<string, string>;
let workerEnv: Record<string, string>;
let workerReady: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-faults-'));

const startApi = () => spawnEntry('main.js', apiEnv);
const startWorker = () => spawnEntry('worker-main.js', workerEnv, ['--resolve', '*.test=127.0.0.1', '--lease-ms', '3000']);

beforeAll(async () => {
  pg = await startPrivatePostgres();
  proxy = await startTcpProxy(pg.port);
  sites = await startFlippingSites();
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  const common = {
    DATABASE_URL: `postgresql://postgres@127.0.0.1:${proxy.port}/postgres`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SCAN_ALLOW_PRIVATE_NETWORKS: 'true',
    RESCAN_INTERVAL: 'off',
    SCAN_RATE_LIMIT: '0',
    SCAN_CONCURRENCY: '4',
  };
  apiEnv = { ...common, PORT: String(port), FEEDBACK_PORT: String(await freePort()), WORKER_IN_PROCESS: 'false' };
  const metricsPort = await freePort();
  workerEnv = { ...common, METRICS_PORT: String(metricsPort) };
  workerReady = `http://127.0.0.1:${metricsPort}/readyz`;
  api = startApi();
  await waitForOk(`${apiUrl}/readyz`);
  worker = startWorker();
  // A process that cannot reach PostgreSQL at start-up exits (its supervisor starts it again): the faults begin
  // once both run.
  await waitForOk(workerReady);
});

afterAll(async () => {
  await Promise.all([api?.kill('SIGKILL'), worker?.kill('SIGKILL')]);
  await sites?.close();
  await proxy?.close();
  await pg?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Answer {
  /** When the request was sent and when its answer (or failure) came. */
  at: number;
  done: number;
  status: number;
  what: string;
}

/** Reads (the list and a company, in turn) and scan submissions at a steady pace until stopped. */
function startLoad() {
  const reads: Answer[] = [];
  const posts: Answer[] = [];
  const accepted = new Set<string>();
  let running = true;
  let submitting = true;
  const readLoop = (async () => {
    for (let i = 0; running; i++) {
      const at = Date.now();
      const url = i % 2 === 0 ? `${apiUrl}/v1/leaderboard?community=include&limit=100` : `${apiUrl}/v1/leaderboard/companies/fault-site-${i % SITES}.test?community=include`;
      const status = await fetch(url, { signal: AbortSignal.timeout(3_000) }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
      reads.push({ at, done: Date.now(), status, what: i % 2 === 0 ? 'list' : 'company' });
      await sleep(20);
    }
  })();
  const scanLoop = (async () => {
    for (let i = 0; running && submitting; i++) {
      const at = Date.now();
      const status = await fetch(`${apiUrl}/v1/leaderboard/scans`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: sites.urlOf(i % SITES) }),
        signal: AbortSignal.timeout(30_000), // an unanswered submission is not counted accepted: generous on a loaded machine
      }).then(async (r) => {
        if (r.status === 202 || r.status === 200) accepted.add(((await r.json()) as { scan: { id: string } }).scan.id);
        else await r.arrayBuffer();
        return r.status;
      }, () => 0);
      posts.push({ at, done: Date.now(), status, what: 'scan' });
      await sleep(300);
    }
  })();
  return {
    reads,
    posts,
    accepted,
    stopSubmitting: () => {
      submitting = false;
      return scanLoop;
    },
    async stop() {
      running = false;
      await Promise.all([readLoop, scanLoop]);
    },
  };
}

async function unendedScans(ids: Set<string>): Promise<number> {
  const rows = await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM scans WHERE id = ANY($1::uuid[]) AND state <> 'ended'`, [[...ids]]);
  return rows[0].n;
}

/** The fault sites' scores as the database holds them and as the API answers them (list and company reads). */
async function staleReads(): Promise<string[]> {
  const truth = new Map(
    (await pg.query<{ domain: string; score: number | null }>(`SELECT domain, score FROM companies WHERE domain LIKE 'fault-site-%'`)).map((r) => [r.domain, r.score]),
  );
  const stale: string[] = [];
  const list = (await (await fetch(`${apiUrl}/v1/leaderboard?community=include&limit=100`)).json()) as { items: Array<{ company: { domain: string }; score: number }>; total: number };
  const listed = new Map(list.items.map((e) => [e.company.domain, e.score]));
  const [{ n: ranked }] = await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM companies WHERE score IS NOT NULL`);
  if (list.total !== ranked) stale.push(`list total ${list.total}, database ${ranked}`);
  for (const [domain, score] of truth) {
    if (score === null) continue;
    if (listed.get(domain) !== score) stale.push(`list ${domain}: ${listed.get(domain)} (database ${score})`);
    const read = (await (await fetch(`${apiUrl}/v1/leaderboard/companies/${domain}?community=include`)).json()) as { score: number | null };
    if (read.score !== score) stale.push(`read ${domain}: ${read.score} (database ${score})`);
  }
  return stale;
}

interface Row {
  fault: string;
  windowMs: number;
  readsServed: number;
  readsUnanswered: number;
  fiveXx: number;
  /** 5xx answers by request: list reads / company reads / scan submissions. */
  fiveXxBy: string;
  fiveXxOutside: number;
  internalErrors: number;
  accepted: number;
  ended: number;
  staleAfterRecovery: number;
  equalAfterMs: number;
}
const table: Row[] = [];

/** Load, the fault (from `inject` until `recover` returns is the outage window), quiet, then the checks. */
async function underFault(fault: string, inject: () => Promise<void>, recover: () => Promise<void>): Promise<Row> {
  const load = startLoad();
  await sleep(1_500);
  const from = Date.now();
  await inject();
  await recover();
  const to = Date.now();
  await sleep(3_000);
  await load.stopSubmitting();
  // Every accepted scan ends (a killed worker's scans are taken over after the lease); the deadline catches a hang.
  const until = Date.now() + 240_000;
  let left = await unendedScans(load.accepted);
  while (left > 0 && Date.now() < until) {
    await sleep(250);
    left = await unendedScans(load.accepted);
  }
  await load.stop();
  const quiet = Date.now();
  // Within a grace after the last change, every read equals the database. The grace is for convergence, not speed
  // (equalAfterMs in the table says how long it took): it catches reads that stay stale, on a loaded machine too.
  const convergeMs = 60_000;
  let stale = await staleReads();
  const staleAtFirst = stale.length;
  while (stale.length > 0 && Date.now() - quiet < convergeMs) {
    await sleep(100);
    stale = await staleReads();
  }
  // The pool's and the feed's reconnection after the outage: 2 s on a quiet machine, several times that on a loaded one.
  const grace = 10_000;
  const all = [...load.reads, ...load.posts];
  // A request in flight when the fault began, or sent until shortly after recovery, may meet the outage.
  const inWindow = (r: Answer) => r.done >= from && r.at <= to + grace;
  const row: Row = {
    fault,
    windowMs: to - from,
    readsServed: load.reads.filter((r) => r.status === 200).length,
    readsUnanswered: load.reads.filter((r) => r.status === 0).length,
    fiveXx: all.filter((r) => r.status >= 500).length,
    fiveXxBy: ['list', 'company', 'scan'].map((w) => all.filter((r) => r.status >= 500 && r.what === w).length).join('/'),
    fiveXxOutside: all.filter((r) => r.status >= 500 && !inWindow(r)).length,
    internalErrors: all.filter((r) => r.status === 500).length,
    accepted: load.accepted.size,
    ended: load.accepted.size - left,
    staleAfterRecovery: staleAtFirst,
    equalAfterMs: stale.length === 0 ? Date.now() - quiet : -1,
  };
  table.push(row);
  const outside = all.filter((r) => r.status >= 500 && !inWindow(r));
  if (outside.length > 0) {
    throw new Error(`${fault}: 5xx outside the outage window (${from}..${to + grace}): ${outside.map((r) => `${r.what} ${r.status} sent ${r.at}, answered ${r.done}`).join(', ')}\n${api.output().slice(-4000)}`);
  }
  if (stale.length > 0) throw new Error(`${fault}: reads still differ from the database ${convergeMs / 1000} s after the last change: ${stale.slice(0, 5).join('; ')}\n${api.output().slice(-3000)}`);
  if (left > 0) throw new Error(`${fault}: ${left} of ${load.accepted.size} accepted scans did not end\n${worker.output().slice(-3000)}`);
  expect(row.ended).toBe(row.accepted);
  expect(row.internalErrors).toBe(0);
  expect(row.fiveXxOutside).toBe(0);
  expect(row.accepted).toBeGreaterThan(0);
  return row;
}

afterAll(() => {
  const lines = ['| fault | window ms | reads served | reads unanswered | 5xx (list/company/scan) | 5xx outside window | 500s | scans accepted/ended | stale reads at quiet | equal after ms |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const r of table) {
    lines.push(`| ${r.fault} | ${r.windowMs} | ${r.readsServed} | ${r.readsUnanswered} | ${r.fiveXx} (${r.fiveXxBy}) | ${r.fiveXxOutside} | ${r.internalErrors} | ${r.accepted}/${r.ended} | ${r.staleAfterRecovery} | ${r.equalAfterMs} |`);
  }
  process.stdout.write(`\nFault suite:\n${lines.join('\n')}\n`);
});

test('(a) PostgreSQL stopped for 4 s and started again', async () => {
  await underFault('PostgreSQL stop/start', () => pg.stop(), async () => {
    await sleep(4_000);
    await pg.start();
  });
  // The API process heard it all again: its change feed reconnected and it is ready.
  await waitForOk(`${apiUrl}/readyz`, 120_000);
});

test('(b) the LISTEN backends terminated by the server', async () => {
  await underFault('LISTEN backends terminated', async () => {
    // Every process's feeds: the API's change and progress feeds and the worker's.
    expect(await pg.terminate('arl-listen %')).toBeGreaterThanOrEqual(2);
  }, async () => undefined);
});

test('(c) the worker SIGKILLed mid-scan and started 2 s later', async () => {
  await underFault('worker SIGKILL', () => worker.kill('SIGKILL'), async () => {
    await sleep(2_000);
    worker = startWorker();
    await waitForOk(workerReady);
  });
});

test('(d) the API process SIGKILLed and started again', async () => {
  await underFault('API SIGKILL', () => api.kill('SIGKILL'), async () => {
    api = startApi();
    await waitForOk(`${apiUrl}/readyz`);
  });
});

test('(e) the network to PostgreSQL cut for 3 s and restored', async () => {
  await underFault('network cut', async () => proxy.cut(), async () => {
    await sleep(3_000);
    proxy.restore();
  });
  await waitForOk(`${apiUrl}/readyz`, 120_000);
});

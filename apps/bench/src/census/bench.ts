// `npm run bench -- census`: scan throughput of the real worker on a simulated internet (population.ts, internet.ts),
// through the real path: PostgreSQL with the population imported as curated companies, the census scheduler
// releasing rescans, `worker-main.js` processes claiming them from the queue, the scanner fetching over TLS.
//
// Phase 1: one worker process; phase 2: a second one joins on the same database. Each phase waits out a warm-up,
// then measures a fixed window: scans ended (the database, and each process's arl_scans_ended_total), CPU seconds
// (/proc/<pid>/stat), RSS and in-flight scans sampled every second, requests, TLS handshakes and bytes counted at
// the simulated servers, the scheduler's release rate (rescans created) against the rate asked of it. The pace asked
// is RESCAN_INTERVAL = sites / rate: a rate above what the workers can do, so the window measures their ceiling;
// the interval stays longer than the run, so no company is due twice and a scan done twice would be a fault.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDb, migrate, type Db } from '@arl/db';
import { BENCH_POSTGRES_URL, benchEnv, loadLine, met } from '../common';
import { withSchema } from '../workloads';
import type { InternetCounters } from './internet';
import { generatePopulation, mixOf, type Site } from './population';
import { makeTestCa } from './test-ca';

export interface CensusBenchOptions {
  sites: number;
  seconds: number;
  concurrency: number;
  /** Rescans a second asked of the scheduler (RESCAN_INTERVAL = sites / rate). */
  rate: number;
  seed: number;
  sitesPerAddress: number;
  warmupSeconds: number;
}

export const CENSUS_DEFAULTS: CensusBenchOptions = { sites: 5000, seconds: 60, concurrency: 64, rate: 30, seed: 20261127, sitesPerAddress: 8, warmupSeconds: 20 };

interface WorkerFigures {
  pid: number;
  ended: number;
  scansPerSecond: number;
  cpuSeconds: number;
  /** CPU seconds per wall second: the cores this process kept busy. */
  cores: number;
  rssIdleMb: number;
  rssMeanMb: number;
  rssMaxMb: number;
  inFlightMean: number;
  /** Queries waiting for a pool connection, mean of the samples: above 0, the pool is a queue. */
  poolWaitingMean: number;
  /** (mean RSS − RSS before scanning) / mean in-flight scans. */
  rssPerScanMb: number | null;
}

interface PhaseFigures {
  name: string;
  seconds: number;
  ended: number;
  scansPerSecond: number;
  endings: Record<string, number>;
  causes: Array<[string, number]>;
  /** Seconds from a scan's start to its end (p50, p90). */
  durationP50: number;
  durationP90: number;
  released: number;
  releasedPerSecond: number;
  waitingMean: number;
  workers: WorkerFigures[];
  requestsPerSecond: number;
  handshakesPerSecond: number;
  mbPerSecond: number;
  simulatorCores: number;
  load: string;
}

export interface CensusBenchResult {
  options: CensusBenchOptions;
  intervalSeconds: number;
  port: number;
  addresses: number;
  mix: Record<string, number>;
  phases: PhaseFigures[];
  scannedTwice: number;
  jobsRetried: number;
  workerErrorLines: number;
  /** The workers' warnings and errors by message, most frequent first. */
  workerLog: Array<[string, number]>;
}

const CLK_TCK = 100;

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14 and 15 of the whole line)
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function freePort(host = '127.0.0.1'): Promise<number> {
  const s = net.createServer().listen(0, host);
  await once(s, 'listening');
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Queries queued for one of the worker's PostgreSQL pool connections right now (arl_db_pool_connections). */
async function scrapePoolWaiting(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('arl_db_pool_connections{state="waiting"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function scrapeEnded(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) if (line.startsWith('arl_scans_ended_total{')) total += Number(line.split(' ').pop());
  return total;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class WorkerProcess {
  errorLines = 0;
  private constructor(readonly child: ChildProcess, readonly metricsPort: number) {}

  static async start(env: NodeJS.ProcessEnv, resolveArgs: string[], logFile: string): Promise<WorkerProcess> {
    const metricsPort = await freePort();
    const entry = path.join(path.dirname(require.resolve('@arl/server/package.json')), 'dist', 'worker-main.js');
    // BENCH_WORKER_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`: not allowed in NODE_OPTIONS) reaches the
    // workers only, not the bench.
    const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, entry, ...resolveArgs], { env: { ...env, METRICS_PORT: String(metricsPort) }, stdio: ['ignore', 'pipe', 'pipe'] });
    const worker = new WorkerProcess(child, metricsPort);
    const log = fs.createWriteStream(logFile, { flags: 'a' });
    const count = (chunk: Buffer) => {
      log.write(chunk);
      for (const line of chunk.toString().split('\n')) if (/"level":(50|60)/.test(line)) worker.errorLines += 1;
    };
    child.stdout!.on('data', count);
    child.stderr!.on('data', count);
    // Ready when its /metrics answers (the database migrated, the worker running).
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}; see ${logFile}`);
      try {
        await scrapeEnded(metricsPort);
        return worker;
      } catch {
        if (Date.now() > deadline) throw new Error(`worker did not start within 60 s; see ${logFile}`);
        await sleep(250);
      }
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await once(this.child, 'exit');
    clearTimeout(timer);
  }
}

async function importPopulation(db: Db, sites: Site[]): Promise<void> {
  await db.executeSql(`INSERT INTO categories (id, slug, name) VALUES (gen_random_uuid(), 'census-bench', 'Census bench') ON CONFLICT (slug) DO NOTHING`);
  // One statement of arrays: 5,000 rows in a few ms. Curated, never scanned, due now: the scheduler's first wave and
  // its rescan budget take them in next_scan_at order.
  await db.executeSql(
    `INSERT INTO companies (id, name, website, domain, category_id, source, updated_at)
     SELECT gen_random_uuid(), 'Site ' || n, 'https://' || h || '/', h, (SELECT id FROM categories WHERE slug = 'census-bench'), 'curated', now()
     FROM unnest($1::text[], $2::int[]) AS t(h, n)`,
    [sites.map((s) => s.host), sites.map((s) => s.index)],
  );
}

export async function runCensusBench(o: CensusBenchOptions): Promise<CensusBenchResult> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-census-bench-'));
  const ca = makeTestCa(path.join(work, 'ca'), 'census.test');
  const sites = generatePopulation({ sites: o.sites, seed: o.seed, sitesPerAddress: o.sitesPerAddress });
  const intervalSeconds = Math.max(1, Math.round(o.sites / o.rate));
  const schema = `bench_census_${process.pid}`;
  const url = withSchema(BENCH_POSTGRES_URL, schema);
  const workers: WorkerProcess[] = [];
  let internet: ChildProcess | null = null;
  let db: Db | null = null;
  try {
    // The simulated internet: port 443 as root (plain https://host/ websites), else one free port on every address.
    const wantedPort = process.getuid?.() === 0 ? 443 : await freePort('127.77.0.1');
    internet = fork(path.join(__dirname, 'internet-process.js'), [JSON.stringify({ sites: o.sites, seed: o.seed, sitesPerAddress: o.sitesPerAddress, certFile: ca.certFile, keyFile: ca.keyFile, port: wantedPort })], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [ready] = (await once(internet, 'message')) as [{ port: number; addresses: number }];
    const sim = internet;
    const counters = async (): Promise<InternetCounters> => {
      sim.send({ cmd: 'counters' });
      const [m] = (await once(sim, 'message')) as [{ counters: InternetCounters }];
      return m.counters;
    };

    db = await createDb({ databaseUrl: url });
    await migrate(db);
    await importPopulation(db, sites);
    // Not root: the websites carry the simulator's port.
    if (ready.port !== 443) {
      await db.executeSql(`UPDATE companies SET website = 'https://' || domain || ':' || $1 || '/'`, [ready.port]);
    }

    const env: NodeJS.ProcessEnv = {
      ...benchEnv(),
      DATABASE_URL: url,
      DATA_DIR: path.join(work, 'data'),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      SEED_FILE: '',
      SCAN_CONCURRENCY: String(o.concurrency),
      RESCAN_INTERVAL: `${intervalSeconds}s`,
      SCAN_ALLOW_PRIVATE_NETWORKS: 'true',
      SCAN_EXTRA_CA_FILE: ca.caFile,
    };
    const resolveArgs = sites.flatMap((s) => ['--resolve', `${s.host}=${s.address}`]);
    const logFile = path.join(work, 'workers.log');

    const phase = async (name: string): Promise<PhaseFigures> => {
      const idle = new Map(workers.map((w) => [w.pid, rssMb(w.pid)]));
      await sleep(o.warmupSeconds * 1000);
      const samples = new Map<number, { rss: number[]; inFlight: number[]; poolWaiting: number[] }>(workers.map((w) => [w.pid, { rss: [], inFlight: [], poolWaiting: [] }]));
      const waiting: number[] = [];
      const t0 = new Date();
      const cpu0 = new Map(workers.map((w) => [w.pid, cpuSeconds(w.pid)]));
      const simCpu0 = cpuSeconds(sim.pid!);
      const ended0 = new Map(await Promise.all(workers.map(async (w) => [w.pid, await scrapeEnded(w.metricsPort)] as const)));
      const c0 = await counters();
      const started = performance.now();
      while (performance.now() - started < o.seconds * 1000) {
        const { rows } = await db!.executeSql(
          `SELECT split_part(locked_by, ':', 2) AS pid, count(*)::int AS n FROM jobs WHERE state = 'active' AND kind = 'scan' GROUP BY 1`,
        );
        const active = new Map(rows.map((r: { pid: string; n: number }) => [Number(r.pid), Number(r.n)]));
        for (const w of workers) {
          samples.get(w.pid)!.rss.push(rssMb(w.pid));
          samples.get(w.pid)!.inFlight.push(active.get(w.pid) ?? 0);
          samples.get(w.pid)!.poolWaiting.push(await scrapePoolWaiting(w.metricsPort).catch(() => 0));
        }
        const [{ n }] = (await db!.executeSql(`SELECT count(*)::int AS n FROM scans WHERE state = 'waiting'`)).rows;
        waiting.push(Number(n));
        await sleep(1000);
      }
      const elapsed = (performance.now() - started) / 1000;
      const t1 = new Date();
      const c1 = await counters();
      const simCpu = cpuSeconds(sim.pid!) - simCpu0;
      const endings = (await db!.executeSql(
        `SELECT ending, count(*)::int AS n FROM scans WHERE ended_at > $1 AND ended_at <= $2 GROUP BY ending`, [t0, t1],
      )).rows as Array<{ ending: string; n: number }>;
      const causes = (await db!.executeSql(
        `SELECT left(regexp_replace(coalesce(cause, '-'), 'site-[0-9]+', 'site-N', 'g'), 70) AS cause, count(*)::int AS n
         FROM scans WHERE ended_at > $1 AND ended_at <= $2 AND ending <> 'finished' GROUP BY 1 ORDER BY 2 DESC LIMIT 6`, [t0, t1],
      )).rows as Array<{ cause: string; n: number }>;
      const [{ released }] = (await db!.executeSql(
        `SELECT count(*)::int AS released FROM scans WHERE origin = 'rescan' AND created_at > $1 AND created_at <= $2`, [t0, t1],
      )).rows;
      // Latency-bound or CPU-bound: a scan's wall time from start to end, against the CPU it used.
      const [durations] = (await db!.executeSql(
        `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM ended_at - started_at)) AS p50,
                percentile_cont(0.9) WITHIN GROUP (ORDER BY extract(epoch FROM ended_at - started_at)) AS p90
         FROM scans WHERE ended_at > $1 AND ended_at <= $2 AND started_at IS NOT NULL`, [t0, t1],
      )).rows;
      const ended = endings.reduce((n, e) => n + Number(e.n), 0);
      const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
      const figures: WorkerFigures[] = [];
      for (const w of workers) {
        const s = samples.get(w.pid)!;
        const endedByWorker = (await scrapeEnded(w.metricsPort)) - ended0.get(w.pid)!;
        const cpu = cpuSeconds(w.pid) - cpu0.get(w.pid)!;
        const rssMean = mean(s.rss);
        const inFlight = mean(s.inFlight);
        figures.push({
          pid: w.pid,
          ended: endedByWorker,
          scansPerSecond: endedByWorker / elapsed,
          cpuSeconds: cpu,
          cores: cpu / elapsed,
          rssIdleMb: idle.get(w.pid) ?? 0,
          rssMeanMb: rssMean,
          rssMaxMb: Math.max(...s.rss),
          inFlightMean: inFlight,
          poolWaitingMean: mean(s.poolWaiting),
          rssPerScanMb: inFlight > 0 ? (rssMean - (idle.get(w.pid) ?? 0)) / inFlight : null,
        });
      }
      return {
        name, seconds: elapsed, ended, scansPerSecond: ended / elapsed,
        endings: Object.fromEntries(endings.map((e) => [e.ending, Number(e.n)])),
        causes: causes.map((c) => [c.cause, Number(c.n)]),
        durationP50: Number(durations?.p50 ?? 0), durationP90: Number(durations?.p90 ?? 0),
        released: Number(released), releasedPerSecond: Number(released) / elapsed, waitingMean: mean(waiting),
        workers: figures,
        requestsPerSecond: (c1.requests - c0.requests) / elapsed,
        handshakesPerSecond: (c1.handshakes - c0.handshakes) / elapsed,
        mbPerSecond: (c1.bytes - c0.bytes) / elapsed / 1024 / 1024,
        simulatorCores: simCpu / elapsed,
        load: loadLine(),
      };
    };

    const phases: PhaseFigures[] = [];
    workers.push(await WorkerProcess.start(env, resolveArgs, logFile));
    phases.push(await phase('one worker process'));
    workers.push(await WorkerProcess.start(env, resolveArgs, logFile));
    phases.push(await phase('two worker processes'));

    // Shared work, nothing done twice: the interval outlasts the run, so a domain with two scans was scanned twice.
    const [{ twice }] = (await db.executeSql(`SELECT count(*)::int AS twice FROM (SELECT domain FROM scans GROUP BY domain HAVING count(*) > 1) d`)).rows;
    const [{ retried }] = (await db.executeSql(`SELECT count(*)::int AS retried FROM jobs WHERE kind = 'scan' AND attempts > 1`)).rows;
    const byMessage = new Map<string, number>();
    for (const line of fs.readFileSync(logFile, 'utf8').split('\n')) {
      const msg = /"msg":"([^"]*)"/.exec(line)?.[1];
      if (msg) byMessage.set(msg, (byMessage.get(msg) ?? 0) + 1);
    }
    return {
      workerLog: [...byMessage].sort((a, b) => b[1] - a[1]).slice(0, 6),
      options: o, intervalSeconds, port: ready.port, addresses: ready.addresses, mix: mixOf(sites), phases,
      scannedTwice: Number(twice), jobsRetried: Number(retried), workerErrorLines: workers.reduce((n, w) => n + w.errorLines, 0),
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop().catch(() => undefined)));
    internet?.disconnect();
    if (db) {
      await db.executeSql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await db.close();
    }
    // The workers' log (warnings and errors) outlives the run: the report names it.
    const log = path.join(work, 'workers.log');
    if (fs.existsSync(log)) fs.copyFileSync(log, path.join(os.tmpdir(), `arl-census-bench-workers-${process.pid}.log`));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const NEEDED_SIZES = [10_000, 100_000, 1_000_000];
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

export function printCensusBench(r: CensusBenchResult): void {
  const o = r.options;
  const m = r.mix;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  console.log(`simulated internet: ${o.sites.toLocaleString('en')} sites on ${r.addresses} loopback addresses (port ${r.port}, TLS with the bench authority), seed ${o.seed}`);
  console.log(`  mix: robots.txt ${pct(m.robots)}, AI crawlers blocked ${pct(m.aiBlocked)}, Content Signals ${pct(m.contentSignals)}, llms.txt ${pct(m.llmsTxt)}, markdown ${pct(m.markdown)}, dead ${pct(m.dead)}, WAF ${pct(m.waf)}, dripping ${pct(m.drip)}`);
  console.log(`  home page HTML median ${f1(m.htmlMedianBytes / 1024)} KB, p90 ${f1(m.htmlP90Bytes / 1024)} KB, over 1 MB ${pct(m.overOneMb)}; round trip median ${m.rttMedianMs} ms (20-300)`);
  console.log(`  SCAN_CONCURRENCY=${o.concurrency} per process, RESCAN_INTERVAL=${r.intervalSeconds}s (asks ${f1(o.sites / r.intervalSeconds)} rescans/s), SCAN_IP_GAP ${process.env.SCAN_IP_GAP ?? '2s'}, warm-up ${o.warmupSeconds} s, window ${o.seconds} s`);
  for (const p of r.phases) {
    console.log(`\n${p.name} (${p.load}):`);
    console.log(`  scans ended ${p.ended} in ${f1(p.seconds)} s = ${f2(p.scansPerSecond)} scans/s; endings ${JSON.stringify(p.endings)}`);
    for (const [cause, n] of p.causes) console.log(`    ${n} x ${cause}`);
    console.log(`  a scan's wall time from start to end: p50 ${f1(p.durationP50)} s, p90 ${f1(p.durationP90)} s`);
    console.log(`  scheduler released ${f2(p.releasedPerSecond)} rescans/s (asked ${f1(o.sites / r.intervalSeconds)}), ${f1(p.waitingMean)} scans waiting on average`);
    console.log(`  at the simulated servers: ${f1(p.requestsPerSecond)} requests/s, ${f1(p.handshakesPerSecond)} TLS handshakes/s, ${f2(p.mbPerSecond)} MB/s; the simulator itself used ${f2(p.simulatorCores)} cores`);
    for (const w of p.workers) {
      const perCpu = w.cpuSeconds > 0 ? w.ended / w.cpuSeconds : 0;
      console.log(`  worker pid ${w.pid}: ${f2(w.scansPerSecond)} scans/s, ${f2(w.cores)} cores busy, ${f1(perCpu)} scans per CPU-second (${(w.ended > 0 ? (w.cpuSeconds / w.ended) : 0).toFixed(3)} CPU-s per scan); ` +
        `RSS ${f1(w.rssIdleMb)} MB idle, ${f1(w.rssMeanMb)} mean, ${f1(w.rssMaxMb)} max; ${f1(w.inFlightMean)} scans in flight, ${w.rssPerScanMb === null ? 'n/a' : f2(w.rssPerScanMb)} MB per in-flight scan; ${f1(w.poolWaitingMean)} queries waiting for a pool connection`);
    }
  }
  const two = r.phases[r.phases.length - 1];
  const both = two.workers.every((w) => w.ended > 0);
  console.log(`\nshared work: both processes ended scans (${two.workers.map((w) => w.ended).join(' + ')}): ${met(both)}; domains scanned twice ${r.scannedTwice}, scan jobs retried ${r.jobsRetried}: ${met(r.scannedTwice === 0)}; worker error lines ${r.workerErrorLines} (log: ${path.join(os.tmpdir(), `arl-census-bench-workers-${process.pid}.log`)})`);

  if (r.workerLog.length > 0) console.log(`  workers' warnings and errors: ${r.workerLog.map(([m, n]) => `${n} x ${m}`).join('; ')}`);

  // The machine: two worker processes on these 2 cores, as measured (the simulator, PostgreSQL and the rest of the
  // machine's load took their share), and the CPU ceiling of a dedicated machine (2 cores / CPU-s per scan).
  const machineRate = two.scansPerSecond;
  const cpuPerScan = two.workers.reduce((n, w) => n + w.cpuSeconds, 0) / Math.max(1, two.workers.reduce((n, w) => n + w.ended, 0));
  const cpuCeiling = 2 / cpuPerScan;
  const maxRss = Math.max(...r.phases.flatMap((p) => p.workers.map((w) => w.rssMaxMb)));
  console.log(`\ncensus rates (needed = companies / RESCAN_INTERVAL; the scheduler's release is paced at that rate and capped by 2 x SCAN_CONCURRENCY waiting per 5 s tick):`);
  console.log(`  | companies | needed weekly | needed daily | one 2-core machine as measured (${f1(machineRate)}/s) | machines for daily |`);
  for (const n of NEEDED_SIZES) {
    const weekly = n / (7 * 86_400);
    const daily = n / 86_400;
    console.log(`  | ${n.toLocaleString('en')} | ${weekly.toFixed(3)}/s ${met(machineRate >= weekly)} | ${f2(daily)}/s ${met(machineRate >= daily)} | ${met(machineRate >= daily)} daily | ${Math.max(1, Math.ceil(daily / machineRate))} |`);
  }
  console.log(`  CPU ceiling of a dedicated 2-core worker machine: 2 / ${cpuPerScan.toFixed(3)} CPU-s per scan = ${f1(cpuCeiling)} scans/s (latency and memory permitting)`);
  console.log(`  a daily census of 1,000,000 sites (11.6 scans/s) needs ${Math.ceil((1_000_000 / 86_400) / machineRate)} two-core worker machine(s) at the measured ${f1(machineRate)} scans/s (${Math.ceil((1_000_000 / 86_400) / cpuCeiling)} at the CPU ceiling)`);
  console.log(`target: one 2-core worker machine >= 12 scans/s with <= 1 GB RSS per worker process: ${f1(machineRate)} scans/s, max RSS ${f1(maxRss)} MB: ${met(machineRate >= 12 && maxRss <= 1024)}`);
}

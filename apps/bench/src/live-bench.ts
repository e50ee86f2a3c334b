// Reads while scans end: the `mixed` part (one process reads and ends scans) and the `two-process` part (scans end in
// one API process, reads and the freshness prober on another, over one PostgreSQL). Processes:
//   - the bench (this process) runs the load generator (autocannon) and nothing else during a load;
//   - each target (live-target.ts) serves the real leaderboard host and, when it is the writer, ends scans through
//     the real end-of-scan path in its own event loop (as a worker inside the API process does);
//   - the prober (prober.ts) hears each commit by UDP and polls the reading target until a read shows it.
// Every row is printed beside the same run's no-write row (rate 0) and the raw node:http server's req/s.
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { BENCH_POSTGRES_URL, benchEnv, type Database, DATABASE_LABEL, loadLine, met } from './common';
import { cpuShare, liveVerdict, percentile, summarizeLag, type LagSummary } from './live-figures';
import type { LiveTargetInfo, LiveTargetOptions } from './live-target';
import { PATIENCE_MS } from './probe';
import { loadPaths, type LoadResult, type TargetStats } from './read-bench';
import type { WriteFigures } from './scan-ender';
import type { Workload } from './workloads';

export interface LiveStats extends TargetStats {
  peakRssMb: number;
  cpu: { user: number; system: number };
}

/** One target process (live-target.ts); requests over IPC are answered one at a time, in order. */
export class LiveTarget {
  private queue: Array<(m: unknown) => void> = [];

  private constructor(
    private readonly child: ChildProcess,
    readonly info: LiveTargetInfo,
    readonly workloads: Record<string, Workload>,
  ) {
    child.on('message', (m) => this.queue.shift()?.(m));
  }

  /** `timeoutMs`: the child is killed, and the start fails, when it has not answered by then (seeding included). */
  static async start(options: LiveTargetOptions, timeoutMs = 0): Promise<LiveTarget> {
    const child = fork(path.join(__dirname, 'live-target.js'), [JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: benchEnv(),
      // Room for a million companies (Node's default old space is ~2 GB on this machine's 23 GB).
      execArgv: ['--expose-gc', '--max-old-space-size=6144'],
    });
    let timer: NodeJS.Timeout | undefined;
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code, signal) => reject(new Error(`live target (${options.db}, ${options.companies}) exited with ${code ?? signal}`)));
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`live target (${options.db}, ${options.companies}) was not ready after ${Math.round(timeoutMs / 1000)} s`));
        }, timeoutMs);
      }
    }).finally(() => clearTimeout(timer));
    const info = JSON.parse(line) as LiveTargetInfo;
    if (!options.serve) {
      await new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
      return new LiveTarget(child, info, {});
    }
    return new LiveTarget(child, info, JSON.parse(fs.readFileSync(info.workFile, 'utf8')));
  }

  request<T>(msg: object): Promise<T> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`live target exited (${code}) during ${JSON.stringify(msg)}`));
      this.child.once('exit', onExit);
      this.queue.push((m) => {
        this.child.off('exit', onExit);
        resolve(m as T);
      });
      this.child.send(msg);
    });
  }

  stats(): Promise<LiveStats> {
    return this.request<LiveStats>({ cmd: 'stats' });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** The freshness prober (prober.ts), its own process. */
export class Prober {
  private constructor(private readonly child: ChildProcess, readonly port: number) {}

  static async start(): Promise<Prober> {
    const child = fork(path.join(__dirname, 'prober.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
    return new Prober(child, port);
  }

  private ask<T>(msg: object): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (m) => resolve(m as T));
      this.child.send(msg);
    });
  }

  target(url: string): Promise<void> {
    return this.ask({ cmd: 'target', url });
  }

  async collect(): Promise<LagSummary> {
    const { lags, unseen } = await this.ask<{ lags: number[]; unseen: number }>({ cmd: 'collect' });
    return summarizeLag(lags, unseen, PATIENCE_MS);
  }

  stop(): void {
    this.child.kill('SIGTERM');
  }
}

export interface LiveRow {
  part: 'mixed' | 'two-process';
  database: Database;
  companies: number;
  workload: string;
  /** Scans ending per second asked for, and achieved. */
  rate: number;
  achieved: number;
  app: LoadResult;
  rawRps: number;
  /** The same run's no-write req/s for this workload. */
  noWriteRps: number;
  /** CPU of the reading process (share of one core) and of the writing one when it is another process. */
  cpu: number;
  writerCpu: number | null;
  rssMb: number;
  peakRssMb: number;
  lag: LagSummary;
  endMs: { p50: number; p99: number };
  hits: number;
  requests: number;
  errorLines: number;
  writeErrors: number;
}

export const LIVE_WORKLOADS = ['hit', 'company', 'q'];
const LABEL: Record<string, string> = { hit: 'one URL', company: 'distinct companies', q: 'distinct q' };

/**
 * One workload at every rate: a warm-up, the raw server, then the app at each rate with the writer ending scans for
 * the whole load. `reader` serves the reads; `writer` ends the scans (the same process in `mixed`).
 */
async function measureRates(
  part: LiveRow['part'], db: Database, companies: number, reader: LiveTarget, writer: LiveTarget, prober: Prober,
  workload: string, rates: number[], seconds: number, connections: number, print: (row: LiveRow) => void,
): Promise<LiveRow[]> {
  const w = reader.workloads[workload];
  let next = 0;
  const warm = await loadPaths(reader.info.appUrl, w.app, 1, connections, next);
  next += warm.used;
  const raw = await loadPaths(reader.info.rawUrl, w.raw, seconds, connections);
  const rows: LiveRow[] = [];
  let noWriteRps = 0;
  for (const rate of rates) {
    await settle(reader.info.appUrl);
    const before = await reader.stats();
    const writerBefore = writer === reader ? null : await writer.stats();
    const started = performance.now();
    const [writes, app] = await Promise.all([
      writer.request<WriteFigures>({ cmd: 'writes', rate, ms: seconds * 1000, proberPort: prober.port }),
      loadPaths(reader.info.appUrl, w.app, seconds, connections, next),
    ]);
    const wallMs = performance.now() - started;
    next += app.used;
    const after = await reader.stats();
    const writerAfter = writer === reader ? null : await writer.stats();
    const lag = await prober.collect();
    if (rate === 0) noWriteRps = app.rps;
    const row: LiveRow = {
      part, database: db, companies, workload, rate,
      achieved: writes.ended / (seconds || 1),
      app, rawRps: raw.rps, noWriteRps: noWriteRps || app.rps,
      cpu: cpuShare(before.cpu, after.cpu, wallMs),
      writerCpu: writerBefore && writerAfter ? cpuShare(writerBefore.cpu, writerAfter.cpu, wallMs) : null,
      rssMb: after.rssMb, peakRssMb: after.peakRssMb, lag,
      endMs: { p50: percentile(writes.endMs, 50), p99: percentile(writes.endMs, 99) },
      hits: after.hits - before.hits, requests: app.used, errorLines: after.errorLines - before.errorLines,
      writeErrors: writes.errors,
    };
    if (writes.firstError) console.log(`  (writer: ${writes.errors} ends failed, first: ${writes.firstError})`);
    rows.push(row);
    print(row);
  }
  return rows;
}

/**
 * Waits until the reader answers a leaderboard read: rebuilds the previous load's changes started (today's code) are
 * done, so a row is not charged with its predecessor's backlog (a no-write row after 20 ends/s read 0 req/s).
 */
async function settle(base: string): Promise<void> {
  const res = await fetch(`${base}/v1/leaderboard?limit=1`, { signal: AbortSignal.timeout(300_000) });
  await res.arrayBuffer();
}

const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');

export function printLiveHeader(title: string, connections: number): void {
  console.log(`\n${title} (${connections} connections; ${loadLine()})`);
  console.log(
    'database          companies  reads               scans/s (done)  req/s   of 0-writes  p50/p99/max ms     CPU % (writer)  RSS/peak MB   fresh p50/p99/max ms (seen/unseen)  end ms p50/p99  raw req/s  app/raw  non-2xx  hits     target',
  );
}

export function printLiveRow(r: LiveRow): void {
  const v = r.rate === 0 ? null : liveVerdict(r.app, r.noWriteRps, r.lag);
  const errorsFree = r.errorLines === 0 && r.writeErrors === 0;
  const verdict = v === null ? '(no-write row)' : `${met(v.met && errorsFree)}${v.met ? '' : ` (${[!v.keeps && `${f(v.share * 100)}% < 80%`, !v.fast && 'p99/non-2xx', !v.fresh && 'freshness'].filter(Boolean).join(', ')})`}`;
  console.log(
    `${DATABASE_LABEL[r.database].padEnd(17)} ${String(r.companies).padStart(9)}  ${LABEL[r.workload].padEnd(19)} ${`${r.rate} (${f(r.achieved, 1)})`.padStart(14)} ${f(r.app.rps).padStart(7)} ${`${f((r.app.rps / r.noWriteRps) * 100)}%`.padStart(12)}  ${`${f(r.app.p50)}/${f(r.app.p99)}/${f(r.app.max)}`.padStart(16)}  ${`${f(r.cpu * 100)}${r.writerCpu === null ? '' : ` (${f(r.writerCpu * 100)})`}`.padStart(14)}  ${`${f(r.rssMb)}/${f(r.peakRssMb)}`.padStart(11)}  ${r.rate === 0 ? '-'.padStart(34) : `${f(r.lag.p50)}/${f(r.lag.p99)}/${f(r.lag.max)} (${r.lag.seen}/${r.lag.unseen})`.padStart(34)}  ${r.rate === 0 ? '-'.padStart(14) : `${f(r.endMs.p50, 1)}/${f(r.endMs.p99, 1)}`.padStart(14)} ${f(r.rawRps).padStart(10)} ${`${f((r.app.rps / r.rawRps) * 100)}%`.padStart(8)} ${String(r.app.non2xx).padStart(8)} ${`${r.hits}/${r.requests}`.padStart(8)}  ${verdict}`,
  );
  if (r.errorLines > 0) console.log(`  ${r.errorLines} error lines logged during the run (see stderr): NOT MET`);
}

export function targetOptions(db: Database, companies: number, dataDir: string, schema: string, o: Partial<LiveTargetOptions>): LiveTargetOptions {
  return { db, companies, databaseUrl: BENCH_POSTGRES_URL, schema, dataDir, seed: true, serve: true, dropOnExit: true, workloads: LIVE_WORKLOADS, ...o };
}

/** Scans the writer must have prepared for `rates` over every workload (plus slack for rounding). */
const scansNeeded = (rates: number[], seconds: number) => LIVE_WORKLOADS.length * rates.reduce((n, r) => n + Math.ceil(r * seconds) + 1, 0);

export async function runMixed(options: { databases: Database[]; sizes: number[]; rates: number[]; seconds: number; connections: number }): Promise<LiveRow[]> {
  const rows: LiveRow[] = [];
  const rates = [0, ...options.rates.filter((r) => r > 0)];
  printLiveHeader('Mixed: reads while scans end through the real end-of-scan path, in the reading process (printed as measured)', options.connections);
  for (const companies of options.sizes) {
    for (const db of options.databases) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-live-'));
      const prober = await Prober.start();
      let target: LiveTarget | null = null;
      try {
        target = await LiveTarget.start(targetOptions(db, companies, dataDir, `bench_live_${process.pid}_${companies}`, {}));
        await prober.target(target.info.appUrl);
        await target.request({ cmd: 'prepare', count: scansNeeded(rates, options.seconds) });
        for (const workload of LIVE_WORKLOADS) {
          rows.push(...(await measureRates('mixed', db, companies, target, target, prober, workload, rates, options.seconds, options.connections, printLiveRow)));
        }
      } catch (err) {
        console.log(`  ${DATABASE_LABEL[db]} at ${companies} companies stopped: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        await target?.stop();
        prober.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return rows;
}

/** Two API processes on one PostgreSQL: scans end on A (`rate`/s), reads and the prober on B. */
export async function runTwoProcess(options: { sizes: number[]; rate: number; seconds: number; connections: number }): Promise<LiveRow[]> {
  const rows: LiveRow[] = [];
  const rates = [0, options.rate];
  printLiveHeader(`Two API processes on one PostgreSQL: scans end on A at ${options.rate}/s, reads and the freshness prober on B (CPU: B (A))`, options.connections);
  for (const companies of options.sizes) {
    const dataDirs = [fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-two-a-')), fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-two-b-'))];
    const schema = `bench_two_${process.pid}_${companies}`;
    const prober = await Prober.start();
    let a: LiveTarget | null = null;
    let b: LiveTarget | null = null;
    try {
      a = await LiveTarget.start(targetOptions('postgres', companies, dataDirs[0], schema, { dropOnExit: false, workloads: [] }));
      b = await LiveTarget.start(targetOptions('postgres', companies, dataDirs[1], schema, { seed: false, dropOnExit: true }));
      await prober.target(b.info.appUrl);
      await a.request({ cmd: 'prepare', count: scansNeeded(rates, options.seconds) });
      for (const workload of LIVE_WORKLOADS) {
        rows.push(...(await measureRates('two-process', 'postgres', companies, b, a, prober, workload, rates, options.seconds, options.connections, printLiveRow)));
      }
    } catch (err) {
      console.log(`  two processes at ${companies} companies stopped: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      await a?.stop();
      await b?.stop();
      prober.stop();
      for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
    }
  }
  return rows;
}

/** The closing verdict lines: every row with scans ending, met or NOT MET. */
export function printLiveSummary(rows: LiveRow[]): void {
  const judged = rows.filter((r) => r.rate > 0);
  const missed = judged.filter((r) => !(liveVerdict(r.app, r.noWriteRps, r.lag).met && r.errorLines === 0 && r.writeErrors === 0));
  console.log(
    `targets while scans end (reads >= 80 % of the same run's no-write req/s, p99 < 50 ms, freshness p99 < 1 s): ${judged.length - missed.length}/${judged.length} rows met` +
      (missed.length ? `; NOT MET: ${missed.map((r) => `${r.database} ${r.companies} ${r.workload} @${r.rate}/s`).join(', ')}` : ''),
  );
}

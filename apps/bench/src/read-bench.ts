// Read benchmarks: leaderboard misses (every request a distinct `q`; a distinct cursor page of one of 16 walks),
// company reads (every request a distinct company, each with a realistic scan), and the growth table (1,000 /
// 10,000 / 100,000 companies). Each app figure is printed beside a raw node:http server answering the same bytes for
// the same kind of paths in the same run. The target runs in a child process (read-target.ts).
import { fork, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import autocannon from 'autocannon';
import type { ReadTargetInfo, Workload } from './read-target';
import type { GcFigures } from './target-process';
import { BENCH_POSTGRES_URL, benchEnv, type Database, DATABASE_LABEL, met } from './common';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
}

export async function loadPaths(base: string, paths: string[], seconds: number, connections: number, start = 0): Promise<LoadResult & { used: number }> {
  let i = start;
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length] }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max, non2xx: result.non2xx + result.errors, used: i - start };
}

export class ReadTarget {
  private constructor(
    private readonly child: ChildProcess,
    readonly info: ReadTargetInfo,
    readonly workloads: Record<string, Workload>,
  ) {}

  static async start(db: Database, companies: number): Promise<ReadTarget> {
    const child = fork(path.join(__dirname, 'read-target.js'), [db, String(companies), BENCH_POSTGRES_URL], {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      env: benchEnv(),
      execArgv: ['--expose-gc'],
    });
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`read bench target (${db}, ${companies}) exited with ${code}`)));
    });
    const info = JSON.parse(line) as ReadTargetInfo;
    return new ReadTarget(child, info, JSON.parse(fs.readFileSync(info.workFile, 'utf8')));
  }

  request<T>(cmd: string): Promise<T> {
    return new Promise((resolve) => {
      this.child.once('message', (m) => resolve(m as T));
      this.child.send({ cmd });
    });
  }

  stats() {
    return this.request<TargetStats>('stats');
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}


const gcTotal = (s: TargetStats) => s.gc.major.totalMs + s.gc.minor.totalMs;

export interface TargetStats {
  rssMb: number;
  heapMb: number;
  hits: number;
  stored: number;
  errorLines: number;
  gc: { major: GcFigures; minor: GcFigures };
}

export interface ReadRow {
  database: Database;
  workload: string;
  app: LoadResult;
  raw: LoadResult;
  /** Requests the response cache answered during the app run (0 for a miss workload). */
  hits: number;
  /** Share of the app run's wall time the target spent in garbage-collection pauses. */
  gcShare: number;
  requests: number;
  /** Lines the app logged at error level during the app run (a response that breaks the contract is one). */
  errorLines: number;
  /** The app's major garbage collections during the app run: how many, and the longest pause. */
  majorGc: { count: number; maxMs: number };
}

export const WORKLOAD_LABEL: Record<string, string> = {
  q: 'leaderboard, distinct q',
  cursor: 'leaderboard, distinct cursor',
  company: 'company read, distinct company',
  hit: 'leaderboard, one URL (hits)',
};

/** What measureWorkload needs of a target process (ReadTarget, LiveTarget). */
export interface LoadTarget {
  info: { appUrl: string; rawUrl: string };
  workloads: Record<string, Workload>;
  stats(): Promise<TargetStats>;
}

/** Loads one workload: warm-up on the app, raw, then app; paths the app sees are never repeated within the run. */
export async function measureWorkload(target: LoadTarget, db: Database, name: string, seconds: number, connections: number, cursor: { next: number }): Promise<ReadRow> {
  const w = target.workloads[name];
  const warm = await loadPaths(target.info.appUrl, w.app, 1, connections, cursor.next);
  cursor.next += warm.used;
  const raw = await loadPaths(target.info.rawUrl, w.raw, seconds, connections);
  const before = await target.stats();
  const appStarted = performance.now();
  const app = await loadPaths(target.info.appUrl, w.app, seconds, connections, cursor.next);
  const appMs = performance.now() - appStarted;
  cursor.next += app.used;
  const after = await target.stats();
  if (name !== 'hit' && cursor.next > w.app.length) console.warn(`  (${name}: ${cursor.next} requests over ${w.app.length} distinct paths; some repeated)`);
  return { database: db, workload: name, app, raw, hits: after.hits - before.hits, gcShare: (gcTotal(after) - gcTotal(before)) / appMs, requests: app.used, errorLines: after.errorLines - before.errorLines,
    majorGc: { count: after.gc.major.count - before.gc.major.count, maxMs: after.gc.major.maxMs } };
}

export async function runReadBench(options: { databases: Database[]; companies: number; seconds: number; connections: number; workloads?: string[] }): Promise<ReadRow[]> {
  const rows: ReadRow[] = [];
  for (const db of options.databases) {
    const target = await ReadTarget.start(db, options.companies);
    try {
      for (const name of options.workloads ?? ['q', 'cursor', 'company']) {
        rows.push(await measureWorkload(target, db, name, options.seconds, options.connections, { next: 0 }));
      }
    } finally {
      await target.stop();
    }
  }
  return rows;
}

/** Issue 22: a miss (distinct q, cursor or company) answers at least 35 % of the raw node:http server's req/s. */
export const STATIC_MISS_SHARE = 0.35;

export function printReadRows(title: string, rows: ReadRow[], connections: number): void {
  const f = (n: number, d = 0) => n.toFixed(d);
  console.log(`\n${title}`);
  console.log('database          workload                        app req/s  raw req/s  ratio  app p50/p99/max ms   raw p99  non-2xx  cache hits  target (>=35% of raw, p99<50ms)');
  for (const r of rows) {
    const ratio = r.app.rps / r.raw.rps;
    const ok = r.workload === 'hit' ? null : ratio >= STATIC_MISS_SHARE && r.app.p99 < 50 && r.app.non2xx === 0 && r.errorLines === 0;
    console.log(
      `${DATABASE_LABEL[r.database].padEnd(17)} ${WORKLOAD_LABEL[r.workload].padEnd(31)} ${f(r.app.rps).padStart(9)} ${f(r.raw.rps).padStart(10)} ${`${f(ratio * 100)}%`.padStart(6)}  ${`${f(r.app.p50)}/${f(r.app.p99)}/${f(r.app.max)}`.padStart(17)} ${f(r.raw.p99).padStart(9)} ${String(r.app.non2xx).padStart(8)} ${`${r.hits}/${r.requests}`.padStart(11)}  ${ok === null ? '-' : met(ok)}`,
    );
  }
  console.log(`major GC during each app run (count, longest pause of the target so far): ${rows.map((r) => `${r.workload} ${r.majorGc.count} / ${r.majorGc.maxMs.toFixed(0)} ms`).join('; ')}`);
  const logged = rows.filter((r) => r.errorLines > 0);
  for (const r of logged) console.log(`  ${DATABASE_LABEL[r.database]} ${WORKLOAD_LABEL[r.workload]}: ${r.errorLines} error lines logged during the run (see stderr): NOT MET`);
  console.log(`(${connections} connections; 'cache hits' = requests the response cache answered during the app run, out of all; error lines logged: ${rows.reduce((n, r) => n + r.errorLines, 0)})`);
}

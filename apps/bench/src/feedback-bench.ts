// Feedback part of `npm run bench`: POST reports against the real feedback app (validation, project rules, content
// hash, atomic insert) on PGlite and PostgreSQL, every body new (201).
// 1. open loop: a fixed offered rate (1,000 reports/s for 30 s). Requests leave on schedule whatever the answers do,
//    and latency is measured from the scheduled send time, so a stall shows as latency instead of silently lowering
//    the rate (no coordinated omission). Target: p99 under 50 ms with zero errors.
// 2. saturation: 64 connections, closed loop (autocannon), to show the ceiling.
// The target runs in a child process so the load generator does not share its event loop.
import { spawn } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import * as readline from 'node:readline';
import autocannon from 'autocannon';
import { BENCH_POSTGRES_URL, benchEnv, DATABASE_LABEL, met, type Database } from './common';

export interface OpenLoopResult {
  offeredRate: number;
  seconds: number;
  sent: number;
  achievedRate: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export interface FeedbackBenchRow {
  database: Database;
  open: OpenLoopResult;
  saturation: { rps: number; p50: number; p99: number; non2xx: number };
}

let counter = 0;
const reportBody = (run: string) =>
  JSON.stringify({
    observation: `Benchmark report ${++counter} (${process.pid}): the search endpoint ignored the category filter.`,
    outcome: 'friction',
    category: 'error',
    surface: 'api',
    agent: 'BenchAgent/1.0',
    metadata: { run, n: counter },
  });

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);

/** Sends `rate` requests per second for `seconds` seconds on a schedule, over keep-alive sockets. */
export async function openLoop(url: string, rate: number, seconds: number, run: string): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const target = new URL('/v1/feedback/bench/reports', url);
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const inflight: Array<Promise<void>> = [];
  const start = performance.now();
  const fire = (scheduled: number) =>
    new Promise<void>((resolve) => {
      const body = reportBody(run);
      const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 201) errors++;
          latencies.push(performance.now() - scheduled);
          resolve();
        });
      });
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        latencies.push(performance.now() - scheduled);
        resolve();
      });
      req.end(body);
    });
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
      while (sent < due) {
        inflight.push(fire(start + (sent / rate) * 1000));
        sent++;
      }
      if (sent >= total) done();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const elapsed = (performance.now() - start) / 1000;
  await Promise.all(inflight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    offeredRate: rate,
    seconds,
    sent,
    achievedRate: sent / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
    errors,
  };
}

async function saturate(url: string, seconds: number, connections: number, run: string) {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [{ method: 'POST', path: '/v1/feedback/bench/reports', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: reportBody(run) }) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

export async function runFeedbackBench(options: { databases: Database[]; seconds: number; openSeconds?: number; rate?: number; connections?: number }): Promise<FeedbackBenchRow[]> {
  const rows: FeedbackBenchRow[] = [];
  for (const db of options.databases) {
    const child = spawn(process.execPath, [path.join(__dirname, 'feedback-bench-target.js'), db, BENCH_POSTGRES_URL], { stdio: ['ignore', 'pipe', 'inherit'], env: benchEnv() });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        readline.createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`feedback bench target (${db}) exited with ${code}`)));
      });
      const { url } = JSON.parse(line) as { url: string };
      await openLoop(url, 200, 2, db); // warm-up: JIT, connections, the project cache
      const open = await openLoop(url, options.rate ?? 1000, options.openSeconds ?? 30, db);
      const saturation = await saturate(url, options.seconds, options.connections ?? 64, db);
      rows.push({ database: db, open, saturation });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }
  return rows;
}

export function printFeedbackBench(rows: FeedbackBenchRow[]): void {
  const f = (n: number, d = 0) => n.toFixed(d);
  console.log('\nFeedback reports: POST /v1/feedback/{slug}/reports, every body new (201)');
  console.log('database          offered/s x s  sent   achieved/s  p50 ms  p99 ms  max ms  errors  target (p99<50ms, 0 errors)   saturation (64 conns): reports/s p50/p99 ms non-2xx');
  for (const r of rows) {
    const o = r.open;
    const ok = o.p99 < 50 && o.errors === 0 && o.achievedRate >= o.offeredRate * 0.98;
    console.log(
      `${DATABASE_LABEL[r.database].padEnd(17)} ${`${o.offeredRate} x ${o.seconds}`.padStart(13)} ${String(o.sent).padStart(6)} ${f(o.achievedRate).padStart(11)} ${f(o.p50, 1).padStart(7)} ${f(o.p99, 1).padStart(7)} ${f(o.max).padStart(7)} ${String(o.errors).padStart(7)}  ${met(ok).padEnd(28)} ${f(r.saturation.rps).padStart(9)} ${`${f(r.saturation.p50)}/${f(r.saturation.p99)}`.padStart(9)} ${r.saturation.non2xx}`,
    );
  }
  console.log('(latency of the open loop is measured from each request\'s scheduled send time)');
}

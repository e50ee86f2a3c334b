// Feedback part of `npm run bench`: POST reports at 64 connections against the real feedback app (validation,
// project rules, content hash, atomic insert) on the embedded default and on PostgreSQL. Every request carries a
// different observation, so each one is a new report (201), not a repeat. The target runs in a child process so
// the load generator does not share its event loop.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import autocannon from 'autocannon';

export interface FeedbackBenchRow {
  database: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
}

/** Where the PostgreSQL run goes; a fresh schema is created in it and dropped afterwards. */
export const BENCH_POSTGRES_URL = 'postgresql://postgres@127.0.0.1:5432/test';

export async function runFeedbackBench(options: { seconds?: number; connections?: number; postgres?: boolean } = {}): Promise<FeedbackBenchRow[]> {
  const rows = [await runOne('pglite', options)];
  if (options.postgres !== false) rows.push(await runOne('postgres', options));
  return rows;
}

async function runOne(mode: 'pglite' | 'postgres', options: { seconds?: number; connections?: number }): Promise<FeedbackBenchRow> {
  const seconds = options.seconds ?? 5;
  const connections = options.connections ?? 64;
  const child = spawn(process.execPath, [path.join(__dirname, 'feedback-bench-target.js'), mode, BENCH_POSTGRES_URL], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production', VALIDATE_RESPONSES: process.env.VALIDATE_RESPONSES ?? 'log', CURSOR_SECRET: 'bench-cursor-secret-0123456789', FEEDBACK_INVITE_SECRET: 'bench-invite-secret-0123456789' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`feedback bench target (${mode}) exited with ${code}`)));
    });
    const { url } = JSON.parse(line) as { url: string };
    let counter = 0;
    const load = (duration: number) =>
      autocannon({
        url,
        connections,
        duration,
        pipelining: 1,
        requests: [
          {
            method: 'POST',
            path: '/v1/feedback/bench/reports',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({
              ...req,
              body: JSON.stringify({
                observation: `Benchmark report ${++counter}: the search endpoint ignored the category filter.`,
                outcome: 'friction',
                category: 'error',
                surface: 'api',
                agent: 'BenchAgent/1.0',
                metadata: { run: mode, n: counter },
              }),
            }),
          },
        ],
      });
    await load(1); // warm-up
    const result = await load(seconds);
    return {
      database: mode === 'pglite' ? 'embedded (PGlite)' : 'PostgreSQL 15',
      rps: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx + result.errors,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export function printFeedbackBench(rows: FeedbackBenchRow[]): void {
  const fmt = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log('\nFeedback reports: POST /v1/feedback/{slug}/reports, 64 connections, every body new (201)');
  console.log('database              reports/s   p50 ms   p99 ms   requests   non-2xx');
  for (const r of rows) {
    console.log(`${r.database.padEnd(20)} ${fmt(r.rps)} ${fmt(r.p50Ms, 1)} ${fmt(r.p99Ms, 1)} ${fmt(r.requests)}  ${fmt(r.non2xx)}`);
  }
  console.log('target on PostgreSQL: 1,000 reports/s with p99 under 50 ms');
}

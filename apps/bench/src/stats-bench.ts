// Open data (issue 31), `npm run bench -- stats`: the population statistics (GET /v1/leaderboard/stats, four
// variants: each population, with and without a category) at 64 connections while scans end at 0, 5 and 20 per
// second through the real end-of-scan path in the serving process (live-target.ts, as `mixed` does), so every read
// after an end recomputes the answer from the moved counts; then the dataset streamed as CSV and JSON Lines by one
// client, counted as it arrives (rows/s), with the serving process's resident memory before and at its peak.
// Targets: stats p99 < 50 ms while scans end; 1,000,000 rows in under 60 s (16,667 rows/s; judged as a rate at any size,
// and as a whole at 1,000,000).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDb } from '@arl/db';
import { BENCH_POSTGRES_URL, type Database, DATABASE_LABEL, loadLine, met } from './common';
import { LiveTarget, targetOptions } from './live-bench';
import { loadPaths, type LoadResult } from './read-bench';
import type { WriteFigures } from './scan-ender';

const P99_TARGET_MS = 50;
const MILLION_SECONDS = 60;
const ROWS_PER_SECOND_TARGET = 1_000_000 / MILLION_SECONDS;

export interface StatsRow {
  database: Database;
  companies: number;
  rate: number;
  achieved: number;
  app: LoadResult;
  errorLines: number;
  writeErrors: number;
}

export interface DatasetRow {
  database: Database;
  companies: number;
  format: 'csv' | 'jsonl';
  rows: number;
  seconds: number;
  bytes: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

export interface StatsBenchResult {
  stats: StatsRow[];
  dataset: DatasetRow[];
  /** The first stats read after start-up (the weekly series computed from the database), per database and size. */
  first: Array<{ database: Database; companies: number; ms: number }>;
}

export async function runStatsBench(options: { databases: Database[]; sizes: number[]; rates: number[]; seconds: number; connections: number; keepSchema?: string | null }): Promise<StatsBenchResult> {
  const result: StatsBenchResult = { stats: [], dataset: [], first: [] };
  console.log(`\nOpen data: population statistics while scans end, and the dataset streamed (${options.connections} connections; ${loadLine()})`);
  for (const db of options.databases) {
    for (const companies of options.sizes) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-stats-'));
      // --keep-schema (PostgreSQL): a million companies take ~15 minutes to seed; seeded once, kept, reused after.
      const kept = db === 'postgres' && options.keepSchema ? `${options.keepSchema}_${companies}` : null;
      const reuse = kept !== null && (await schemaExists(kept));
      const schema = kept ?? `bench_stats_${process.pid}_${companies}`;
      if (kept) console.log(`${DATABASE_LABEL[db]}, ${companies.toLocaleString('en')} companies: schema ${kept} ${reuse ? 'reused (seeded by an earlier run)' : 'seeded and kept'}`);
      const target = await LiveTarget.start(targetOptions(db, companies, dataDir, schema, { workloads: ['hit'], seed: !reuse, dropOnExit: kept === null }));
      try {
        const base = target.info.appUrl;
        const categories = (await (await fetch(`${base}/v1/leaderboard/categories`)).json()) as { items: Array<{ slug: string }> };
        const slug = categories.items[0]?.slug;
        const paths = [
          '/v1/leaderboard/stats',
          '/v1/leaderboard/stats?community=include',
          ...(slug ? [`/v1/leaderboard/stats?category=${slug}`, `/v1/leaderboard/stats?community=include&category=${slug}`] : []),
        ];
        const started = performance.now();
        const first = await fetch(`${base}${paths[1]}`);
        if (first.status !== 200) throw new Error(`stats answered ${first.status}`);
        const body = (await first.json()) as { rankedCompanies: number; countedCompanies: number };
        result.first.push({ database: db, companies, ms: performance.now() - started });
        console.log(`${DATABASE_LABEL[db]}, ${companies.toLocaleString('en')} companies: first stats read ${Math.round(performance.now() - started)} ms (weekly series from the database), ${body.countedCompanies} of ${body.rankedCompanies} counted`);
        for (const p of paths) await (await fetch(`${base}${p}`)).arrayBuffer();

        const needed = options.rates.reduce((n, r) => n + Math.ceil(r * options.seconds) + 1, 0);
        if (needed > 0) await target.request({ cmd: 'prepare', count: needed });
        for (const rate of options.rates) {
          const before = await target.stats();
          const [writes, app] = await Promise.all([
            target.request<WriteFigures>({ cmd: 'writes', rate, ms: options.seconds * 1000, proberPort: null }),
            loadPaths(base, paths, options.seconds, options.connections),
          ]);
          const after = await target.stats();
          const row: StatsRow = {
            database: db, companies, rate, achieved: writes.ended / options.seconds, app,
            errorLines: after.errorLines - before.errorLines, writeErrors: writes.errors,
          };
          result.stats.push(row);
          printStatsRow(row);
        }

        for (const format of ['csv', 'jsonl'] as const) {
          const before = await target.stats();
          const figures = await download(`${base}/v1/leaderboard/dataset.${format}?community=include`, format);
          const after = await target.stats();
          const row: DatasetRow = { database: db, companies, format, ...figures, rssBeforeMb: before.rssMb, peakRssMb: after.peakRssMb };
          result.dataset.push(row);
          printDatasetRow(row);
        }
      } finally {
        await target.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return result;
}

/** Whether a kept schema holds seeded companies. */
async function schemaExists(schema: string): Promise<boolean> {
  const db = await createDb({ databaseUrl: BENCH_POSTGRES_URL });
  try {
    const { rows } = await db.executeSql('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [schema, 'companies']);
    return rows.length > 0;
  } finally {
    await db.close();
  }
}

/** Reads a download to its end, counting rows (lines; CSV's header aside) as they arrive. */
async function download(url: string, format: 'csv' | 'jsonl'): Promise<{ rows: number; seconds: number; bytes: number }> {
  const started = performance.now();
  const res = await fetch(url);
  if (res.status !== 200 || !res.body) throw new Error(`${url} answered ${res.status}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
  }
  // CSV: a name may hold a line break (quoted), so lines can overcount by those; the bench's names have none.
  return { rows: format === 'csv' ? lines - 1 : lines, seconds: (performance.now() - started) / 1000, bytes };
}

const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');

function printStatsRow(r: StatsRow): void {
  const ok = r.app.p99 < P99_TARGET_MS && r.app.non2xx === 0 && r.errorLines === 0 && r.writeErrors === 0;
  console.log(
    `  stats, ${r.rate} scan ends/s (${f(r.achieved, 1)} done): ${f(r.app.rps)} req/s, p50/p99/max ${f(r.app.p50)}/${f(r.app.p99)}/${f(r.app.max)} ms, non-2xx ${r.app.non2xx}, error lines ${r.errorLines}; target p99 < ${P99_TARGET_MS} ms${r.rate > 0 ? ' while scans end' : ''}: ${met(ok)}`,
  );
}

function printDatasetRow(r: DatasetRow): void {
  const rate = r.rows / r.seconds;
  const whole = r.companies >= 1_000_000 ? `; 1,000,000 rows in ${f(r.seconds, 1)} s < ${MILLION_SECONDS} s: ${met(r.seconds < MILLION_SECONDS)}` : `; at this rate 1,000,000 rows would take ${f(1_000_000 / rate)} s`;
  console.log(
    `  dataset.${r.format}: ${r.rows.toLocaleString('en')} rows, ${f(r.bytes / 1048576, 1)} MB in ${f(r.seconds, 2)} s = ${f(rate)} rows/s (target >= ${f(ROWS_PER_SECOND_TARGET)}: ${met(rate >= ROWS_PER_SECOND_TARGET)})${whole}; server RSS ${f(r.rssBeforeMb)} MB before, peak ${f(r.peakRssMb)} MB`,
  );
}

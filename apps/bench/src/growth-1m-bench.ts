// growth-1m: the live read path as the population grows to 1,000,000 companies (issue 22), on PostgreSQL and on
// PGlite as far as it goes. Per size, on a fresh database: the disk it takes, seed time, start-up time of a server
// process on the seeded data (process start to its first leaderboard read answered: snapshot built, ready to serve),
// RSS, read throughput per workload beside the raw server, and the per-change cost (one scan end at a time through
// the real end-of-scan path, nothing else running: time from its commit until a read of that process shows it).
//
// Companies beyond the first 100,000 are seeded WITHOUT check_results / layer_scores rows (seed-realistic.ts,
// `checkRowsBelow`): no leaderboard read touches those tables (company reads answer from the scan's `detail` column,
// which every company has), and at 1,000,000 they would be 49 million rows, ~20 GB and ten more minutes of seeding.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Database, DATABASE_LABEL, loadLine, met } from './common';
import { GROWTH_TARGETS, percentile, perChangeTargetMs } from './live-figures';
import { LiveTarget, targetOptions } from './live-bench';
import { measureWorkload, type ReadRow } from './read-bench';

/** Companies that get check and layer rows (see above). */
export const CHECK_ROWS_BELOW = 100_000;
// Disk per 1,000 companies, measured from 1,000 to 10,000 companies (2026-11-26: PostgreSQL's relations 23 -> 225 MB,
// PGlite's files 77 -> 503 MB) and at 10,000 without check rows (49 and 151 MB). PGlite's files include its WAL.
const MB_PER_1K_WITH_CHECKS: Record<Database, number> = { postgres: 22.5, pglite: 47 };
const MB_PER_1K_WITHOUT_CHECKS: Record<Database, number> = { postgres: 4.9, pglite: 12 };

export interface Growth1mRow {
  database: Database;
  companies: number;
  databaseMb: number | null;
  seedSeconds: number;
  startupMs: number;
  rssMb: number;
  peakRssMb: number;
  changes: { n: number; applyP50: number; applyP99: number; txP50: number };
  reads: Record<string, ReadRow>;
}

const READS = ['q', 'hit', 'company'];
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');

export function estimateMb(db: Database, companies: number): number {
  const withChecks = Math.min(companies, CHECK_ROWS_BELOW);
  return (withChecks * MB_PER_1K_WITH_CHECKS[db] + (companies - withChecks) * MB_PER_1K_WITHOUT_CHECKS[db]) / 1000;
}

function freeMb(dir: string): number {
  const s = fs.statfsSync(dir);
  return (s.bavail * s.bsize) / 1048576;
}

export async function runGrowth1m(options: { databases: Database[]; sizes: number[]; seconds: number; connections: number; budgetSeconds: number; changes: number }): Promise<Growth1mRow[]> {
  const sizes = [...options.sizes].sort((a, b) => a - b);
  const order = [...options.databases].sort((a, b) => Number(a === 'pglite') - Number(b === 'pglite')); // PostgreSQL first
  console.log(`\nGrowth to ${sizes[sizes.length - 1].toLocaleString('en')} companies (check rows only for the first ${CHECK_ROWS_BELOW.toLocaleString('en')} companies; each size a fresh database)`);
  for (const db of order) {
    console.log(`  disk needed on ${DATABASE_LABEL[db]} (estimate, per size): ${sizes.map((n) => `${n.toLocaleString('en')}: ${f(estimateMb(db, n) / 1024, 1)} GB`).join(', ')}; free: ${f(freeMb(db === 'pglite' ? os.tmpdir() : '/var/lib/postgresql') / 1024, 1)} GB${db === 'postgres' ? ' (if the server\'s data is on this machine under /var/lib/postgresql)' : ` (${os.tmpdir()})`}`);
  }
  console.log('database          companies  disk MB  seed s  start-up s  RSS/peak MB  change ms p50/p99 (n; tx p50)   q-miss req/s (p99)  hit req/s (p99)  company req/s (p99)  raw q/hit/company');
  const rows: Growth1mRow[] = [];
  for (const db of order) {
    for (const companies of sizes) {
      const stopped = await step(db, companies, options).then(
        (row) => {
          rows.push(row);
          printRow(row);
          return null;
        },
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      if (stopped) {
        console.log(`  ${DATABASE_LABEL[db]} stops at ${companies.toLocaleString('en')} companies: ${stopped} (${loadLine()})`);
        break;
      }
    }
  }
  printVerdicts(rows);
  return rows;
}

async function step(db: Database, companies: number, options: { seconds: number; connections: number; budgetSeconds: number; changes: number }): Promise<Growth1mRow> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-1m-'));
  const schema = `bench_1m_${process.pid}_${companies}`;
  let server: LiveTarget | null = null;
  try {
    const seeder = await LiveTarget.start(targetOptions(db, companies, dataDir, schema, { serve: false, dropOnExit: false, checkRowsBelow: CHECK_ROWS_BELOW }), options.budgetSeconds * 1000);
    server = await LiveTarget.start(targetOptions(db, companies, dataDir, schema, { seed: false, workloads: READS }));
    const reads: Record<string, ReadRow> = {};
    for (const name of READS) reads[name] = await measureWorkload(server, db, name, options.seconds, options.connections, { next: 0 });
    const { txMs, applyMs } = await server.request<{ txMs: number[]; applyMs: number[] }>({ cmd: 'changes', n: options.changes, budgetMs: 30_000 });
    const stats = await server.stats();
    return {
      database: db, companies, databaseMb: seeder.info.databaseMb, seedSeconds: seeder.info.seedSeconds, startupMs: server.info.startupMs,
      rssMb: stats.rssMb, peakRssMb: stats.peakRssMb,
      changes: { n: applyMs.length, applyP50: percentile(applyMs, 50), applyP99: percentile(applyMs, 99), txP50: percentile(txMs, 50) },
      reads,
    };
  } finally {
    await server?.stop();
    // A seeder that was stopped or a server that failed leaves its schema behind: drop it (idempotent).
    if (db === 'postgres') {
      await LiveTarget.start(targetOptions(db, companies, dataDir, schema, { seed: false, serve: false, dropOnExit: true })).catch(() => undefined);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function printRow(r: Growth1mRow): void {
  const read = (k: string) => `${f(r.reads[k].app.rps)} (${f(r.reads[k].app.p99)})`;
  console.log(
    `${DATABASE_LABEL[r.database].padEnd(17)} ${String(r.companies).padStart(9)} ${f(r.databaseMb ?? Number.NaN).padStart(8)} ${f(r.seedSeconds).padStart(7)} ${f(r.startupMs / 1000, 1).padStart(11)} ${`${f(r.rssMb)}/${f(r.peakRssMb)}`.padStart(12)}  ${`${f(r.changes.applyP50, 1)}/${f(r.changes.applyP99, 1)} (${r.changes.n}; ${f(r.changes.txP50, 1)})`.padStart(30)}   ${read('q').padStart(18)} ${read('hit').padStart(16)} ${read('company').padStart(20)}  ${READS.map((k) => f(r.reads[k].raw.rps)).join('/')}   [${gcLine(r)}; ${loadLine()}]`,
  );
}

/** Where a read row's time may go beside the handler: the collector's share of the load and its major collections. */
function gcLine(r: Growth1mRow): string {
  const part = (k: string) => `${(r.reads[k].gcShare * 100).toFixed(0)} % (${r.reads[k].majorGc.count} major, max ${f(r.reads[k].majorGc.maxMs)} ms)`;
  return `GC ${READS.map(part).join(' / ')}`;
}

function printVerdicts(rows: Growth1mRow[]): void {
  for (const r of rows) {
    const small = rows.find((s) => s.database === r.database && s.companies === 1_000);
    const changeTarget = perChangeTargetMs(r.companies);
    const parts: string[] = [];
    if (changeTarget !== null) parts.push(`per-change p50 ${f(r.changes.applyP50, 1)} ms < ${changeTarget} ms: ${met(r.changes.applyP50 < changeTarget)}`);
    if (r.companies >= 1_000_000) {
      if (small) {
        for (const k of READS) {
          const share = r.reads[k].app.rps / small.reads[k].app.rps;
          parts.push(`${k} x${f(share, 2)} of the 1,000 row (raw x${f(r.reads[k].raw.rps / small.reads[k].raw.rps, 2)}) >= x${GROWTH_TARGETS.readShare}: ${met(share >= GROWTH_TARGETS.readShare)}`);
        }
      } else parts.push('no 1,000-company row to compare reads with');
      parts.push(`RSS peak ${f(r.peakRssMb)} MB < 3 GB: ${met(r.peakRssMb < GROWTH_TARGETS.rssMb)}`);
      parts.push(`start-up ${f(r.startupMs / 1000, 1)} s < 60 s${r.database === 'postgres' ? '' : ' (target set for PostgreSQL)'}: ${met(r.startupMs < GROWTH_TARGETS.startupMs)}`);
    }
    const errors = READS.reduce((n, k) => n + r.reads[k].errorLines + r.reads[k].app.non2xx, 0);
    if (errors > 0) parts.push(`${errors} error lines / non-2xx during reads: NOT MET`);
    if (parts.length) console.log(`${DATABASE_LABEL[r.database]} ${r.companies.toLocaleString('en')}: ${parts.join('; ')}`);
  }
}

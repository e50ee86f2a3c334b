// Growth: the same reads at 1,000 / 10,000 / 100,000 companies (realistic scans), on each database. Per size: the
// ranked snapshot's rebuild time (median of 3), the process's resident memory after it, and read throughput for
// distinct-q misses, hits and distinct company reads. Targets: read cost per request flat across sizes (the largest
// size keeps at least 75 % of the smallest's requests/s), rebuild time and memory at most linear.
import { DATABASE_LABEL, met, type Database } from './common';
import { measureWorkload, ReadTarget, type LoadResult } from './read-bench';

export interface GrowthRow {
  database: Database;
  companies: number;
  seedSeconds: number;
  rebuildMs: number;
  rssMb: number;
  q: LoadResult;
  hit: LoadResult;
  company: LoadResult;
  /** Response-cache hits during the q and company loads (a small population has fewer distinct paths than the cache). */
  missHits: { q: string; company: string };
  /** The raw node:http server's req/s for the same kind of paths, in the same process, just before each app load. */
  raw: Record<Load, number>;
  /** Share of each app load's wall time spent in garbage-collection pauses. */
  gcShare: Record<Load, number>;
}

type Load = 'q' | 'hit' | 'company';

export async function runGrowthBench(options: { databases: Database[]; sizes: number[]; seconds: number; connections: number }): Promise<GrowthRow[]> {
  const rows: GrowthRow[] = [];
  // Smallest sizes first on every database, PGlite's largest last (it takes longest to seed); each row is printed as
  // soon as it is measured, so a long run shows its progress.
  const largest = Math.max(...options.sizes);
  const pgliteLast = [...options.databases].sort((a, b) => Number(a === 'pglite') - Number(b === 'pglite'));
  const steps = [...options.sizes]
    .sort((a, b) => a - b)
    .flatMap((companies) => (companies === largest ? pgliteLast : options.databases).map((db) => ({ db, companies })));
  printGrowthHeader();
  for (const { db, companies } of steps) {
    const target = await ReadTarget.start(db, companies);
    try {
      const rebuilt = await target.request<{ rebuildMs: number; rssMb: number }>('rebuild');
      const read = (name: string) => measureWorkload(target, db, name, options.seconds, options.connections, { next: 0 });
      const q = await read('q');
      const hit = await read('hit');
      const company = await read('company');
      const row: GrowthRow = {
        database: db,
        companies,
        seedSeconds: target.info.seedSeconds,
        rebuildMs: rebuilt.rebuildMs,
        rssMb: rebuilt.rssMb,
        q: q.app,
        hit: hit.app,
        company: company.app,
        missHits: { q: `${q.hits}/${q.requests}`, company: `${company.hits}/${company.requests}` },
        raw: { q: q.raw.rps, hit: hit.raw.rps, company: company.raw.rps },
        gcShare: { q: q.gcShare, hit: hit.gcShare, company: company.gcShare },
      };
      rows.push(row);
      printGrowthRow(row, target.info.checkRows);
    } finally {
      await target.stop();
    }
  }
  return rows;
}

/** Flat: the largest size keeps at least 75 % of the smallest size's throughput. */
const FLAT = 0.75;

const f = (n: number, d = 0) => n.toFixed(d);
const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

function printGrowthHeader(): void {
  console.log('\nGrowth (realistic scans; reads at 64 connections; printed as measured)');
  console.log('database          companies  seeded s  rebuild ms  ms/1k cos  RSS MB   q-miss req/s (p99)  hit req/s (p99)  company req/s (p99)');
}

function printGrowthRow(r: GrowthRow, checkRows: number): void {
  console.log(
    `${DATABASE_LABEL[r.database].padEnd(17)} ${String(r.companies).padStart(9)} ${f(r.seedSeconds).padStart(9)} ${f(r.rebuildMs).padStart(11)} ${f((r.rebuildMs / r.companies) * 1000, 1).padStart(10)} ${f(r.rssMb).padStart(7)}   ${`${f(r.q.rps)} (${f(r.q.p99)})`.padStart(18)} ${`${f(r.hit.rps)} (${f(r.hit.p99)})`.padStart(16)} ${`${f(r.company.rps)} (${f(r.company.p99)})`.padStart(20)}   [${checkRows} check rows; cache hits q ${r.missHits.q}, company ${r.missHits.company}; raw req/s q/hit/company ${f(r.raw.q)}/${f(r.raw.hit)}/${f(r.raw.company)}; GC q/hit/company ${pct(r.gcShare.q)}/${pct(r.gcShare.hit)}/${pct(r.gcShare.company)}; non-2xx ${r.q.non2xx + r.hit.non2xx + r.company.non2xx}]`,
  );
}

export function printGrowth(rows: GrowthRow[]): void {
  for (const db of new Set(rows.map((r) => r.database))) {
    const own = rows.filter((r) => r.database === db).sort((a, b) => a.companies - b.companies);
    if (own.length < 2) continue;
    // Throughput flatness is compared from the smallest size whose miss loads were all misses (never the largest
    // itself, which would compare a size with itself).
    const large = own[own.length - 1];
    const small = own.slice(0, -1).find((r) => r.missHits.q.startsWith('0/') && r.missHits.company.startsWith('0/')) ?? own[0];
    const growth = large.companies / small.companies;
    const flat = (k: Load) => large[k].rps / small[k].rps;
    // The raw server lives in the same process: when its figure moves with the app's, the machine's load moved.
    const rawFlat = (k: Load) => (large.raw[k] / small.raw[k]).toFixed(2);
    console.log(
      `${DATABASE_LABEL[db]}: ${small.companies} -> ${large.companies} companies (x${growth}): ` +
        `q-miss throughput x${flat('q').toFixed(2)} (${met(flat('q') >= FLAT)}), hits x${flat('hit').toFixed(2)} (${met(flat('hit') >= FLAT)}), ` +
        `company x${flat('company').toFixed(2)} (${met(flat('company') >= FLAT)}) [target: flat, >= x${FLAT}; raw server q/hit/company x${rawFlat('q')}/x${rawFlat('hit')}/x${rawFlat('company')}]; ` +
        `rebuild x${(large.rebuildMs / small.rebuildMs).toFixed(1)} (${met(large.rebuildMs / small.rebuildMs <= growth)}), ` +
        `RSS x${(large.rssMb / small.rssMb).toFixed(1)} (${met(large.rssMb / small.rssMb <= growth)}) [target: at most linear, <= x${growth}]`,
    );
  }
}

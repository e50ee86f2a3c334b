// Seeds N scored companies, each with a realistic latest scan: the real scanner's results for the sandbox personas
// (all 46 catalog checks with their evidence and fixes, the four layers), two earlier score-history rows (one before
// the 7-day boundary, so movement is computed) and the scan's events. Rows are generated inside the database
// (INSERT ... SELECT over generate_series) so 100,000 companies take seconds, not an hour of round trips.
import type { Db } from '@arl/db';
import { PERSONAS, startSandbox } from '@arl/sandbox';
import { scan, type ScanResult } from '@arl/scanner';
import { scanDetailSql } from '@arl/server';

export interface SeedFigures {
  companies: number;
  checkRows: number;
  seconds: number;
  /** The scanner's results the rows were copied from (the live benches end scans with them). */
  templates: ScanResult[];
}

export interface SeedOptions {
  /**
   * Companies from this index on get no check_results / layer_scores rows (their scan's `detail` column, which
   * company reads answer from, is written as for every other company). For growth to 1,000,000: 49 million check
   * rows would cost ~20 GB and ten minutes for rows no leaderboard read touches. Default: every company.
   */
  checkRowsBelow?: number;
}

/** Company i has domain `bench-${i}.example` and name `Bench Company ${i}`; every tenth one is a community company. */
export const benchDomain = (i: number) => `bench-${i}.example`;
export const isCommunity = (i: number) => i % 10 === 9;

/** The sandbox personas scanned once by the real scanner (finished, scored results only). */
export async function scanPersonas(): Promise<ScanResult[]> {
  const sandbox = await startSandbox({ latencyMs: 0 });
  try {
    const results: ScanResult[] = [];
    for (const persona of PERSONAS) {
      const result = await scan(sandbox.urlOf(persona.name), { fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup } });
      if (result.ending === 'finished' && result.score !== null) results.push(result);
    }
    return results;
  } finally {
    await sandbox.close();
  }
}

export async function seedRealistic(db: Db, companies: number, options: SeedOptions = {}): Promise<SeedFigures> {
  const checkRowsBelow = options.checkRowsBelow ?? companies;
  const started = performance.now();
  const templates = await scanPersonas();
  const T = templates.length;
  // Plain tables, not TEMP: with PostgreSQL every statement may run on another pooled connection.
  await db.executeSql(`
    CREATE TABLE bench_tpl (tpl int, score int, grade text, summary text, detail text);
    CREATE TABLE bench_tpl_checks (tpl int, position int, check_id text, name text, layer text, tier text, label text,
      bonus boolean, status text, earned float8, points int, evidence jsonb, fix text);
    CREATE TABLE bench_tpl_layers (tpl int, position int, layer text, weight int, score int);
    CREATE TABLE bench_cat AS SELECT id, (row_number() OVER (ORDER BY slug) - 1)::int AS n FROM categories;`);
  const categories = Number((await db.executeSql('SELECT count(*)::int AS n FROM bench_cat')).rows[0].n);
  for (const [tpl, r] of templates.entries()) {
    await db.executeSql('INSERT INTO bench_tpl VALUES ($1, $2, $3, $4)', [tpl, r.score, r.grade, r.summary]);
    for (const [position, c] of r.checks.entries()) {
      await db.executeSql('INSERT INTO bench_tpl_checks VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13)', [
        tpl, position, c.id, c.name, c.layer, c.tier, c.label, c.bonus, c.status, c.earned, c.points, JSON.stringify(c.evidence), c.fix,
      ]);
    }
    for (const [position, l] of r.layers.entries()) {
      await db.executeSql('INSERT INTO bench_tpl_layers VALUES ($1, $2, $3, $4, $5)', [tpl, position, l.id, l.weight, l.score]);
    }
  }
  // Each template's detail (the company read's column), written as a scan's end writes it; every copy shares it.
  await db.executeSql(`UPDATE bench_tpl t SET detail = ${scanDetailSql('t.tpl', { layers: 'bench_tpl_layers', checks: 'bench_tpl_checks', key: 'tpl' })}`);
  // Bulk load as a restore would: the secondary indexes and the two composite primary keys are dropped first and
  // rebuilt once at the end (one sort instead of millions of random B-tree inserts; the ids are md5-random), and each
  // chunk runs as one script with foreign-key triggers off (every reference it writes exists by construction).
  // A scan's checks and layers are written in position order by a per-scan lateral subquery, not by sorting the
  // chunk's 920,000 check rows (an external sort that took two thirds of PGlite's chunk time).
  // BENCH_SEED_TRACE=1 prints each chunk's time (it stays flat as the tables grow) and the index rebuild's.
  const trace = process.env.BENCH_SEED_TRACE ? (label: string, since: number) => console.error(`seed ${label}: ${(performance.now() - since).toFixed(0)} ms`) : () => undefined;
  const rebuild = await dropBulkIndexes(db);
  const chunk = 20_000;
  for (let from = 0; from < companies; from += chunk) {
    const chunkStarted = performance.now();
    const to = Math.min(companies, from + chunk) - 1;
    const cats = Math.max(categories, 1);
    // The range of this chunk that gets check and layer rows (empty when from > checksTo).
    const checksTo = Math.min(to, checkRowsBelow - 1);
    await db.executeSql(`
    BEGIN;
    SET LOCAL session_replication_role = replica;
    INSERT INTO scans (id, target, url, domain, kind, state, ending, cause, score, grade, summary, detail, origin, attempts, company_id, created_at, started_at, ended_at)
       SELECT overlay(overlay(md5('s'||g) placing '4' from 13) placing '8' from 17)::uuid, 'https://bench-'||g||'.example/', 'https://bench-'||g||'.example/', 'bench-'||g||'.example', 'website',
              'ended', 'finished', 'The scan finished and was scored.', t.score, t.grade, t.summary, t.detail, 'rescan', 1, overlay(overlay(md5('c'||g) placing '4' from 13) placing '8' from 17)::uuid,
              now() - ((g % 1000) * interval '17 minutes') - interval '20 seconds', now() - ((g % 1000) * interval '17 minutes') - interval '15 seconds',
              now() - ((g % 1000) * interval '17 minutes')
       FROM generate_series(${from}, ${to}) g JOIN bench_tpl t ON t.tpl = g % ${T};
    INSERT INTO companies (id, name, website, domain, category_id, source, score, grade, summary, scanned_at, latest_scan_id, updated_at)
       SELECT overlay(overlay(md5('c'||g) placing '4' from 13) placing '8' from 17)::uuid, 'Bench Company '||g, 'https://bench-'||g||'.example', 'bench-'||g||'.example', cat.id,
              CASE WHEN g % 10 = 9 THEN 'community'::"CompanySource" ELSE 'curated'::"CompanySource" END,
              greatest(0, least(100, t.score + (g % 7) - 3)), t.grade, t.summary, now() - ((g % 1000) * interval '17 minutes'),
              overlay(overlay(md5('s'||g) placing '4' from 13) placing '8' from 17)::uuid, now()
       FROM generate_series(${from}, ${to}) g JOIN bench_tpl t ON t.tpl = g % ${T} LEFT JOIN bench_cat cat ON cat.n = g % ${cats};
    INSERT INTO check_results (scan_id, check_id, name, layer, tier, label, bonus, status, earned, points, position, evidence, fix)
       SELECT overlay(overlay(md5('s'||g) placing '4' from 13) placing '8' from 17)::uuid, c.check_id, c.name, c.layer, c.tier, c.label, c.bonus, c.status, c.earned, c.points, c.position, c.evidence, c.fix
       FROM generate_series(${from}, ${checksTo}) g
       CROSS JOIN LATERAL (SELECT * FROM bench_tpl_checks c WHERE c.tpl = g % ${T} ORDER BY c.position) c;
    INSERT INTO layer_scores (scan_id, layer, weight, score, position)
       SELECT overlay(overlay(md5('s'||g) placing '4' from 13) placing '8' from 17)::uuid, l.layer, l.weight, l.score, l.position
       FROM generate_series(${from}, ${checksTo}) g
       CROSS JOIN LATERAL (SELECT * FROM bench_tpl_layers l WHERE l.tpl = g % ${T} ORDER BY l.position) l;
    INSERT INTO score_history (company_id, scan_id, score, grade, recorded_at)
       SELECT overlay(overlay(md5('c'||g) placing '4' from 13) placing '8' from 17)::uuid, NULL, greatest(0, least(100, t.score + (g % 11) - 5 + k * 2)), t.grade,
              now() - ((g % 1000) * interval '17 minutes') - ((3 - k) * interval '9 days')
       FROM generate_series(${from}, ${to}) g JOIN bench_tpl t ON t.tpl = g % ${T} CROSS JOIN generate_series(1, 2) k;
    INSERT INTO score_history (company_id, scan_id, score, grade, recorded_at)
       SELECT overlay(overlay(md5('c'||g) placing '4' from 13) placing '8' from 17)::uuid, overlay(overlay(md5('s'||g) placing '4' from 13) placing '8' from 17)::uuid, greatest(0, least(100, t.score + (g % 7) - 3)), t.grade, now() - ((g % 1000) * interval '17 minutes')
       FROM generate_series(${from}, ${to}) g JOIN bench_tpl t ON t.tpl = g % ${T};
    INSERT INTO scan_events (scan_id, step, at)
       SELECT overlay(overlay(md5('s'||g) placing '4' from 13) placing '8' from 17)::uuid, s.step, now() - ((g % 1000) * interval '17 minutes') - (s.n * interval '1 second')
       FROM generate_series(${from}, ${to}) g
       CROSS JOIN (VALUES ('waiting', 20), ('running', 15), ('discovery', 12), ('access', 9), ('usability', 6), ('payments', 4), ('scoring', 2), ('ended', 0)) AS s(step, n);
    COMMIT;`);
    trace(`chunk ${from}-${to}`, chunkStarted);
  }
  const indexesStarted = performance.now();
  await db.executeSql(rebuild);
  trace('index rebuild', indexesStarted);
  // VACUUM as well as ANALYZE: a bulk load leaves every page for autovacuum to visit (its insert threshold), which
  // at a million companies (~12 million rows) is minutes of a core taken from whatever is measured first.
  await db.executeSql('DROP TABLE bench_tpl, bench_tpl_checks, bench_tpl_layers, bench_cat');
  const vacuumStarted = performance.now();
  await db.executeSql('VACUUM ANALYZE');
  trace('vacuum analyze', vacuumStarted);
  const checkRows = Number((await db.executeSql('SELECT count(*)::int AS n FROM check_results')).rows[0].n);
  return { companies, checkRows, seconds: (performance.now() - started) / 1000, templates };
}

/** Drops the bulk-loaded tables' secondary indexes and composite primary keys; returns the script that restores them. */
async function dropBulkIndexes(db: Db): Promise<string> {
  const { rows } = await db.executeSql(
    `SELECT i.indexname, i.indexdef, c.conname, pg_get_constraintdef(c.oid) AS condef, i.tablename
     FROM pg_indexes i LEFT JOIN pg_constraint c ON c.conname = i.indexname AND c.connamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
     WHERE i.schemaname = current_schema() AND i.tablename IN ('check_results', 'layer_scores', 'score_history', 'scan_events')
       AND i.indexname NOT IN ('score_history_pkey', 'scan_events_pkey')`,
  );
  const drop: string[] = [];
  const restore: string[] = [];
  for (const r of rows as Array<{ indexname: string; indexdef: string; conname: string | null; condef: string | null; tablename: string }>) {
    if (r.conname) {
      drop.push(`ALTER TABLE "${r.tablename}" DROP CONSTRAINT "${r.conname}";`);
      restore.push(`ALTER TABLE "${r.tablename}" ADD CONSTRAINT "${r.conname}" ${r.condef};`);
    } else {
      drop.push(`DROP INDEX "${r.indexname}";`);
      restore.push(`${r.indexdef};`);
    }
  }
  if (drop.length > 0) await db.executeSql(drop.join('\n'));
  return restore.join('\n') || 'SELECT 1';
}

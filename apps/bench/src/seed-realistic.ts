// Seeds N scored companies, each with a realistic latest scan: the real scanner's results for the sandbox personas
// (all 46 catalog checks with their evidence and fixes, the four layers), two earlier score-history rows (one before
// the 7-day boundary, so movement is computed) and the scan's events. Rows are generated inside the database
// (INSERT ... SELECT over generate_series) so 100,000 companies take seconds, not an hour of round trips.
import type { Db } from '@arl/db';
import { PERSONAS, startSandbox } from '@arl/sandbox';
import { scan, type ScanResult } from '@arl/scanner';

export interface SeedFigures {
  companies: number;
  checkRows: number;
  seconds: number;
}

/** Company i has domain `bench-${i}.example` and name `Bench Company ${i}`; every tenth one is a community company. */
export const benchDomain = (i: number) => `bench-${i}.example`;
export const isCommunity = (i: number) => i % 10 === 9;

async function scanPersonas(): Promise<ScanResult[]> {
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

export async function seedRealistic(db: Db, companies: number): Promise<SeedFigures> {
  const started = performance.now();
  const templates = await scanPersonas();
  const T = templates.length;
  // Plain tables, not TEMP: with PostgreSQL every statement may run on another pooled connection.
  await db.executeSql(`
    CREATE TABLE bench_tpl (tpl int, score int, grade text, summary text);
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
  // Deterministic ids: company i is md5('c'||i), its latest scan md5('s'||i). Scores spread around the persona's
  // score so the ranking has many distinct values; scan times spread over the last 12 days.
  const chunk = 20_000;
  for (let from = 0; from < companies; from += chunk) {
    const to = Math.min(companies, from + chunk) - 1;
    const params = [from, to, T];
    await db.executeSql(
      `INSERT INTO scans (id, target, url, domain, kind, state, ending, cause, score, grade, summary, origin, attempts, created_at, started_at, ended_at)
       SELECT md5('s'||g)::uuid, 'https://bench-'||g||'.example/', 'https://bench-'||g||'.example/', 'bench-'||g||'.example', 'website',
              'ended', 'finished', 'The scan finished and was scored.', t.score, t.grade, t.summary, 'rescan', 1,
              now() - ((g % 1000) * interval '17 minutes') - interval '20 seconds', now() - ((g % 1000) * interval '17 minutes') - interval '15 seconds',
              now() - ((g % 1000) * interval '17 minutes')
       FROM generate_series($1::int, $2::int) g JOIN bench_tpl t ON t.tpl = g % $3::int`,
      params,
    );
    await db.executeSql(
      `INSERT INTO companies (id, name, website, domain, category_id, source, score, grade, summary, scanned_at, latest_scan_id, updated_at)
       SELECT md5('c'||g)::uuid, 'Bench Company '||g, 'https://bench-'||g||'.example', 'bench-'||g||'.example',
              cat.id,
              CASE WHEN g % 10 = 9 THEN 'community'::"CompanySource" ELSE 'curated'::"CompanySource" END,
              greatest(0, least(100, t.score + (g % 7) - 3)), t.grade, t.summary, now() - ((g % 1000) * interval '17 minutes'),
              md5('s'||g)::uuid, now()
       FROM generate_series($1::int, $2::int) g JOIN bench_tpl t ON t.tpl = g % $3::int LEFT JOIN bench_cat cat ON cat.n = g % $4::int`,
      [...params, Math.max(categories, 1)],
    );
    await db.executeSql(`UPDATE scans SET company_id = md5('c'||g)::uuid FROM generate_series($1::int, $2::int) g WHERE scans.id = md5('s'||g)::uuid`, [from, to]);
    await db.executeSql(
      `INSERT INTO check_results (scan_id, check_id, name, layer, tier, label, bonus, status, earned, points, position, evidence, fix)
       SELECT md5('s'||g)::uuid, c.check_id, c.name, c.layer, c.tier, c.label, c.bonus, c.status, c.earned, c.points, c.position, c.evidence, c.fix
       FROM generate_series($1::int, $2::int) g JOIN bench_tpl_checks c ON c.tpl = g % $3::int
       ORDER BY g, c.position`, // one scan's rows together, as the transaction that ends a scan writes them
      params,
    );
    await db.executeSql(
      `INSERT INTO layer_scores (scan_id, layer, weight, score, position)
       SELECT md5('s'||g)::uuid, l.layer, l.weight, l.score, l.position
       FROM generate_series($1::int, $2::int) g JOIN bench_tpl_layers l ON l.tpl = g % $3::int
       ORDER BY g, l.position`,
      params,
    );
    await db.executeSql(
      `INSERT INTO score_history (company_id, scan_id, score, grade, recorded_at)
       SELECT md5('c'||g)::uuid, NULL, greatest(0, least(100, t.score + (g % 11) - 5 + k * 2)), t.grade,
              now() - ((g % 1000) * interval '17 minutes') - ((3 - k) * interval '9 days')
       FROM generate_series($1::int, $2::int) g JOIN bench_tpl t ON t.tpl = g % $3::int CROSS JOIN generate_series(1, 2) k`,
      params,
    );
    await db.executeSql(
      `INSERT INTO score_history (company_id, scan_id, score, grade, recorded_at)
       SELECT id, latest_scan_id, score, grade, scanned_at FROM companies WHERE domain IN (SELECT 'bench-'||g||'.example' FROM generate_series($1::int, $2::int) g)`,
      [from, to],
    );
    await db.executeSql(
      `INSERT INTO scan_events (scan_id, step, at)
       SELECT md5('s'||g)::uuid, s.step, now() - ((g % 1000) * interval '17 minutes') - (s.n * interval '1 second')
       FROM generate_series($1::int, $2::int) g
       CROSS JOIN (VALUES ('waiting', 20), ('running', 15), ('discovery', 12), ('access', 9), ('usability', 6), ('payments', 4), ('scoring', 2), ('ended', 0)) AS s(step, n)`,
      [from, to],
    );
  }
  await db.executeSql('DROP TABLE bench_tpl, bench_tpl_checks, bench_tpl_layers, bench_cat; ANALYZE');
  const checkRows = Number((await db.executeSql('SELECT count(*)::int AS n FROM check_results')).rows[0].n);
  return { companies, checkRows, seconds: (performance.now() - started) / 1000 };
}

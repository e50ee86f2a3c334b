// The model test of the population statistics (issue 31): random sequences of scan endings (curated companies, some
// scored for the first time, community companies appearing), category changes and clock moves across weeks. After
// every step, GET /v1/leaderboard/stats (both populations, each category, an unknown one) equals a from-scratch
// count over the companies as the database holds them: every check's status counts, the grades, the score and
// layer quartiles, the per-category figures and every weekly point (past weeks from the score history, the current
// one the live figures). The counts are never taken from scratch again after the first: each change moves one
// company's contribution.
import fc from 'fast-check';
import { CHECK_CATALOG } from '@arl/scanner';
import type { LeaderboardSchemas } from '@arl/contract';
import { commitEnding } from '../src/scans/scan-job';
import { openDataOf } from '../src/open-data';
import { OpenDataService } from '../src/open-data/service';
import { WeeklySeries } from '../src/open-data/weekly-series';
import { ensureCategory, gradeOf, insertCompany } from './support/fixtures';
import { startTestServer, type TestServer } from './support/harness';

type Stats = LeaderboardSchemas['PopulationStats'];

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const SLUGS = ['payments', 'search', 'travel'];
const STATUSES = ['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'] as const;
const LAYERS = ['discovery', 'access', 'usability', 'payments'] as const;
// A few real checks of the catalog, and one the catalog no longer has (an old scan's): it must count nowhere.
const CHECK_IDS = [...CHECK_CATALOG.slice(0, 5).map((c) => c.id), CHECK_CATALOG[CHECK_CATALOG.length - 1].id, 'retired-check'];
let now = new Date('2026-10-01T12:00:00.000Z');
const clock = () => now;

let t: TestServer;
const domains: string[] = [];
const categoryIds: Array<string | null> = [null];
let communities = 0;

type Command =
  | { kind: 'scan'; target: number; score: number; statuses: number[]; layers: number[] }
  | { kind: 'community'; score: number; statuses: number[]; layers: number[] }
  | { kind: 'category'; target: number; category: number }
  | { kind: 'clock'; ms: number };

// statuses[i]: 0-4 a status of CHECK_IDS[i], 5 no result; layers[l]: 0-100 a score, 101 null.
const statusesArb = fc.array(fc.integer({ min: 0, max: 5 }), { minLength: CHECK_IDS.length, maxLength: CHECK_IDS.length });
const layersArb = fc.array(fc.integer({ min: 0, max: 101 }), { minLength: 4, maxLength: 4 });
const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant<'scan'>('scan'), target: fc.nat(1000), score: fc.integer({ min: 0, max: 100 }), statuses: statusesArb, layers: layersArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant<'community'>('community'), score: fc.integer({ min: 0, max: 100 }), statuses: statusesArb, layers: layersArb }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant<'category'>('category'), target: fc.nat(1000), category: fc.nat(SLUGS.length) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant<'clock'>('clock'), ms: fc.constantFrom(DAY, 3 * DAY, WEEK, 3_600_000) }) },
);

async function endScan(domain: string, score: number, statuses: number[], layers: number[]): Promise<void> {
  const db = t.runtime.db;
  const scan = await db.prisma.scan.create({
    data: { target: `https://${domain}/`, activeTarget: `https://${domain}/`, url: `https://${domain}/`, domain, state: 'scoring' },
  });
  const checks = CHECK_IDS.flatMap((id, i) =>
    statuses[i] === 5 ? [] : [{
      id, name: `Check ${id}`, layer: 'discovery', tier: 'recommended', label: null, bonus: false, status: STATUSES[statuses[i]],
      earned: 0, points: 7, evidence: null, fix: null,
    }],
  );
  const layerRows = LAYERS.map((id, l) => ({ id, weight: 25, score: layers[l] === 101 ? null : layers[l] }));
  await commitEnding(
    { db, queue: t.runtime.jobs, scanEnded: t.runtime.scanEnded, clock, logger: t.runtime.logger, publicUrl: 'http://localhost' },
    scan.id,
    { ending: 'finished', cause: null, score, grade: gradeOf(score) as 'A', summary: `Scored ${score}.`, siteName: domain, checks: checks as never, layers: layerRows as never, catalogVersion: 'test' },
  );
}

async function run(command: Command): Promise<void> {
  switch (command.kind) {
    case 'scan':
      return endScan(domains[command.target % domains.length], command.score, command.statuses, command.layers);
    case 'community': {
      const domain = `community-${communities++}.example`;
      domains.push(domain);
      return endScan(domain, command.score, command.statuses, command.layers);
    }
    case 'category': {
      const domain = domains[command.target % domains.length];
      const { id } = await t.runtime.db.prisma.company.update({ where: { domain }, data: { categoryId: categoryIds[command.category] }, select: { id: true } });
      await t.runtime.changes.publish({ kind: 'ids', ids: [id] });
      return;
    }
    case 'clock':
      now = new Date(now.getTime() + command.ms);
  }
}

beforeAll(async () => {
  t = await startTestServer({ clock });
  for (const slug of SLUGS) categoryIds.push(await ensureCategory(t.runtime.db, slug, slug.toUpperCase()));
  for (let i = 0; i < 12; i++) {
    const domain = `company-${i}.example`;
    await insertCompany(t.runtime.db, { name: `Company ${i}`, domain, score: null, category: [null, ...SLUGS][i % 4] });
    domains.push(domain);
  }
  // Half of them scored before the counts exist (counted by the first read), the rest by the commands.
  for (let i = 0; i < 6; i++) await endScan(domains[i], 10 * i + 20, CHECK_IDS.map((_, c) => (i + c) % 6), [i * 10, 50, 101, 100]);
});

afterAll(async () => {
  await t?.close();
});

// ---- The from-scratch count: SQL reads of what the database holds, counted here with no code of open-data/.

interface Company { id: string; source: string; categoryId: string | null; slug: string | null; name: string | null; score: number; grade: string; scanId: string }

async function companies(): Promise<Company[]> {
  const { rows } = await t.runtime.db.executeSql(
    `SELECT c.id::text AS id, c.source::text AS source, c.category_id::text AS "categoryId", k.slug, k.name, c.score, c.grade,
            c.latest_scan_id::text AS "scanId"
     FROM companies c LEFT JOIN categories k ON k.id = c.category_id WHERE c.score IS NOT NULL`,
  );
  return rows as Company[];
}

async function statusesOf(scanIds: string[]): Promise<Map<string, Map<string, string>>> {
  const { rows } = await t.runtime.db.executeSql(`SELECT scan_id::text AS scan, check_id AS id, status FROM check_results WHERE scan_id = ANY($1::uuid[])`, [scanIds]);
  const out = new Map<string, Map<string, string>>();
  for (const r of rows as Array<{ scan: string; id: string; status: string }>) {
    if (!out.has(r.scan)) out.set(r.scan, new Map());
    out.get(r.scan)!.set(r.id, r.status);
  }
  return out;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
const shareOf = (n: number, of: number) => (of > 0 ? round(n / of) : 0);
const GRADES = ['A+', 'A', 'B', 'C', 'D', 'F'] as const;
const KEYS = ['passed', 'warning', 'failed', 'notApplicable', 'couldntCheck'];

function quartilesOf(values: number[]) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
  return { min: sorted[0], q1: at(0.25), median: at(0.5), q3: at(0.75), max: sorted[sorted.length - 1] };
}

/** Holds score_history locked (a statement that takes long) until `release`, which waits for the lock to go. */
async function lockScoreHistory(): Promise<{ release: () => Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const holder = t.runtime.db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe('LOCK TABLE score_history IN ACCESS EXCLUSIVE MODE');
    locked();
    await released;
  }, { timeout: 60_000 });
  await isLocked;
  return {
    release: async () => {
      release();
      await holder;
    },
  };
}

function gradesOf(list: string[]) {
  return GRADES.map((grade) => ({ grade, companies: list.filter((g) => g === grade).length, share: shareOf(list.filter((g) => g === grade).length, list.length) }));
}

function passSharesOf(statuses: Array<Map<string, string>>) {
  return CHECK_CATALOG.map((c) => {
    const withResult = statuses.filter((s) => s.has(c.id));
    const passed = withResult.filter((s) => s.get(c.id) === 'passed').length;
    return { id: c.id, companies: withResult.length, passed, share: shareOf(passed, withResult.length) };
  });
}

/** The week ends (exclusive, ms) of the ended weeks the series covers, oldest first. */
function pastWeekEnds(): number[] {
  const day = Math.floor(now.getTime() / DAY);
  const monday = (day - ((day + 3) % 7)) * DAY;
  return Array.from({ length: 25 }, (_, k) => monday - (24 - k) * WEEK);
}

async function expected(population: 'curated' | 'all', slug: string | undefined): Promise<Partial<Stats>> {
  const all = (await companies()).filter((c) => population === 'all' || c.source === 'curated');
  const scope = slug === undefined ? all : all.filter((c) => c.slug === slug);
  const statuses = await statusesOf(all.map((c) => c.scanId));
  const { rows: layerRows } = await t.runtime.db.executeSql(`SELECT scan_id::text AS scan, layer, score FROM layer_scores WHERE scan_id = ANY($1::uuid[])`, [scope.map((c) => c.scanId)]);
  const layers = layerRows as Array<{ scan: string; layer: string; score: number | null }>;
  const of = (c: Company) => statuses.get(c.scanId) ?? new Map<string, string>();
  const figures = (list: Company[]) => ({ score: quartilesOf(list.map((c) => c.score)), grades: gradesOf(list.map((c) => c.grade)), checks: passSharesOf(list.map(of)) });

  // Past weeks: each company's latest history point before the week's end, in its current scope.
  const { rows: historyRows } = await t.runtime.db.executeSql(
    `SELECT h.company_id::text AS company, h.scan_id::text AS scan, h.grade, h.recorded_at AS at, h.id FROM score_history h ORDER BY h.recorded_at, h.id`,
  );
  const history = historyRows as Array<{ company: string; scan: string; grade: string; at: Date }>;
  const inScope = new Set(scope.map((c) => c.id));
  const historyStatuses = await statusesOf(history.map((h) => h.scan));
  const weekly: Stats['weekly'] = [];
  for (const end of pastWeekEnds()) {
    const latest = new Map<string, { scan: string; grade: string }>();
    for (const h of history) if (inScope.has(h.company) && new Date(h.at).getTime() < end) latest.set(h.company, h);
    const points = [...latest.values()];
    if (points.length === 0 && weekly.length === 0) continue;
    weekly.push({
      weekEnding: new Date(end - DAY).toISOString().slice(0, 10), partial: false, companies: points.length,
      grades: gradesOf(points.map((p) => p.grade)), checks: passSharesOf(points.map((p) => historyStatuses.get(p.scan) ?? new Map())),
    });
  }
  const current = figures(scope);
  const lastEnd = pastWeekEnds()[24] + WEEK;
  weekly.push({ weekEnding: new Date(lastEnd - DAY).toISOString().slice(0, 10), partial: true, companies: scope.length, grades: current.grades, checks: current.checks });

  // A category asked for answers itself, with zero counts while it has no ranked company (its name: ensureCategory's).
  const known = slug === undefined ? null : { id: categoryIds[SLUGS.indexOf(slug) + 1]!, name: slug.toUpperCase(), slug };
  const categories = known
    ? [{ categoryId: known.id, name: known.name, slug: known.slug }]
    : [...new Map(all.filter((c) => c.categoryId).map((c) => [c.categoryId, c])).values()].sort((a, b) => a.name!.localeCompare(b.name!));
  return {
    population,
    category: known,
    rankedCompanies: scope.length,
    countedCompanies: scope.length,
    score: current.score,
    grades: current.grades,
    layers: LAYERS.map((id) => {
      const scores = scope.map((c) => layers.find((l) => l.scan === c.scanId && l.layer === id)?.score ?? null);
      const scored = scores.filter((s): s is number => s !== null);
      return { id, scored: scored.length, unscored: scores.length - scored.length, quartiles: quartilesOf(scored) };
    }),
    checks: CHECK_CATALOG.map((c) => {
      const counts = STATUSES.map((s) => scope.filter((co) => of(co).get(c.id) === s).length);
      const companiesWith = counts.reduce((a, b) => a + b, 0);
      return {
        id: c.id, name: c.name, layer: c.layer, companies: companiesWith,
        counts: Object.fromEntries(KEYS.map((k, i) => [k, counts[i]])) as never,
        shares: Object.fromEntries(KEYS.map((k, i) => [k, shareOf(counts[i], companiesWith)])) as never,
      };
    }),
    categories: categories.map((c) => {
      const members = all.filter((m) => m.categoryId === c.categoryId);
      const f = figures(members);
      return { category: { id: c.categoryId!, name: c.name!, slug: c.slug! }, rankedCompanies: members.length, countedCompanies: members.length, score: f.score, grades: f.grades, checks: f.checks };
    }),
    weekly,
  };
}

async function got(population: 'curated' | 'all', slug: string | undefined): Promise<Partial<Stats>> {
  const search = new URLSearchParams();
  if (slug !== undefined) search.set('category', slug);
  if (population === 'all') search.set('community', 'include');
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/stats?${search}`);
  expect(res.status).toBe(200);
  const { computedAt, methodologyVersion, catalogVersion, dataset, ...rest } = (await res.json()) as Stats;
  // Computed at a step of this run (the figures are kept until a count moves), never in the future.
  expect(Date.parse(computedAt)).toBeLessThanOrEqual(now.getTime());
  expect(dataset.rows).toBe(rest.rankedCompanies);
  expect(methodologyVersion).toBe(catalogVersion);
  return rest;
}

/** A slug no category has: 404 with the error body, never an empty population. */
async function unknownCategory(population: 'curated' | 'all', slug: string): Promise<void> {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/stats?category=${slug}${population === 'all' ? '&community=include' : ''}`);
  const body = (await res.json()) as Record<string, unknown>;
  expect({ status: res.status, body }).toEqual({
    status: 404,
    body: { code: 'not_found', message: `No category "${slug}" (GET /v1/leaderboard/categories lists them).`, requestId: res.headers.get('x-request-id') },
  });
}

test('after every scan ending, category change, community company and clock move, the statistics equal a from-scratch count', async () => {
  const counts = openDataOf(t.runtime).counts;
  await got('curated', undefined); // the first read counts the index once
  const fullCounts = counts.fullCounts;
  const loads = t.runtime.leaderboard.loads;
  let steps = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(commandArb, { minLength: 4, maxLength: 8 }), async (commands) => {
      for (const command of commands) {
        await run(command);
        steps++;
        // The new scan's layers and checks reach memory in the background (the leaderboard's fill pass).
        await t.runtime.leaderboard.fillDetails();
        for (const population of ['curated', 'all'] as const) {
          for (const slug of [undefined, ...SLUGS]) {
            expect({ step: command, population, slug, stats: await got(population, slug) }).toEqual({ step: command, population, slug, stats: await expected(population, slug) });
          }
          await unknownCategory(population, 'unknown');
        }
      }
    }),
    { numRuns: 4, seed: 3101 },
  );
  expect(steps).toBeGreaterThanOrEqual(16);
  // Every change moved one company's contribution: nothing was counted from scratch again.
  expect({ fullCounts: counts.fullCounts, loads: t.runtime.leaderboard.loads }).toEqual({ fullCounts, loads });
}, 600_000);

test('a read that cannot wait for the past weeks answers at once with the current week, then with all of them', async () => {
  // Scans over three more weeks, so there are several past weeks to compute.
  for (let week = 0; week < 3; week++) {
    await endScan(domains[week], 30 + week * 20, CHECK_IDS.map((_, c) => (week + c) % 5), [50, 50, 50, 50]);
    now = new Date(now.getTime() + WEEK);
  }
  await t.runtime.leaderboard.current();
  await t.runtime.leaderboard.fillDetails();
  const full = await got('all', undefined);
  expect(full.weekly!.length).toBeGreaterThan(3);
  // A fresh service (nothing computed yet) that waits for no statement, read while the score history is locked (a
  // statement that takes long): the answer comes at once with the current week only.
  // Nothing kept either: the weeks the first service kept would otherwise be read back at once.
  await t.runtime.db.executeSql('DELETE FROM population_weeks');
  const impatient = new OpenDataService(t.runtime.leaderboard, t.runtime.db, { publicUrl: t.leaderboardUrl, clock, seriesWaitMs: 0 });
  try {
    const lock = await lockScoreHistory();
    const first = await impatient.stats({ community: 'include' });
    await lock.release();
    expect(first.weekly).toEqual([full.weekly!.at(-1)]);
    let later = first;
    // Polled until the computation is over; the deadline only catches a hang (a loaded machine takes its time).
    for (const until = Date.now() + 120_000; Date.now() < until && later.weekly.length < full.weekly!.length;) {
      await new Promise((r) => setTimeout(r, 25));
      later = await impatient.stats({ community: 'include' });
    }
    expect(later.weekly).toEqual(full.weekly);
  } finally {
    impatient.close();
  }
});

test('the wait for the past weeks is the computation\'s, not each read\'s: once it is over, reads answer at once', async () => {
  await t.runtime.leaderboard.fillDetails();
  const full = await got('all', undefined);
  const pastWeeks = full.weekly!.slice(0, -1);
  expect(pastWeeks.length).toBeGreaterThan(1);
  // Fresh (nothing computed or kept yet) and read while the score history is locked: the past weeks cannot be computed.
  await t.runtime.db.executeSql('DELETE FROM population_weeks');
  const series = new WeeklySeries(t.runtime.db);
  // Long enough that three reads which each waited for it could not fit in one on a loaded machine either.
  const waitMs = 5_000;
  const lock = await lockScoreHistory();
  try {
    const first = await series.past('all', null, now, waitMs);
    expect(first.points).toEqual([]);
    // The same computation is still blocked: the next reads do not wait for it again (before: waitMs each).
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect((await series.past('all', null, now, waitMs)).points).toEqual([]);
    expect(performance.now() - started).toBeLessThan(waitMs);
  } finally {
    await lock.release();
  }
  // Released: the computation goes on, and a later read has every week.
  let after = await series.past('all', null, now, waitMs);
  for (const until = Date.now() + 120_000; Date.now() < until && after.points.length < pastWeeks.length;) {
    await new Promise((r) => setTimeout(r, 25));
    after = await series.past('all', null, now, waitMs);
  }
  expect(after.points).toEqual(pastWeeks);
});

test('a week is computed once for every process: another series reads it back; a company moved forgets them all', async () => {
  const full = await got('all', undefined);
  const pastWeeks = full.weekly!.slice(0, -1);
  // A series that waits for its whole chain keeps every week (a chain of the tests above may still be running).
  await new WeeklySeries(t.runtime.db).past('all', null, now, 120_000);
  // A fresh one (another process, the next start) reads them back and computes none.
  const kept = Number((await t.runtime.db.executeSql('SELECT count(*)::int AS n FROM population_weeks')).rows[0].n);
  expect(kept).toBeGreaterThanOrEqual(pastWeeks.length);
  const other = new WeeklySeries(t.runtime.db);
  expect((await other.past('all', null, now, 120_000)).points).toEqual(pastWeeks); // the wait ends when the weeks are read
  expect(other.computed).toBe(0);
  // An operator moves a company to another category: past weeks change (the series counts it in its current one).
  const company = (await t.runtime.db.executeSql(`SELECT id::text AS id, category_id::text AS category FROM companies WHERE score IS NOT NULL ORDER BY domain LIMIT 1`)).rows[0] as { id: string; category: string | null };
  const epoch = async () => String((await t.runtime.db.executeSql('SELECT epoch::text AS e FROM population_weeks_state')).rows[0].e);
  const before = await epoch();
  const target = categoryIds.find((c) => c !== company.category) ?? null;
  await t.runtime.db.executeSql('UPDATE companies SET category_id = $2::uuid WHERE id = $1::uuid', [company.id, target]);
  await t.runtime.changes.publish({ kind: 'ids', ids: [company.id] });
  // Every week kept before is gone (a chain already running may keep weeks again, counted after the move: the new epoch).
  const after = await epoch();
  expect(after).not.toBe(before);
  expect(Number((await t.runtime.db.executeSql('SELECT count(*)::int AS n FROM population_weeks WHERE epoch <> $1::bigint', [after])).rows[0].n)).toBe(0);
  // A change that moves nothing (a rename) forgets nothing.
  const fresh = new WeeklySeries(t.runtime.db);
  await fresh.past('all', null, now, 120_000);
  expect(fresh.computed).toBeGreaterThan(0);
  const stored = Number((await t.runtime.db.executeSql('SELECT count(*)::int AS n FROM population_weeks')).rows[0].n);
  await t.runtime.db.executeSql(`UPDATE companies SET name = name || ' Renamed' WHERE id = $1::uuid`, [company.id]);
  expect(await epoch()).toBe(after);
  expect(Number((await t.runtime.db.executeSql('SELECT count(*)::int AS n FROM population_weeks')).rows[0].n)).toBeGreaterThanOrEqual(stored);
  // The live answers follow the move: they equal the from-scratch count in the company's new category.
  await t.runtime.leaderboard.current();
  await t.runtime.leaderboard.fillDetails();
  for (const slug of [undefined, ...SLUGS]) expect(await got('all', slug)).toEqual(await expected('all', slug));
});

test('reads arriving together after a scan ends share one answer: it is made once, not once per read', async () => {
  await got('curated', undefined); // every past week known
  const service = openDataOf(t.runtime);
  await endScan(domains[0], 61, CHECK_IDS.map((_, c) => c % 5), [40, 40, 40, 40]);
  await t.runtime.leaderboard.current();
  await t.runtime.leaderboard.fillDetails();
  const answers = await Promise.all(Array.from({ length: 8 }, () => service.stats({})));
  expect(new Set(answers).size).toBe(1);
  expect(answers[0]).toEqual(await service.stats({}));
});

test('a known category without ranked companies answers itself with zero counts; an unknown slug is 404', async () => {
  const id = await ensureCategory(t.runtime.db, 'quiet-one', 'Quiet One');
  // A company in it, never scanned: the category has companies, none ranked.
  await insertCompany(t.runtime.db, { name: 'Quiet', domain: 'quiet.example', score: null, category: 'quiet-one' });
  await t.runtime.leaderboard.current();
  for (const population of ['curated', 'all'] as const) {
    const stats = await got(population, 'quiet-one');
    expect(stats).toMatchObject({ population, category: { id, name: 'Quiet One', slug: 'quiet-one' }, rankedCompanies: 0, countedCompanies: 0, score: null });
    expect(stats.grades!.every((g) => g.companies === 0 && g.share === 0)).toBe(true);
    expect(stats.checks!.every((c) => c.companies === 0)).toBe(true);
    expect(stats.categories).toEqual([
      expect.objectContaining({ category: { id, name: 'Quiet One', slug: 'quiet-one' }, rankedCompanies: 0, countedCompanies: 0, score: null }),
    ]);
    await unknownCategory(population, 'no-such-category');
  }
});

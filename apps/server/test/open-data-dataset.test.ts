// The open dataset (issue 31): every row of GET /v1/leaderboard/dataset.csv and .jsonl equals what operation 3
// (getCompany) and the company's report answer for the same company, each ranked company of the population exactly
// once, with the fixed columns, the catalog version its scan ran and the methodology version; CSV survives names
// with commas, quotes and line breaks. The batches a download is written in cover every company once whatever their
// size.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { CHECK_CATALOG, CATALOG_VERSION } from '@arl/scanner';
import { Writable } from 'node:stream';
import type { LeaderboardSchemas } from '@arl/contract';
import { ApiError } from '../src/http/errors';
import { openDataHandlers, openDataOf } from '../src/open-data';
import { MAX_DOWNLOADS } from '../src/open-data/handlers';
import { commitEnding } from '../src/scans/scan-job';
import { LocalChangeFeed } from '../src/changes';
import { LeaderboardRepository } from '../src/leaderboard/repository';
import { LeaderboardService } from '../src/leaderboard/service';
import { csvLine, datasetBatches, HEADER, headerText, jsonLine, jsonRow, type DatasetRow } from '../src/open-data/dataset';
import { csvCellValue } from '../src/text/csv';
import { ensureCategory, gradeOf, insertCompany } from './support/fixtures';
import { startTestServer, type TestServer } from './support/harness';

const STATUSES = ['passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'] as const;
let now = new Date('2026-11-20T12:00:00.000Z');
const clock = () => now;
let t: TestServer;

async function endScan(domain: string, score: number, seed: number, catalogVersion: string | undefined): Promise<void> {
  const db = t.runtime.db;
  const scan = await db.prisma.scan.create({
    data: { target: `https://${domain}/`, activeTarget: `https://${domain}/`, url: `https://${domain}/`, domain, state: 'scoring' },
  });
  // Most checks of the catalog, one left out (no result: an empty cell), statuses varying by company.
  const checks = CHECK_CATALOG.slice(1).map((c, i) => ({
    id: c.id, name: c.name, layer: c.layer, tier: c.tier, label: c.label, bonus: c.bonus, status: STATUSES[(i + seed) % 5],
    earned: 0, points: c.points, evidence: null, fix: null,
  }));
  await commitEnding(
    { db, queue: t.runtime.jobs, scanEnded: t.runtime.scanEnded, clock, logger: t.runtime.logger, publicUrl: 'http://localhost' },
    scan.id,
    {
      ending: 'finished', cause: null, score, grade: gradeOf(score) as 'A', summary: `Scored ${score}.`, siteName: domain,
      checks: checks as never, layers: [{ id: 'discovery', weight: 25, score }] as never, ...(catalogVersion ? { catalogVersion } : {}),
    },
  );
  now = new Date(now.getTime() + 60_000);
}

beforeAll(async () => {
  t = await startTestServer({ clock });
  await ensureCategory(t.runtime.db, 'payments', 'Payments');
  const names = ['Acme, Inc.', 'The "Quoted" Co', 'Line\nBreak Ltd', 'Plain', '=SUM(A1)', 'Ünïcode GmbH'];
  for (const [i, name] of names.entries()) {
    const domain = `company-${i}.example`;
    await insertCompany(t.runtime.db, { name, domain, score: null, category: i % 2 ? 'payments' : null });
    await endScan(domain, 15 * i + 10, i, i === 3 ? undefined : '2026.11.1');
  }
  await insertCompany(t.runtime.db, { name: 'Never scanned', domain: 'never.example', score: null });
  await endScan('community-a.example', 55, 2, '2026.11.1');
  await t.runtime.leaderboard.fillDetails();
});

afterAll(async () => {
  await t?.close();
});

async function download(format: 'csv' | 'jsonl', search = ''): Promise<{ rows: Array<Record<string, unknown>>; res: Response }> {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/dataset.${format}${search}`);
  const text = await res.text();
  if (format === 'jsonl') return { res, rows: text.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
  const records = parse(text, { columns: true, relax_quotes: false }) as Array<Record<string, string>>;
  // CSV cells are text: numbers and empty cells back to what JSON Lines holds, a formula's neutralising quote off.
  return {
    res,
    rows: records.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'score' ? Number(v) : v === '' ? null : csvCellValue(v)]))),
  };
}

async function operationThree(domain: string): Promise<Record<string, unknown>> {
  const company = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domain}?community=include`)).json()) as LeaderboardSchemas['CompanyDetail'];
  const report = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domain}/report?community=include`)).json()) as { catalogVersion?: string | null };
  const statuses = new Map<string, string>((company.checks ?? []).map((c: { id: string; status: string }) => [c.id, c.status]));
  return {
    domain: company.domain, name: company.name, category: company.category?.slug ?? null, source: company.source, score: company.score,
    grade: company.grade, scannedAt: company.scannedAt, catalogVersion: report.catalogVersion ?? null, methodologyVersion: CATALOG_VERSION,
    ...Object.fromEntries(CHECK_CATALOG.map((c) => [c.id, statuses.get(c.id) ?? null])),
  };
}

test.each(['csv', 'jsonl'] as const)('every %s row equals operation 3\'s read of the same company, each ranked company once', async (format) => {
  for (const [search, population] of [['', 'curated'], ['?community=include', 'all']] as const) {
    const { rows, res } = await download(format, search);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="agent-readiness-${now.toISOString().slice(0, 10)}.${format}"`);
    const list = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard?limit=100${search ? '&community=include' : ''}`)).json()) as { items: Array<{ company: { domain: string } }> };
    expect(rows.map((r) => r.domain).sort()).toEqual(list.items.map((e: { company: { domain: string } }) => e.company.domain).sort());
    expect(rows.length).toBe(population === 'all' ? 7 : 6);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual([...HEADER]);
      expect(row).toEqual(await operationThree(row.domain as string));
    }
  }
});

test('the header and the escaping of CSV; a category narrows the rows; an unknown one has none', async () => {
  const text = await (await fetch(`${t.leaderboardUrl}/v1/leaderboard/dataset.csv`)).text();
  expect(text.split('\r\n')[0]).toBe(['domain', 'name', 'category', 'source', 'score', 'grade', 'scannedAt', 'catalogVersion', 'methodologyVersion', ...CHECK_CATALOG.map((c) => c.id)].join(','));
  expect(text).toContain('"The ""Quoted"" Co"');
  expect(text).toContain('"Line\nBreak Ltd"');
  const { rows } = await download('csv', '?category=payments');
  expect(rows.map((r) => r.name).sort()).toEqual(['Plain', 'The "Quoted" Co', 'Ünïcode GmbH']);
  expect((await download('jsonl', '?category=nothing-here')).rows).toEqual([]);
  expect((await download('csv', '?category=nothing-here')).rows).toEqual([]);
});

test('HEAD answers the headers only; a bad parameter is the contract\'s 400', async () => {
  const head = await fetch(`${t.leaderboardUrl}/v1/leaderboard/dataset.csv`, { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(await head.text()).toBe('');
  const bad = await fetch(`${t.leaderboardUrl}/v1/leaderboard/dataset.jsonl?category=Not_A_Slug`);
  expect(bad.status).toBe(400);
  expect(Object.keys((await bad.json()) as object).sort()).toEqual(['code', 'message', 'requestId']);
  const unknown = await fetch(`${t.leaderboardUrl}/v1/leaderboard/stats?format=csv`);
  expect(unknown.status).toBe(400);
});

test('batches of any size cover every company of the population exactly once', async () => {
  const whole: string[] = [];
  for await (const batch of datasetBatches(t.runtime.leaderboard, t.runtime.db, { community: 'include' }, 1000)) whole.push(...batch.map((r) => JSON.stringify(r)));
  for (const size of [1, 2, 3, 7]) {
    const rows: string[] = [];
    for await (const batch of datasetBatches(t.runtime.leaderboard, t.runtime.db, { community: 'include' }, size)) {
      expect(batch.length).toBeLessThanOrEqual(size);
      rows.push(...batch.map((r) => JSON.stringify(r)));
    }
    expect(rows).toEqual(whole);
  }
  expect(whole).toHaveLength(7);
  // A process whose scan details are not in memory yet (just loaded) reads them from the database: the same rows.
  const fresh = new LeaderboardService({ repository: new LeaderboardRepository(t.runtime.db), changes: new LocalChangeFeed(), cursorSecret: t.runtime.secrets.cursor, clock });
  try {
    await fresh.current();
    expect(fresh.detailsKept()).toBe(0);
    const rows: string[] = [];
    for await (const batch of datasetBatches(fresh, t.runtime.db, { community: 'include' }, 1000)) rows.push(...batch.map((r) => JSON.stringify(r)));
    expect(rows.sort()).toEqual([...whole].sort());
  } finally {
    fresh.close();
    await fresh.fillDetails(); // its background pass stops at the close
  }
});

test('the hand-written CSV and JSON Lines forms read back, by csv-parse and JSON.parse, as the row whatever its text', () => {
  const text = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !/[\ud800-\udfff]/.test(s));
  const nasty = fc.oneof(text, fc.constantFrom('a,b', '"q"', 'line\nbreak', 'cr\rlf\r\n', ' lead', '=SUM(A1)', 'é✓😀', '\u0000', ''));
  const row: fc.Arbitrary<DatasetRow> = fc.record({
    domain: nasty, name: nasty, category: fc.option(nasty, { nil: null }), source: fc.constantFrom('curated' as const, 'community' as const),
    score: fc.integer({ min: 0, max: 100 }), grade: fc.constantFrom('A+', 'A', 'F'), scannedAt: fc.constant('2026-11-27T12:00:00.000Z'),
    catalogVersion: fc.option(nasty, { nil: null }), methodologyVersion: fc.constant('2026.11.27'),
    checks: fc.array(fc.option(fc.oneof(fc.constantFrom('passed', 'warning', 'failed', 'not_applicable', 'couldnt_check'), nasty), { nil: null }), { minLength: HEADER.length - 9, maxLength: HEADER.length - 9 }),
  });
  fc.assert(
    fc.property(row, (r) => {
      expect(JSON.parse(jsonLine(r))).toEqual(jsonRow(r));
      expect(jsonLine(r).endsWith('}\n') && jsonLine(r).indexOf('\n') === jsonLine(r).length - 1).toBe(true);
      const [record] = (parse(headerText('csv') + csvLine(r), { columns: true }) as Array<Record<string, string>>)
        .map((cells) => Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, csvCellValue(v)])));
      const expected = Object.fromEntries(Object.entries(jsonRow(r)).map(([k, v]) => [k, v === null ? '' : String(v)]));
      expect(record).toEqual(expected);
    }),
    { numRuns: 300, seed: 3131 },
  );
});

test(`at most ${MAX_DOWNLOADS} downloads stream at once per process; the next is the contract's 429 with Retry-After`, async () => {
  // Responses whose reader never reads: each download waits for a drain that does not come, holding its place.
  class StalledResponse extends Writable {
    constructor() {
      super({ highWaterMark: 1 });
    }
    override _write(_chunk: unknown, _encoding: string, _done: () => void): void {
      // never done: the reader is gone quiet
    }
    status() {
      return this;
    }
    setHeader() {
      return this;
    }
  }
  const handlers = openDataHandlers(openDataOf(t.runtime), t.runtime.leaderboard, t.runtime.db, clock);
  const ctx = (res: Writable) => ({ req: {} as never, res: res as never, log: t.runtime.logger, requestId: 'r', path: {} as never, query: {}, body: undefined as never });
  const stalled = Array.from({ length: MAX_DOWNLOADS }, () => new StalledResponse());
  const running = stalled.map((res, i) => (i % 2 ? handlers.getDatasetJsonl(ctx(res)) : handlers.getDatasetCsv(ctx(res))));
  await new Promise((r) => setTimeout(r, 200));
  const refused = await handlers.getDatasetCsv(ctx(new StalledResponse())).then(() => null, (err: unknown) => err);
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ status: 429, code: 'rate_limited', extraHeaders: { 'Retry-After': '10' } });
  // The readers go away: every stalled download ends, and its place is free again.
  for (const res of stalled) res.destroy();
  expect(await Promise.all(running)).toEqual(stalled.map(() => ({ status: 200, streamed: true })));
  const again = new StalledResponse();
  const next = handlers.getDatasetJsonl(ctx(again));
  await new Promise((r) => setTimeout(r, 50));
  again.destroy();
  await expect(next).resolves.toEqual({ status: 200, streamed: true });
});

// What a scan's end costs the database: with the embedded database every statement is ~1 ms on the thread that
// answers reads, and scans end several times a second. A scored scan's end (checks, layers, history point, event)
// is six statements in its transaction and none after it: the history point's ranks, predicted by the live index,
// are written in the transaction, and they are the ranks the leaderboard then answers.
import type { Tx } from '../src/jobs/queue';
import { endScan } from '../src/scans/results';
import { commitEnding } from '../src/scans/scan-job';
import { LeaderboardRepository } from '../src/leaderboard/repository';
import { insertCompany } from './support/fixtures';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';
import { check, finished } from './support/scan-outcomes';

let t: ScanTestServer;
beforeAll(async () => {
  t = await startScanTestServer({ worker: false });
  await insertCompany(t.db, { name: 'Ahead', domain: 'ahead.example', score: 95 });
  await insertCompany(t.db, { name: 'Behind', domain: 'behind.example', score: 20 });
  await insertCompany(t.db, { name: 'Community', domain: 'community.example', score: 80, source: 'community' });
  await t.runtime.changes.publish(); // inserted beside the API: an undescribed change
});
afterAll(() => t.close());

/** The transaction with every raw statement it runs recorded. */
function counting(tx: Tx, statements: string[]): Tx {
  return new Proxy(tx, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== 'function') return value;
      if (name === '$queryRawUnsafe' || name === '$executeRawUnsafe') {
        return (...args: unknown[]) => {
          statements.push(String(args[0]).replace(/\s+/g, ' ').trim().slice(0, 60));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
}

test('a scored scan ends in six statements, its history point ranked in the same transaction as the leaderboard then ranks it', async () => {
  const domain = new URL(t.urlOf('exemplary')).hostname;
  await insertCompany(t.db, { name: 'Exemplary', domain });
  // The index is loaded here (a read), as in an API process.
  expect((await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } })).data!.items).toHaveLength(3);
  const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('exemplary') } });
  const scanId = data!.scan.id;

  const statements: string[] = [];
  const { ended, point } = await t.db.prisma.$transaction(async (tx) => {
    const ended = await endScan(counting(tx, statements), scanId, finished(88, 'B', [check('llms-txt', 'passed'), check('robots-txt', 'failed')], [{ id: 'discovery', weight: 25, score: 50 }]), {
      queue: t.runtime.jobs, publicUrl: t.config.publicUrl, now: new Date(),
      ranksIf: (facts) => t.runtime.leaderboard.ranksIf(facts),
    });
    // Read before the commit: the ranks are part of the transaction, not a statement after it.
    const [point] = await tx.$queryRawUnsafe<Array<{ rank_all: number | null; rank_curated: number | null }>>(
      'SELECT rank_all, rank_curated FROM score_history WHERE scan_id = $1::uuid', scanId,
    );
    return { ended, point };
  });
  expect(statements).toHaveLength(6);
  expect(ended).toMatchObject({ scored: true, ranksRecorded: true });
  await t.runtime.changes.publish({ kind: 'companies', companies: [ended!.company!] });

  const all = (await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query: { community: 'include' } } })).data!;
  const curated = (await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query: {} } })).data!;
  expect({ all: all.rank, curated: curated.rank }).toEqual({ all: 2, curated: 2 }); // behind 95, ahead of the community 80
  expect(point).toEqual({ rank_all: all.rank, rank_curated: curated.rank });
});

test('without a live index the transaction leaves the ranks to the statement after the commit', async () => {
  const domain = new URL(t.urlOf('typical-saas')).hostname;
  await insertCompany(t.db, { name: 'Typical', domain });
  const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('typical-saas') } });
  const ended = await t.db.prisma.$transaction((tx) =>
    endScan(tx, data!.scan.id, finished(50, 'D', [check('llms-txt', 'failed')]), { queue: t.runtime.jobs, publicUrl: t.config.publicUrl, now: new Date(), ranksIf: () => null }),
  );
  expect(ended).toMatchObject({ scored: true, ranksRecorded: false });
  const point = await t.db.prisma.scoreHistory.findFirstOrThrow({ where: { scanId: data!.scan.id } });
  expect({ all: point.rankAll, curated: point.rankCurated }).toEqual({ all: null, curated: null });
});

test("after the commit this process applies the scan's end with no statement: the detail the transaction wrote is kept as written, not read back", async () => {
  const domain = new URL(t.urlOf('content-site')).hostname;
  await insertCompany(t.db, { name: 'Agent ready', domain });
  expect((await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } })).data!.items.length).toBeGreaterThan(0);
  const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('content-site') } });
  const scanId = data!.scan.id;
  const outcome = finished(77, 'C', [check('llms-txt', 'passed', 8), check('robots-txt', 'warning', 3), { ...check('sitemap', 'failed'), label: undefined } as never],
    [{ id: 'discovery', weight: 25, score: 50 }, { id: 'access', weight: 25, score: null }]);

  const after: string[] = [];
  let committed = false;
  const executeSql = t.db.executeSql.bind(t.db);
  const spy = jest.spyOn(t.db, 'executeSql').mockImplementation((sql: string, params?: unknown[]) => {
    if (committed) after.push(sql.replace(/\s+/g, ' ').trim().slice(0, 60));
    return executeSql(sql, params);
  });
  try {
    // Exactly what the scan job does after the scanner returns (scans/scan-job.ts); the runtime's own wiring.
    const rt = t.runtime;
    const deps = { db: rt.db, queue: rt.jobs, scanEnded: rt.scanEnded, clock: rt.clock, logger: rt.logger, publicUrl: t.config.publicUrl, ranksIf: rt.leaderboard.ranksIf.bind(rt.leaderboard) };
    await commitEnding(deps, scanId, outcome, undefined, () => void (committed = true));
    // Kept as soon as the end is reported, without waiting for a background pass.
    const kept = t.runtime.leaderboard.latestDetails(scanId);
    await t.runtime.leaderboard.fillDetails();
    expect(after.filter((sql) => !sql.startsWith('SELECT pg_notify'))).toEqual([]);
    // What is kept is what the database holds (the company read answers it byte for byte either way).
    const [stored] = await new LeaderboardRepository(t.db).scanDetails([scanId]);
    expect(kept).toEqual(JSON.parse(stored.detail));
    expect(kept!.checks.map((c) => c.label)).toEqual([null, null, null]);
  } finally {
    spy.mockRestore();
  }
  const read = (await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query: {} } })).data!;
  expect(read).toMatchObject({ score: 77, layers: [{ id: 'discovery', score: 50 }, { id: 'access', score: null }] });
  expect(read.checks!.map((c) => [c.id, c.status, c.earned])).toEqual([['llms-txt', 'passed', 8], ['robots-txt', 'warning', 1.5], ['sitemap', 'failed', 0]]);
});

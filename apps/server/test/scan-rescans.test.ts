// The rescan scheduler: never-scanned curated companies first, everyone again after RESCAN_INTERVAL, spread out,
// skipping companies with a running scan, and never twice when two schedulers tick at once. Its rescans make
// 7-day movement real.
import { recordRanks } from '../src/reports/record-rank';
import { RescanScheduler } from '../src/rescans/scheduler';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

const DAY = 86_400_000;
let now = new Date('2026-11-01T12:00:00.000Z');
let t: ScanTestServer;
const personas = ['exemplary', 'typical-saas', 'content-site'] as const;
const domains = ['exemplary-co.test', 'typical-saas.test', 'fern-journal.test'];

beforeAll(async () => {
  t = await startScanTestServer({ clock: () => now });
  for (const [i, persona] of personas.entries()) {
    await t.db.prisma.company.create({ data: { name: `Curated ${i}`, website: t.urlOf(persona), domain: domains[i], source: 'curated' } });
  }
});
afterAll(() => t.close());

const scheduler = () =>
  new RescanScheduler({
    db: t.db, scans: t.runtime.scans, queue: t.runtime.jobs, clock: () => now, logger: t.runtime.logger,
    intervalMs: 7 * DAY, concurrency: 2, tickMs: 60_000,
  });

async function allEnded() {
  await pollUntil('every scan to end', async () => (await t.db.prisma.scan.count({ where: { state: { not: 'ended' } } })) === 0, 30_000);
}

test('never-scanned curated companies are scanned at the first tick, once, even with two schedulers', async () => {
  const [a, b] = await Promise.all([scheduler().tick(), scheduler().tick()]);
  expect(a + b).toBe(3);
  expect(await t.db.prisma.scan.count({ where: { origin: 'rescan' } })).toBe(3);
  await allEnded();
  const scored = await t.db.prisma.company.findMany({ where: { source: 'curated', score: { not: null } } });
  expect(scored).toHaveLength(3);
  expect(await scheduler().tick()).toBe(0); // nothing is due within the interval
});

test('after the interval each tick rescans a share of the list; rescans feed 7-day movement', async () => {
  now = new Date(now.getTime() + 8 * DAY);
  // ceil(3 companies × 1 minute / 7 days) = 1 rescan per tick.
  expect(await scheduler().tick()).toBe(1);
  const running = await t.db.prisma.scan.findFirstOrThrow({ where: { state: { not: 'ended' } } });
  expect(await scheduler().tick()).toBe(1);
  expect(await scheduler().tick()).toBe(1);
  expect(await scheduler().tick()).toBe(0);
  // The first rescan is still counted as this interval's: no second scan of that company.
  expect(await t.db.prisma.scan.count({ where: { domain: running.domain, createdAt: { gt: new Date(now.getTime() - DAY) } } })).toBe(1);
  await allEnded();

  const { data } = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'exemplary-co.test' }, query: {} } });
  expect(data!.scoreChange7d).toBe(0); // the same persona, the same score a week apart
  expect(data!.rankChange7d).toBe(0);
  expect(data!.newThisWeek).toBe(false);
  const history = await t.db.prisma.scoreHistory.count({ where: { company: { domain: 'exemplary-co.test' } } });
  expect(history).toBe(2);
});

test('each history point records the rank its company had right after the scan: from the live index, or from SQL without one', async () => {
  // The index is loaded (a read), so the scans' ends below take their ranks from it, in their transactions.
  expect((await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } })).data!.items).toHaveLength(3);
  now = new Date(now.getTime() + 8 * DAY);
  for (let i = 0; i < 3; i++) await scheduler().tick();
  await allEnded();
  for (const domain of domains) {
    const company = await t.db.prisma.company.findUniqueOrThrow({ where: { domain } });
    const latest = await t.db.prisma.scoreHistory.findFirstOrThrow({ where: { companyId: company.id }, orderBy: { recordedAt: 'desc' } });
    const all = (await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query: { community: 'include' } } })).data!;
    const curated = (await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain }, query: {} } })).data!;
    expect({ domain, all: latest.rankAll, curated: latest.rankCurated }).toEqual({ domain, all: all.rank, curated: curated.rank });
    // Without an index (a worker on its own), the same ranks are counted in SQL.
    await t.db.prisma.scoreHistory.update({ where: { id: latest.id }, data: { rankAll: null, rankCurated: null } });
    await recordRanks(t.db, latest.scanId!, company.id);
    const again = await t.db.prisma.scoreHistory.findUniqueOrThrow({ where: { id: latest.id } });
    expect({ domain, all: again.rankAll, curated: again.rankCurated }).toEqual({ domain, all: all.rank, curated: curated.rank });
  }
});

// The rescan scheduler: never-scanned curated companies first, everyone again after RESCAN_INTERVAL, spread out,
// skipping companies with a running scan, and never twice when two schedulers tick at once. Its rescans make
// 7-day movement real. (The pacing at census scale, jitter and politeness: rescan-census.test.ts.)
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
    // Due now on the test's clock (an import's default is the database's now(), which this clock is not).
    await t.db.prisma.company.create({ data: { name: `Curated ${i}`, website: t.urlOf(persona), domain: domains[i], source: 'curated', nextScanAt: now } });
  }
});
afterAll(() => t.close());

const scheduler = () =>
  new RescanScheduler({
    db: t.db, scans: t.runtime.scans, queue: t.runtime.jobs, clock: () => now, logger: t.runtime.logger,
    intervalMs: 7 * DAY, concurrency: 2, tickMs: 60_000,
  });

async function allEnded() {
  await pollUntil('every scan to end', async () => (await t.db.prisma.scan.count({ where: { state: { not: 'ended' } } })) === 0, 120_000);
}

test('never-scanned curated companies are scanned at the first tick, once, even with two schedulers', async () => {
  const [a, b] = await Promise.all([scheduler().tick(), scheduler().tick()]);
  expect(a + b).toBe(3);
  expect(await t.db.prisma.scan.count({ where: { origin: 'rescan' } })).toBe(3);
  await allEnded();
  const scored = await t.db.prisma.company.findMany({ where: { source: 'curated', score: { not: null } } });
  expect(scored).toHaveLength(3);
  expect(await scheduler().tick()).toBe(0); // nothing is due within the interval
  // Census scans took their address's turn (SCAN_IP_GAP, rescans/ip-turns.ts): the sandbox's sites are on loopback.
  const turns = await t.db.executeSql(`SELECT ip FROM scan_ip_turns`);
  expect((turns.rows as Array<{ ip: string }>).map((r) => r.ip)).toEqual(['127.0.0.1']);
});

test('after the interval each tick rescans a share of the list; rescans feed 7-day movement', async () => {
  now = new Date(now.getTime() + 8 * DAY);
  // 3 companies a week is one every 2.3 days; a tick's budget is capped at one tick's worth plus one (no catch-up).
  expect(await scheduler().tick()).toBe(1);
  const running = await t.db.prisma.scan.findFirstOrThrow({ where: { state: { not: 'ended' } } });
  expect(await scheduler().tick()).toBe(0); // the same moment: no budget left
  now = new Date(now.getTime() + 2.5 * DAY);
  expect(await scheduler().tick()).toBe(1);
  now = new Date(now.getTime() + 2.5 * DAY);
  expect(await scheduler().tick()).toBe(1);
  now = new Date(now.getTime() + 2.5 * DAY);
  expect(await scheduler().tick()).toBe(0); // everyone rescanned: nothing due
  // The first rescan is still counted as this interval's: no second scan of that company.
  expect(await t.db.prisma.scan.count({ where: { domain: running.domain, createdAt: { gt: new Date(now.getTime() - 8 * DAY) } } })).toBe(1);
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
  for (let i = 0; i < 3; i++) {
    expect(await scheduler().tick()).toBe(1);
    now = new Date(now.getTime() + 2.5 * DAY);
  }
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

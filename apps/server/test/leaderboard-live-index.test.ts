// How the live index changes: a reload asked for while a load runs is in the index the next read gets; 7-day
// movement follows the clock at every read (cached answers included) without loading the ranking again.
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

const DAY = 86_400_000;
let now = new Date('2026-11-22T12:00:00.000Z');
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => now });
  await insertCompany(t.runtime.db, { name: 'First', domain: 'first.example', score: 50 });
});
afterAll(() => t.close());

const domains = async () => [...(await t.runtime.leaderboard.current()).items()].map((i) => i.company.domain).sort();

test('a reload asked for while a load is running is in the index the next read gets', async () => {
  const service = t.runtime.leaderboard;
  service.invalidate();
  const early = service.current(); // a load starts and reads the companies before the change below
  await insertCompany(t.runtime.db, { name: 'During', domain: 'during.example', score: 60 });
  await t.runtime.changes.publish(); // an undescribed change: reload
  expect(await domains()).toContain('during.example');
  await early;
});

test('7-day movement follows the clock at every read, cached answers included, without a load', async () => {
  const service = t.runtime.leaderboard;
  // Rising: 30 six days ago, 80 now. Falling: 90 eight days ago, 40 now. Both were last scanned an hour ago.
  const hourAgo = new Date(now.getTime() - 3_600_000);
  await insertCompany(t.runtime.db, { name: 'Rising', domain: 'rising.example', score: 80, scannedAt: hourAgo, history: [[30, new Date(now.getTime() - 6 * DAY)], [80, hourAgo]] });
  await insertCompany(t.runtime.db, { name: 'Falling', domain: 'falling.example', score: 40, scannedAt: hourAgo, history: [[90, new Date(now.getTime() - 8 * DAY)], [40, hourAgo]] });
  await t.runtime.changes.publish();
  const read = async () => {
    const body = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard?limit=10`)).json()) as { items: Array<{ company: { domain: string }; rank: number; scoreChange7d: number | null; rankChange7d: number | null; newThisWeek: boolean }> };
    const company = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/rising.example`)).json()) as { scoreChange7d: number | null; newThisWeek: boolean };
    return { list: Object.fromEntries(body.items.map((e) => [e.company.domain, e])), company };
  };
  const before = await read();
  await read(); // answered twice: the second from the response cache
  expect(before.list['rising.example']).toMatchObject({ rank: 1, scoreChange7d: null, rankChange7d: null, newThisWeek: true });
  expect(before.list['falling.example']).toMatchObject({ rank: 4, scoreChange7d: -50, rankChange7d: 1 - 4, newThisWeek: false });
  const loads = service.loads;
  expect(loads).toBeGreaterThan(0);
  const version = service.currentVersion();

  now = new Date(now.getTime() + DAY); // Rising's score of six days ago crosses the week boundary
  expect(service.currentVersion()).not.toBe(version);
  const after = await read();
  expect(after.list['rising.example']).toMatchObject({ rank: 1, scoreChange7d: 50, rankChange7d: 2 - 1, newThisWeek: false });
  expect(after.company).toMatchObject({ scoreChange7d: 50, newThisWeek: false });
  expect(after.list['falling.example']).toMatchObject({ rank: 4, scoreChange7d: -50, rankChange7d: 1 - 4 });
  expect(service.loads).toBe(loads);
});

// Changes no notification brought are found: every write to a company row takes a new change version (a trigger),
// and the leaderboard's catch-up reads the rows changed past its low-water mark and applies the ones it has not
// applied (leaderboard/catch-up.ts). Here the writes are made beside the API, with no publish at all (what a lost
// notification leaves behind), on both databases. The mark's rules (versions that commit out of order, the window)
// and the readiness rule are checked on their own below.
import { ChangeWatermark, LOAD_SLACK_VERSIONS, WINDOW_MS } from '../src/leaderboard/catch-up';
import { assertHearsChanges, FEED_GRACE_MS } from '../src/leaderboard/readiness';
import { NotReady } from '../src/health';
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let t: TestServer;
beforeAll(async () => {
  // No periodic catch-up (PostgreSQL's runs every 2 s): it could apply the change between the write and the read
  // that shows nobody told the index. The tests call catchUp themselves.
  t = await startTestServer({ changeCheckMs: 0 });
  await insertCompany(t.runtime.db, { name: 'Quiet', domain: 'quiet.example', score: 40 });
  await insertCompany(t.runtime.db, { name: 'Other', domain: 'other.example', score: 70 });
});
afterAll(() => t.close());

const scoreOf = async (domain: string) =>
  ((await (await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domain}`)).json()) as { score: number | null }).score;

test('a change written without a notification is applied by the next catch-up, without a full load', async () => {
  expect(await scoreOf('quiet.example')).toBe(40); // loads the index
  const loads = t.runtime.leaderboard.loads;
  const versionOf = async () =>
    Number((await t.runtime.db.executeSql(`SELECT change_version::float8 AS v FROM companies WHERE domain = 'quiet.example'`)).rows[0].v);
  const before = await versionOf();
  await t.runtime.db.executeSql(`UPDATE companies SET score = 95, grade = 'A+' WHERE domain = 'quiet.example'`);
  expect(await versionOf()).toBeGreaterThan(before); // the trigger gave the row a new version
  expect(await scoreOf('quiet.example')).toBe(40); // nobody told the index
  await t.runtime.leaderboard.catchUp();
  expect(await scoreOf('quiet.example')).toBe(95);
  const list = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard`)).json()) as { items: Array<{ company: { domain: string } }> };
  expect(list.items[0].company.domain).toBe('quiet.example');
  expect(t.runtime.leaderboard.loads).toBe(loads);
  expect(t.runtime.leaderboard.freshness()).toMatchObject({ loaded: true, missed: 1 });
});

test('a company inserted without a notification is ranked after the next catch-up', async () => {
  await insertCompany(t.runtime.db, { name: 'Newcomer', domain: 'newcomer.example', score: 55 });
  await t.runtime.leaderboard.catchUp();
  const list = (await (await fetch(`${t.leaderboardUrl}/v1/leaderboard`)).json()) as { total: number; items: Array<{ company: { domain: string } }> };
  expect(list.items.map((e) => e.company.domain)).toContain('newcomer.example');
});

test('a change already applied from its notification is not read again', async () => {
  const before = t.runtime.leaderboard.freshness().missed;
  await t.runtime.leaderboard.catchUp();
  await t.runtime.leaderboard.catchUp();
  expect(t.runtime.leaderboard.freshness().missed).toBe(before);
});

describe('the low-water mark', () => {
  test('a version that commits after a higher one is still found within the window, and applied once', () => {
    const w = new ChangeWatermark();
    const t0 = 1_000_000;
    w.loaded(10_000, [], t0);
    const low = w.low(t0);
    expect(low).toBe(10_000 - LOAD_SLACK_VERSIONS);
    w.heard(10_002); // a notification
    // A check sees 10,001 (no notification) and 10,002 (heard): only 10,001 is missed.
    expect(w.plan([{ id: 'a', version: 10_001 }, { id: 'b', version: 10_002 }])).toEqual({ missed: ['a'], reload: false });
    w.checked([{ id: 'a', version: 10_001 }, { id: 'b', version: 10_002 }], t0 + 2_000);
    // 9,999 was taken before 10,002 but commits later, with its notification lost: still above the mark, so found.
    expect(w.low(t0 + 4_000)).toBeLessThan(9_999);
    expect(w.plan([{ id: 'c', version: 9_999 }, { id: 'a', version: 10_001 }, { id: 'b', version: 10_002 }]).missed).toEqual(['c']);
  });

  test('the mark moves up to what a check saw once the window has passed, and forgets what it covers', () => {
    const w = new ChangeWatermark();
    const t0 = 5_000_000;
    w.loaded(0, [], t0);
    w.checked([{ id: 'a', version: 7 }], t0 + 1_000);
    expect(w.low(t0 + 1_000 + WINDOW_MS - 1)).toBe(0);
    expect(w.low(t0 + 1_000 + WINDOW_MS)).toBe(7);
    w.checked([], t0 + 2_000 + WINDOW_MS);
    expect(w.plan([{ id: 'b', version: 8 }]).missed).toEqual(['b']);
  });

  test('more changed rows than a catch-up reads ask for a full reload', () => {
    const w = new ChangeWatermark();
    w.loaded(0, [], 0);
    const rows = Array.from({ length: 10_001 }, (_, i) => ({ id: `c${i}`, version: i + 1 }));
    expect(w.plan(rows)).toEqual({ missed: [], reload: true });
  });
});

describe('readiness', () => {
  const leaderboard = (loaded: boolean, lastCheckAt: number | null) => ({ freshness: () => ({ loaded, lastCheckAt, missed: 0, failedChecks: 0 }) });
  const feed = (state: 'live' | 'down' | 'catching-up', since: number) => ({ status: () => ({ state, since, reconnects: 1 }) });
  const check = (f: ReturnType<typeof feed>, l: ReturnType<typeof leaderboard>, now: number) =>
    assertHearsChanges(f as never, l as never, 2_000, now);

  test('a feed down past the grace, or catching up, is not ready; a blip is', () => {
    const now = 100_000;
    expect(() => check(feed('down', now - FEED_GRACE_MS - 1_000), leaderboard(true, now), now)).toThrow(NotReady);
    expect(() => check(feed('down', now - FEED_GRACE_MS - 1_000), leaderboard(true, now), now)).toThrow(/change feed has been down for 4 s/);
    expect(() => check(feed('catching-up', now), leaderboard(true, now), now)).toThrow(/catching up/);
    expect(() => check(feed('down', now - 500), leaderboard(true, now), now)).not.toThrow();
    expect(() => check(feed('live', now - 60_000), leaderboard(true, now), now)).not.toThrow();
  });

  test('an index not checked against the database for long is not ready; a process without an index is', () => {
    const now = 100_000;
    expect(() => check(feed('live', 0), leaderboard(true, now - 11_000), now)).toThrow(/not been checked against the database for 11 s/);
    expect(() => check(feed('down', 0), leaderboard(false, null), now)).not.toThrow();
  });
});

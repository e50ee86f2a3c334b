// The model test of the live index: random sequences of scan endings (curated companies, some scored for the first
// time, and community companies appearing), category changes and clock moves. After every step, every read
// (operations 1-3: the list in both populations, every sort and order, walked page by page with cursors, with `q`
// and `category`; the categories; every company, with and without community) of the process where the change
// happened equals at once, byte for byte, a from-scratch computation: a service that loads the ranking from the
// database now (the start-up path), and the reference ranking of test/support/reference-ranking.ts (the full rebuild
// the service did before). With PostgreSQL the same holds for a second process (its own runtime, change-feed
// connection and HTTP listener) once the notification has arrived. Neither process loads the ranking again: every
// change is applied in place, the other process's from the notification's payload.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createLeaderboardListener, createLeaderboardReadCache } from '../src/apps';
import { LocalChangeFeed } from '../src/changes';
import { createLogger } from '../src/logger';
import { LeaderboardRepository } from '../src/leaderboard/repository';
import { LeaderboardService } from '../src/leaderboard/service';
import { SORTS, type Order, type SortKey } from '../src/leaderboard/ranking';
import { createRuntime, type Runtime } from '../src/runtime';
import { commitEnding } from '../src/scans/scan-job';
import { ensureCategory, gradeOf, insertCompany } from './support/fixtures';
import { startTestServer, type TestServer } from './support/harness';
import { buildSnapshot, sortedView, type Snapshot } from './support/reference-ranking';

const DAY = 86_400_000;
const SLUGS = ['payments', 'search', 'travel'];
const SYLLABLES = ['al', 'bo', 'Ca', 'de', 'ex', 'lab', 'io', ' '];
let now = new Date('2026-11-22T12:00:00.000Z');
const clock = () => now;

let t: TestServer;
let other: Runtime;
let otherServer: http.Server;
let otherUrl: string;
let otherCache: ReturnType<typeof createLeaderboardReadCache>;
const domains: string[] = [];
const categoryIds: Array<string | null> = [null];

beforeAll(async () => {
  t = await startTestServer({ clock });
  const db = t.runtime.db;
  for (const slug of SLUGS) categoryIds.push(await ensureCategory(db, slug, slug.toUpperCase()));
  let seed = 11;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < 24; i++) {
    const name = `${Array.from({ length: 2 + rnd(3) }, () => SYLLABLES[rnd(SYLLABLES.length)]).join('').trim()} ${i}`;
    const domain = `${name.toLowerCase().replace(/[^a-z0-9]/g, '')}.example`;
    const scored = i % 4 !== 3; // a quarter are not scored yet: their first scan makes them appear
    const score = rnd(5) * 20;
    const scannedAt = new Date(now.getTime() - rnd(10) * DAY - rnd(5) * 3_600_000);
    const history: Array<[number, Date]> = scored ? [[rnd(5) * 20, new Date(scannedAt.getTime() - rnd(6) * DAY)], [score, scannedAt]] : [];
    await insertCompany(db, { name, domain, score: scored ? score : null, scannedAt, category: [null, ...SLUGS][rnd(4)], history });
    domains.push(domain);
  }
  // A second process with PostgreSQL; PGlite belongs to one process, so there the only process is checked.
  other = db.kind === 'postgres' ? await createRuntime(t.config, { logger: createLogger('silent'), db, prepare: false, clock }) : t.runtime;
  otherCache = createLeaderboardReadCache(other);
  otherServer = http.createServer(createLeaderboardListener(other, otherCache));
  await new Promise<void>((r) => otherServer.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(otherServer.address() as AddressInfo).port}`;
  await t.runtime.leaderboard.current();
  await other.leaderboard.current();
});

afterAll(async () => {
  otherServer?.close();
  if (other && other !== t.runtime) await other.close();
  await t?.close();
});

type Command =
  | { kind: 'scan'; target: number; score: number; checks: number }
  | { kind: 'community'; score: number }
  | { kind: 'category'; target: number; category: number }
  | { kind: 'clock'; ms: number };

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant<'scan'>('scan'), target: fc.nat(1000), score: fc.integer({ min: 0, max: 5 }).map((s) => s * 20), checks: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant<'community'>('community'), score: fc.integer({ min: 0, max: 100 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant<'category'>('category'), target: fc.nat(1000), category: fc.nat(SLUGS.length) }) },
  // Mostly whole days, so scores recorded in the last week cross its boundary during a run.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant<'clock'>('clock'), ms: fc.constantFrom(DAY, 3 * DAY, 3_600_000, 1) }) },
);

let communities = 0;

async function run(command: Command): Promise<void> {
  const db = t.runtime.db;
  switch (command.kind) {
    case 'scan':
    case 'community': {
      const domain = command.kind === 'scan' ? domains[command.target % domains.length] : `community-${communities++}.example`;
      if (command.kind === 'community') domains.push(domain);
      const scan = await db.prisma.scan.create({
        data: { target: `https://${domain}/`, activeTarget: `https://${domain}/`, url: `https://${domain}/`, domain, state: 'scoring' },
      });
      const checks = Array.from({ length: command.kind === 'scan' ? command.checks : 1 }, (_, i) => ({
        id: `check-${i}`, name: `Check ${i}`, layer: 'discovery' as const, tier: 'required' as const, label: null, bonus: i === 2,
        status: (i % 2 ? 'failed' : 'passed') as 'passed', earned: i % 2 ? 0 : 2.5, points: 5, evidence: null, fix: null,
      }));
      const layers = checks.length > 0 ? [{ id: 'discovery' as const, weight: 40, score: command.score }] : [];
      // Exactly what the scan job does: one transaction, then the change published (applied here before it returns).
      await commitEnding(
        { db, queue: t.runtime.jobs, scanEnded: t.runtime.scanEnded, clock, logger: t.runtime.logger, publicUrl: 'http://localhost' },
        scan.id,
        { ending: 'finished', cause: null, score: command.score, grade: gradeOf(command.score) as 'A', summary: `Scored ${command.score}.`, siteName: `Site ${domain.slice(0, 12)}`, checks: checks as never, layers: layers as never },
      );
      return;
    }
    case 'category': {
      const domain = domains[command.target % domains.length];
      const { id } = await db.prisma.company.update({ where: { domain }, data: { categoryId: categoryIds[command.category] }, select: { id: true } });
      await t.runtime.changes.publish({ kind: 'ids', ids: [id] }); // a category change says which company changed
      return;
    }
    case 'clock':
      now = new Date(now.getTime() + command.ms);
  }
}

interface Query {
  community?: 'include';
  sort?: SortKey;
  order?: Order;
  q?: string;
  category?: string;
  limit: number;
}

const QUERIES: Query[] = [];
for (const community of [undefined, 'include'] as const) {
  for (const sort of Object.keys(SORTS) as SortKey[]) for (const order of ['asc', 'desc'] as const) QUERIES.push({ community, sort, order, limit: 5 });
  for (const q of ['a', 'bo', 'lab', 'ex 1', 'community', '.example', 'zz']) QUERIES.push({ community, q, limit: 4 });
  for (const category of [...SLUGS, 'unknown']) QUERIES.push({ community, category, sort: 'company', limit: 3 }, { community, category, q: 'o', order: 'asc', limit: 3 });
}

function oracleService(): LeaderboardService {
  return new LeaderboardService({ repository: new LeaderboardRepository(t.runtime.db), changes: new LocalChangeFeed(), cursorSecret: t.runtime.secrets.cursor, clock });
}

/** The differences between a process's reads and the from-scratch ones (empty: equal). */
async function differences(service: LeaderboardService, baseUrl: string, fresh: LeaderboardService, reference: Snapshot): Promise<string[]> {
  const found: string[] = [];
  for (const query of QUERIES) {
    const view = reference.populations[query.community === 'include' ? 'all' : 'curated'];
    const sort = query.sort ?? 'score';
    const expected = sortedView(view, sort, query.order ?? SORTS[sort].defaultOrder)
      .list.filter((e) => (query.category === undefined || e.company.category?.slug === query.category) && (query.q === undefined || e.searchKey.includes(query.q.toLowerCase())))
      .map((e) => e.json);
    let cursor: string | undefined;
    let seen = 0;
    for (let page = 0; page < 40; page++) {
      const got = JSON.stringify(await service.list({ ...query, cursor }));
      const want = await fresh.list({ ...query, cursor });
      if (got !== JSON.stringify(want)) found.push(`list ${JSON.stringify(query)} page ${page}: ${got} != ${JSON.stringify(want)}`);
      if (JSON.stringify(want.items) !== JSON.stringify(expected.slice(seen, seen + query.limit)) || want.total !== expected.length) {
        found.push(`reference ${JSON.stringify(query)} page ${page}`);
      }
      seen += want.items.length;
      if (!want.nextCursor) break;
      cursor = want.nextCursor;
    }
    if (seen !== expected.length) found.push(`walk ${JSON.stringify(query)}: ${seen} of ${expected.length}`);
  }
  for (const domain of domains) {
    for (const include of [false, true]) {
      const got = JSON.stringify(await service.company(domain, include));
      const want = await fresh.company(domain, include);
      if (got !== JSON.stringify(want)) found.push(`company ${domain} ${include}: ${got} != ${JSON.stringify(want)}`);
      const entry = reference.populations[include ? 'all' : 'curated'].byDomain.get(domain);
      if (want && entry && (want.rank !== entry.rank || want.categoryRank !== entry.categoryRank || want.rankChange7d !== entry.json.rankChange7d || want.scoreChange7d !== entry.json.scoreChange7d || want.newThisWeek !== entry.json.newThisWeek)) {
        found.push(`company reference ${domain} ${include}`);
      }
    }
  }
  // Over HTTP, each URL twice (the second answer may come from the response cache, which must not be stale).
  const urls: Array<[string, () => Promise<unknown>]> = [
    // Every entry: any 7-day fact the clock moves shows here.
    ['/v1/leaderboard?community=include&limit=100', () => fresh.list({ community: 'include', limit: 100 })],
    ['/v1/leaderboard?limit=5', () => fresh.list({ limit: 5 })],
    ['/v1/leaderboard?community=include&sort=scanned&limit=5', () => fresh.list({ community: 'include', sort: 'scanned', limit: 5 })],
    ['/v1/leaderboard?q=bo&limit=5', () => fresh.list({ q: 'bo', limit: 5 })],
    ['/v1/leaderboard?category=travel&limit=5', () => fresh.list({ category: 'travel', limit: 5 })],
    ['/v1/leaderboard/categories', async () => ({ items: await fresh.categories() })],
    ...domains.slice(0, 4).map((d): [string, () => Promise<unknown>] => [`/v1/leaderboard/companies/${d}?community=include`, () => fresh.company(d, true)]),
  ];
  for (const [path, want] of urls) {
    const expectedText = JSON.stringify(await want());
    for (let i = 0; i < 2; i++) {
      const text = await (await fetch(baseUrl + path)).text();
      if (text !== expectedText) found.push(`GET ${path} (${i}): ${text} != ${expectedText}`);
    }
  }
  return found;
}

test('after every scan ending, category change, community company and clock move, every read equals a from-scratch computation, on every process', async () => {
  const loads = [t.runtime.leaderboard.loads, other.leaderboard.loads];
  let steps = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(commandArb, { minLength: 4, maxLength: 8 }), async (commands) => {
      for (const command of commands) {
        await run(command);
        steps++;
        const fresh = oracleService();
        const repository = new LeaderboardRepository(t.runtime.db);
        const reference = buildSnapshot(await repository.scoredCompanies(), await repository.historyFacts(now), now);
        // This process: at once, nothing awaited between the change and the reads.
        expect({ step: command, differences: await differences(t.runtime.leaderboard, t.leaderboardUrl, fresh, reference) }).toEqual({ step: command, differences: [] });
        // The other process: once the notification has arrived and been applied (polled; the deadline catches a hang).
        let found = await differences(other.leaderboard, otherUrl, fresh, reference);
        for (const until = Date.now() + 120_000; Date.now() < until && found.length > 0;) {
          await new Promise((r) => setTimeout(r, 20));
          found = await differences(other.leaderboard, otherUrl, fresh, reference);
        }
        expect({ step: command, other: found }).toEqual({ step: command, other: [] });
        fresh.close();
      }
    }),
    { numRuns: 5, seed: 2211 },
  );
  expect(steps).toBeGreaterThanOrEqual(20);
  // The response cache did answer repeated reads (so the comparisons above also checked that it is never stale).
  expect(otherCache.counts.hits).toBeGreaterThan(0);
  // Every change was applied in place: no process loaded the ranking again.
  expect([t.runtime.leaderboard.loads, other.leaderboard.loads]).toEqual(loads);
}, 600_000);

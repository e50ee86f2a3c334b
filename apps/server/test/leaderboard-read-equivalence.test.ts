// Every read answers exactly what a full pass over the ranked population would: random queries (q, category, sort,
// order, population, page size) walked page by page over HTTP, first as misses and then again as response-cache
// hits, compared with a reference that filters the from-scratch ranking entry by entry. And a scan's end shows in
// every process's reads at once, applied in place (with PostgreSQL: a second runtime that only hears of it through
// LISTEN/NOTIFY).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createLeaderboardListener } from '../src/apps';
import { createLogger } from '../src/logger';
import { LeaderboardRepository } from '../src/leaderboard/repository';
import { SORTS, type Order, type SortKey } from '../src/leaderboard/ranking';
import { SCORED_SELECT } from '../src/leaderboard/scored-company';
import { createRuntime, type Runtime } from '../src/runtime';
import { commitEnding } from '../src/scans/scan-job';
import { startTestServer, type TestServer } from './support/harness';
import { ensureCategory, gradeOf } from './support/fixtures';
import { buildSnapshot, sortedView } from './support/reference-ranking';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const SLUGS = ['payments', 'developer-tools', 'search', 'travel'];
const SYLLABLES = ['al', 'Bo', 'ca', 'de', 'ex', 'fo', 'ga', 'hi', 'io', ' ', '1', '2'];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => NOW });
  const db = t.runtime.db;
  const categoryIds = [null, ...(await Promise.all(SLUGS.map((s) => ensureCategory(db, s))))];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const companies = Array.from({ length: 260 }, (_, i) => {
    const name = Array.from({ length: 2 + rnd(4) }, () => SYLLABLES[rnd(SYLLABLES.length)]).join('').trim() || `n${i}`;
    const score = rnd(5) * 20; // many ties, so the tie rules are exercised (and 100 is left for the scan below)
    return {
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      name: `${name} ${i % 3 === 0 ? 'Labs' : ''}`.trim(),
      domain: `${name.toLowerCase().replace(/[^a-z0-9]/g, '') || 'x'}-${i}.example`,
      website: `https://site-${i}.example/`,
      source: i % 5 === 4 ? ('community' as const) : ('curated' as const),
      categoryId: categoryIds[rnd(categoryIds.length)],
      score,
      grade: gradeOf(score),
      scannedAt: new Date(NOW.getTime() - rnd(12) * 86_400_000),
    };
  });
  await db.prisma.company.createMany({ data: companies });
  await db.prisma.scoreHistory.createMany({
    data: companies.filter((_, i) => i % 2 === 0).map((c, i) => ({ companyId: c.id, score: (c.score + i) % 101, grade: 'C', recordedAt: new Date(NOW.getTime() - 9 * 86_400_000) })),
  });
});
afterAll(() => t.close());

interface Query {
  q?: string;
  category?: string;
  sort?: SortKey;
  order?: Order;
  community?: 'include';
  limit: number;
}

/** The reference: the from-scratch ranking's sorted population filtered entry by entry (no indexes). */
async function reference(query: Query) {
  const repository = new LeaderboardRepository(t.runtime.db);
  const snap = buildSnapshot(await repository.scoredCompanies(), await repository.historyFacts(NOW), NOW);
  const sort = query.sort ?? 'score';
  const order = query.order ?? SORTS[sort].defaultOrder;
  const { list } = sortedView(snap.populations[query.community === 'include' ? 'all' : 'curated'], sort, order);
  const q = query.q?.toLowerCase();
  return list
    .filter((e) => (query.category === undefined || e.company.category?.slug === query.category) && (q === undefined || e.searchKey.includes(q)))
    .map((e) => e.json);
}

function pathOf(query: Query, cursor: string | null): string {
  const params = Object.entries({ ...query, cursor: cursor ?? undefined }).filter(([, v]) => v !== undefined);
  return `/v1/leaderboard?${params.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&')}`;
}

const queryArb: fc.Arbitrary<Query> = fc.record(
  {
    q: fc.oneof(
      fc.constantFrom('a', 'al', 'bo', 'labs', 'ex 1', '1', '-1', '.example', 'zzz', 'caca', 'io', 'BO'),
      fc.stringMatching(/^[abcdeilo 12x.-]{1,5}$/),
      // Runs of syllables: their trigrams occur all over the names, mostly not together.
      fc.array(fc.constantFrom(...SYLLABLES), { minLength: 2, maxLength: 3 }).map((s) => s.join('')),
    ),
    category: fc.constantFrom(...SLUGS, 'unknown-slug'),
    sort: fc.constantFrom<SortKey>('score', 'company', 'category', 'scanned'),
    order: fc.constantFrom<Order>('asc', 'desc'),
    community: fc.constant<'include'>('include'),
    limit: fc.integer({ min: 1, max: 40 }),
  },
  { requiredKeys: ['limit'] },
);

test('random queries walked page by page answer exactly what a full pass would, as misses and as cache hits', async () => {
  await fc.assert(
    fc.asyncProperty(queryArb, async (query) => {
      const expected = await reference(query);
      const seen: unknown[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 12; page++) {
        const path = pathOf(query, cursor);
        const miss = await fetch(t.leaderboardUrl + path);
        expect(miss.status).toBe(200);
        const text = await miss.text();
        const hit = await (await fetch(t.leaderboardUrl + path)).text();
        expect(hit).toBe(text);
        const body = JSON.parse(text) as { items: unknown[]; nextCursor: string | null; total: number };
        expect(body.total).toBe(expected.length);
        expect(body.items).toEqual(expected.slice(seen.length, seen.length + query.limit));
        seen.push(...body.items);
        cursor = body.nextCursor;
        expect(cursor === null).toBe(seen.length === expected.length);
        if (!cursor) break;
      }
    }),
    { numRuns: 80, seed: 1313 },
  );
});

test("a scan's end shows at once in the reads of every process (with PostgreSQL: another process's runtime)", async () => {
  const db = t.runtime.db;
  // A second process: its own runtime, leaderboard snapshot, response cache and change-feed connection.
  const other: Runtime =
    db.kind === 'postgres'
      ? await createRuntime(t.config, { logger: createLogger('silent'), db, prepare: false, clock: () => NOW })
      : t.runtime; // PGlite belongs to one process: there is no other to tell
  const server = http.createServer(createLeaderboardListener(other));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const otherUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const target = await db.prisma.company.findFirstOrThrow({ where: { source: 'curated' }, orderBy: { score: 'asc' } });
    const readTop = async (base: string) => {
      const list = (await (await fetch(`${base}/v1/leaderboard?limit=1`)).json()) as { items: Array<{ company: { domain: string }; score: number }> };
      const company = (await (await fetch(`${base}/v1/leaderboard/companies/${target.domain}`)).json()) as { score: number; rank: number };
      return { top: list.items[0], company };
    };
    // Both processes have answered (and cached) the reads before the scan ends.
    for (const base of [t.leaderboardUrl, otherUrl]) expect((await readTop(base)).company.rank).toBeGreaterThan(1);

    const heard = new Promise<void>((resolve) => {
      const off = other.changes.subscribe(() => {
        off();
        resolve();
      });
    });
    const scan = await db.prisma.scan.create({
      data: { target: `https://${target.domain}/`, activeTarget: `https://${target.domain}/`, url: `https://${target.domain}/`, domain: target.domain, state: 'scoring' },
    });
    const loads = [t.runtime.leaderboard.loads, other.leaderboard.loads];
    const ended = await commitEnding(
      { db, queue: t.runtime.jobs, scanEnded: t.runtime.scanEnded, clock: () => NOW, logger: t.runtime.logger, publicUrl: 'http://localhost' },
      scan.id,
      { ending: 'finished', cause: null, score: 100, grade: 'A', summary: 'Perfect.', siteName: null, checks: [], layers: [] },
    );
    expect(ended).toMatchObject({ scored: true, mails: 0, company: { domain: target.domain, score: 100 } });
    // This process answers from the new ranking at once (nothing awaited between the scan's end and the read).
    expect(await readTop(t.leaderboardUrl)).toMatchObject({ top: { company: { domain: target.domain }, score: 100 }, company: { score: 100, rank: 1 } });
    await heard; // the other process hears of it (LISTEN/NOTIFY with PostgreSQL)

    for (const base of [t.leaderboardUrl, otherUrl]) {
      const { top, company } = await readTop(base);
      expect(top).toMatchObject({ company: { domain: target.domain }, score: 100 });
      expect(company).toMatchObject({ score: 100, rank: 1 });
    }
    // Applied in place from the notification's facts: neither process loaded the ranking again.
    expect([t.runtime.leaderboard.loads, other.leaderboard.loads]).toEqual(loads);
  } finally {
    server.close();
    if (other !== t.runtime) await other.close();
  }
});

test('the start-up load reads every scored company once, whatever its block ranges, as Prisma reads them', async () => {
  const db = t.runtime.db;
  const rows = await db.prisma.company.findMany({
    where: { score: { not: null }, scannedAt: { not: null } },
    select: SCORED_SELECT,
    orderBy: { id: 'asc' },
  });
  expect(rows.length).toBeGreaterThan(200);
  const blocks = Number((await db.executeSql(`SELECT (pg_relation_size('companies') / current_setting('block_size')::int)::int AS n`)).rows[0].n);
  expect(blocks).toBeGreaterThan(3); // so small ranges cross several
  for (const scoredBlocks of [1, 2, 3, 2048]) {
    const loaded = (await new LeaderboardRepository(db, { scoredBlocks }).scoredCompanies()).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect({ scoredBlocks, loaded }).toEqual({ scoredBlocks, loaded: rows });
  }
});

// The live index builds both populations from one sort of all companies at start-up, and then changes them one
// company at a time (live-index.ts). This checks both ways against the plain definition, each population ranked on
// its own: same entries, ranks, category ranks and 7-day movement, on random companies with tied scores and times,
// community companies, and companies without history.
import { LiveIndex, type CompanyFacts } from '../src/leaderboard/live-index';
import { sortFieldsOf, WEEK_MS, type HistoryFacts, type ScoredCompany } from '../src/leaderboard/ranking';
import { compareBySorts } from './support/reference-ranking';

function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

/** Each population ranked on its own (the definition: SORTS.score, read part by part); ranks a week ago likewise. */
function reference(companies: ScoredCompany[], history: HistoryFacts, now: Date) {
  const key = (score: number, at: number, c: ScoredCompany) => ({ ...sortFieldsOf(c), score, at });
  const compare = (a: ReturnType<typeof key>, b: ReturnType<typeof key>) => compareBySorts(a, b, 'score', 'desc');
  const population = (members: ScoredCompany[]) => {
    const order = [...members].sort((a, b) => compare(key(a.score, a.scannedAt.getTime(), a), key(b.score, b.scannedAt.getTime(), b)));
    const past = members
      .filter((c) => history.weekAgo.has(c.id))
      .sort((a, b) => {
        const x = history.weekAgo.get(a.id)!;
        const y = history.weekAgo.get(b.id)!;
        return compare(key(x.score, x.recordedAt.getTime(), a), key(y.score, y.recordedAt.getTime(), b));
      });
    const counts = new Map<string, number>();
    return order.map((c, i) => {
      const rank = i + 1;
      const categoryRank = c.category ? (counts.get(c.category.id) ?? 0) + 1 : null;
      if (c.category) counts.set(c.category.id, categoryRank!);
      const then = history.weekAgo.get(c.id);
      const before = past.indexOf(c);
      const first = history.firstRecordedAt.get(c.id) ?? c.scannedAt;
      return {
        categoryRank,
        json: {
          rank,
          company: { id: c.id, name: c.name, website: c.website, domain: c.domain, category: c.category, source: c.source },
          score: c.score,
          grade: c.grade,
          scoreChange7d: then ? c.score - then.score : null,
          rankChange7d: before >= 0 ? before + 1 - rank : null,
          newThisWeek: first.getTime() > now.getTime() - WEEK_MS,
          scannedAt: c.scannedAt.toISOString(),
        },
      };
    });
  };
  return { all: population(companies), curated: population(companies.filter((c) => c.source === 'curated')) };
}

test.each([1, 2, 3])('both populations rank exactly as each ranked on its own, loaded at once and one company at a time (random set %i)', (seed) => {
  const rnd = random(seed);
  const now = new Date('2026-11-23T12:00:00Z');
  const categories = [null, { id: 'c1', name: 'Shops', slug: 'shops' }, { id: 'c2', name: 'Travel', slug: 'travel' }];
  const companies: ScoredCompany[] = [];
  const history: HistoryFacts = { weekAgo: new Map(), firstRecordedAt: new Map(), recent: new Map() };
  for (let i = 0; i < 400; i++) {
    const id = `00000000-0000-4000-8000-${String(i * 7919 % 1000).padStart(12, '0')}`;
    // Few distinct scores, times and names: ties at every level of the order.
    const scannedAt = new Date(now.getTime() - Math.floor(rnd() * 20) * 86_400_000);
    const category = categories[Math.floor(rnd() * 3)];
    companies.push({
      id,
      name: `Company ${Math.floor(rnd() * 50)}`,
      website: `https://c${i}.example`,
      domain: `c${i}.example`,
      source: rnd() < 0.3 ? 'community' : 'curated',
      category: category && { ...category },
      score: Math.floor(rnd() * 10) * 10,
      grade: 'C',
      scannedAt,
      summary: null,
      latestScanId: null,
    });
    if (rnd() < 0.7) history.weekAgo.set(id, { score: Math.floor(rnd() * 10) * 10, recordedAt: new Date(now.getTime() - WEEK_MS - Math.floor(rnd() * 5) * 86_400_000) });
    if (rnd() < 0.8) history.firstRecordedAt.set(id, new Date(now.getTime() - Math.floor(rnd() * 14) * 86_400_000));
  }
  const expected = reference(companies, history, now);
  // Loaded at once (start-up), and built up one company at a time from a third of them, in random order, some
  // applied twice (a change heard again) and some first with older facts.
  const loaded = LiveIndex.load(companies, history, now);
  const third = Math.floor(companies.length / 3);
  const grown = LiveIndex.load(companies.slice(0, third), history, now);
  const factsOf = (c: ScoredCompany): CompanyFacts => {
    const then = history.weekAgo.get(c.id);
    return {
      ...c,
      category: c.category && { ...c.category },
      scannedAt: c.scannedAt.getTime(),
      history: then ? [[then.score, then.recordedAt.getTime()]] : [],
      firstRecordedAt: history.firstRecordedAt.get(c.id)?.getTime() ?? null,
    };
  };
  const rest = companies.slice(third).sort(() => rnd() - 0.5);
  for (const c of rest) {
    if (rnd() < 0.2) grown.upsert({ ...factsOf(c), score: 100 - c.score, category: null, scannedAt: c.scannedAt.getTime() - 1 });
    grown.upsert(factsOf(c));
    if (rnd() < 0.2) grown.upsert(factsOf(c));
  }
  for (const index of [loaded, grown]) {
    for (const population of ['all', 'curated'] as const) {
      const { items, total } = index.page(population, 'score', 'desc', null, null, null, companies.length);
      expect(total).toBe(expected[population].length);
      expect(items.map((item) => ({ categoryRank: index.categoryRank(item, population), json: index.entry(item, population) }))).toEqual(expected[population]);
    }
  }
  // The movement is not trivially null: the data has companies that moved up, down, and had no rank a week ago.
  const moves = expected.curated.map((e) => e.json.rankChange7d);
  expect(moves.some((m) => m !== null && m > 0) && moves.some((m) => m !== null && m < 0) && moves.includes(null)).toBe(true);
});

// A broad search (more matches than searchPage sorts, 2,048) walks the sorted list keeping the matches. Each page
// with its cursor must equal filtering and sorting everyone, search after search (the walk's marks are reused
// across searches, stamped per search, so a mark left by one search must never count in the next).
import { LiveIndex } from '../src/leaderboard/live-index';
import { keyOf } from '../src/leaderboard/ranking';

const at = new Date('2026-11-20T00:00:00.000Z');
const companies = Array.from({ length: 6000 }, (_, i) => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  name: `Company ${i}`, website: `https://c${i}.example/`, domain: `c${i}.example`,
  source: i % 7 === 0 ? 'community' : 'curated', score: (i * 37) % 101, grade: 'C',
  scannedAt: new Date(at.getTime() - (i % 13) * 3_600_000), category: null, summary: null, latestScanId: null,
})) as never[];
const index = LiveIndex.load(companies, { weekAgo: new Map(), recent: new Map(), firstRecordedAt: new Map() }, at);

/** Every page of a search, following the cursors. */
function pages(q: string, population: 'all' | 'curated', limit: number): string[][] {
  const out: string[][] = [];
  let after = null;
  for (;;) {
    const page = index.page(population, 'score', 'desc', q, null, after, limit);
    out.push(page.items.map((e) => e.company.domain));
    if (!page.hasMore) return out;
    after = keyOf(page.items[page.items.length - 1], 'score');
  }
}

test.each([
  ['company', 'all'], ['1', 'all'], ['company 1', 'curated'], ['.example', 'curated'], ['company', 'curated'], ['5', 'all'],
] as const)('q=%s (%s): every page of a broad search equals the full filter-and-sort, searched twice', (q, population) => {
  const everyone = pages('', population, 6000).flat(); // the population in rank order
  const expected = everyone.filter((domain) => `company ${domain.slice(1, -'.example'.length)}\n${domain}`.includes(q));
  expect(expected.length).toBeGreaterThan(2048 / 4); // broad: most of these are walks, not sorts
  for (let time = 0; time < 2; time++) {
    const got = pages(q, population, 500);
    expect(got.flat()).toEqual(expected);
    expect(got.slice(0, -1).every((p) => p.length === 500)).toBe(true);
  }
});

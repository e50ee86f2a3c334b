// The rank a change will give a company, read before the change is applied (the transaction that ends a scan
// records it on the history point): for random sequences of changes with ties in every part of the rank order,
// `rankIf` before `upsert` equals `rank` after it, in both populations.
import fc from 'fast-check';
import { LiveIndex, type CompanyFacts } from '../src/leaderboard/live-index';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');

const change = fc.record({
  company: fc.integer({ min: 0, max: 11 }),
  // Few values of each part, so companies tie on score, on time and on name.
  score: fc.integer({ min: 40, max: 43 }),
  minutesAgo: fc.integer({ min: 0, max: 2 }),
  name: fc.constantFrom('Alpha', 'alpha', 'Beta', 'Gamma'),
  curated: fc.boolean(),
});

function factsOf(c: { company: number; score: number; minutesAgo: number; name: string; curated: boolean }, step: number): CompanyFacts {
  return {
    id: `00000000-0000-4000-8000-${String(c.company).padStart(12, '0')}`,
    name: c.name,
    website: `https://c${c.company}.example`,
    domain: `c${c.company}.example`,
    source: c.curated ? 'curated' : 'community',
    category: null,
    score: c.score,
    grade: 'C',
    // Later steps never go back in time for one company (an older change is refused by upsert).
    scannedAt: NOW + step * 180_000 - c.minutesAgo * 60_000,
    summary: null,
    latestScanId: null,
    history: [],
    firstRecordedAt: null,
  };
}

test('the rank a change will give is the rank the change gives, in both populations', () => {
  fc.assert(
    fc.property(fc.array(change, { minLength: 1, maxLength: 40 }), (changes) => {
      const index = new LiveIndex(new Date(NOW));
      changes.forEach((c, step) => {
        const facts = factsOf(c, step);
        const predicted = { all: index.rankIf(facts, 'all'), curated: index.rankIf(facts, 'curated') };
        expect(index.upsert(facts)).toBe(true);
        const item = index.byCompanyId(facts.id)!;
        const actual = { all: index.rank(item, 'all'), curated: index.inPopulation(item, 'curated') ? index.rank(item, 'curated') : null };
        expect(predicted).toEqual(actual);
      });
    }),
    { numRuns: 300 },
  );
});

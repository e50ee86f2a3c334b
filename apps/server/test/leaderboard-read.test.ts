// Operations 1-3 through the typed client against a listening server, with response validation on.
import request from 'supertest';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

const NOW = new Date('2026-11-22T12:00:00.000Z');
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ clock: () => NOW });
  const db = t.runtime.db;
  await insertCompany(db, { name: 'Alpha', domain: 'alpha.com', score: 90, category: 'payments', scannedAt: daysAgo(1), history: [[70, daysAgo(10)], [90, daysAgo(1)]] });
  await insertCompany(db, { name: 'bravo', domain: 'bravo.io', score: 75, category: 'developer-tools', scannedAt: daysAgo(2), history: [[95, daysAgo(8)], [75, daysAgo(2)]] });
  await insertCompany(db, { name: 'Charlie', domain: 'charlie.dev', score: 75, category: 'developer-tools', scannedAt: daysAgo(3), history: [[75, daysAgo(3)]] });
  await insertCompany(db, { name: 'Delta', domain: 'delta.org', score: 40, category: null, scannedAt: daysAgo(9), history: [[40, daysAgo(9)]] });
  await insertCompany(db, { name: 'Echo Community', domain: 'echo.net', score: 99, source: 'community', category: 'payments', scannedAt: daysAgo(1), history: [[99, daysAgo(1)]] });
  await insertCompany(db, { name: 'Never Scanned', domain: 'never.example', score: null, category: 'payments' });
});
afterAll(() => t.close());

async function list(query: Record<string, unknown> = {}) {
  const { data, error, response } = await t.client.GET('/v1/leaderboard', { params: { query: query as never } });
  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return data!;
}
const domains = (page: { items: Array<{ company: { domain: string } }> }) => page.items.map((i) => i.company.domain);

test('ranks curated companies by score, ties by who reached the score first; never-scanned are not listed', async () => {
  const page = await list();
  expect(domains(page)).toEqual(['alpha.com', 'charlie.dev', 'bravo.io', 'delta.org']);
  expect(page.items.map((i) => i.rank)).toEqual([1, 2, 3, 4]);
  expect(page.total).toBe(4);
  expect(page.nextCursor).toBeNull();
});

test('community=include adds community companies and ranks them in the bigger population', async () => {
  const page = await list({ community: 'include' });
  expect(domains(page)).toEqual(['echo.net', 'alpha.com', 'charlie.dev', 'bravo.io', 'delta.org']);
  expect(page.items[0].company.source).toBe('community');
  expect(page.items[1].rank).toBe(2);
});

test.each([
  ['score', undefined, ['alpha.com', 'charlie.dev', 'bravo.io', 'delta.org']],
  ['score', 'asc', ['delta.org', 'bravo.io', 'charlie.dev', 'alpha.com']],
  ['company', undefined, ['alpha.com', 'bravo.io', 'charlie.dev', 'delta.org']],
  ['company', 'desc', ['delta.org', 'charlie.dev', 'bravo.io', 'alpha.com']],
  ['category', undefined, ['charlie.dev', 'bravo.io', 'alpha.com', 'delta.org']],
  ['category', 'desc', ['alpha.com', 'bravo.io', 'charlie.dev', 'delta.org']],
  ['scanned', undefined, ['alpha.com', 'bravo.io', 'charlie.dev', 'delta.org']],
  ['scanned', 'asc', ['delta.org', 'charlie.dev', 'bravo.io', 'alpha.com']],
])('sort=%s order=%s', async (sort, order, expected) => {
  const page = await list({ sort, ...(order ? { order } : {}) });
  expect(domains(page)).toEqual(expected);
});

test('filters: q matches name or domain case-insensitively, category by slug; ranks stay global', async () => {
  expect(domains(await list({ q: 'BRAVO' }))).toEqual(['bravo.io']);
  expect(domains(await list({ q: '.dev' }))).toEqual(['charlie.dev']);
  const tools = await list({ category: 'developer-tools' });
  expect(domains(tools)).toEqual(['charlie.dev', 'bravo.io']);
  expect(tools.items.map((i) => i.rank)).toEqual([2, 3]);
  expect(tools.total).toBe(2);
  expect((await list({ category: 'no-such-category' })).total).toBe(0);
});

test('7-day movement from stored history with a fixed clock', async () => {
  const byDomain = Object.fromEntries((await list()).items.map((i) => [i.company.domain, i]));
  // Alpha was 70 ten days ago (rank 2 of bravo 95, alpha 70), now 90 at rank 1.
  expect(byDomain['alpha.com']).toMatchObject({ scoreChange7d: 20, rankChange7d: 1, newThisWeek: false });
  // Bravo was 95 eight days ago (rank 1), now 75 at rank 3.
  expect(byDomain['bravo.io']).toMatchObject({ scoreChange7d: -20, rankChange7d: -2, newThisWeek: false });
  // Charlie's first score is three days old: new, no movement.
  expect(byDomain['charlie.dev']).toMatchObject({ scoreChange7d: null, rankChange7d: null, newThisWeek: true });
  // Delta was scored nine days ago and not since: ranked 3rd then (after bravo and alpha), 4th now.
  expect(byDomain['delta.org']).toMatchObject({ scoreChange7d: 0, rankChange7d: -1, newThisWeek: false });
});

test('company detail with ranks in population and category', async () => {
  const { data } = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'Bravo.IO' } } });
  expect(data).toMatchObject({
    domain: 'bravo.io', name: 'bravo', source: 'curated', score: 75, grade: 'B', rank: 3, rankedCompanies: 4,
    categoryRank: 2, categoryRankedCompanies: 2, scoreChange7d: -20, rankChange7d: -2, newThisWeek: false,
    category: { slug: 'developer-tools' },
  });
  const withCommunity = await t.client.GET('/v1/leaderboard/companies/{domain}', {
    params: { path: { domain: 'alpha.com' }, query: { community: 'include' } },
  });
  expect(withCommunity.data).toMatchObject({ rank: 2, rankedCompanies: 5, categoryRank: 2, categoryRankedCompanies: 2 });
});

test('a never-scanned curated company is readable with null results', async () => {
  // Not in the index (never scored): answered from the database's row, whose NULLs stay null (not 0, not 1970).
  const { data } = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'never.example' } } });
  expect(data).toEqual({
    id: expect.any(String), name: 'Never Scanned', website: 'https://never.example/', domain: 'never.example',
    category: { id: expect.any(String), name: 'payments', slug: 'payments' }, source: 'curated',
    score: null, grade: null, rank: null, rankedCompanies: null, categoryRank: null,
    categoryRankedCompanies: null, scoreChange7d: null, rankChange7d: null, newThisWeek: null, scannedAt: null,
    summary: null, layers: null, checks: null,
  });
});

test('community companies are 404 unless community=include; unknown domains are 404', async () => {
  expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard/companies/echo.net'), 404, 'not_found');
  const res = await request(t.leaderboardUrl).get('/v1/leaderboard/companies/echo.net?community=include');
  expect(res.status).toBe(200);
  expect(res.body.source).toBe('community');
  expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard/companies/unknown.example'), 404, 'not_found');
});

test('categories are listed by name', async () => {
  const { data } = await t.client.GET('/v1/leaderboard/categories');
  expect(data!.items.map((c) => c.slug)).toEqual(['developer-tools', 'payments']);
  expect(Object.keys(data!.items[0]).sort()).toEqual(['id', 'name', 'slug']);
});

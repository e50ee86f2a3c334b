// Compare, badges and check history over the real API on loopback (PGlite, or PostgreSQL with TEST_DATABASE_URL),
// on scans ended with exact outcomes at chosen times.
import request from 'supertest';
import { expectErrorBody } from './support/harness';
import { insertCompany } from './support/fixtures';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';
import { check, finished, scanEnding } from './support/scan-outcomes';

let t: ScanTestServer;
const DAY = 86_400_000;
// One reference time for the whole file: the scans are dated from it and the assertions read days from it, so a run
// across midnight (UTC) is not a failure (issue 38: a CI run at 23:59 dated the scans on one day and read the next).
const NOW = Date.now();
const ago = (days: number) => new Date(NOW - days * DAY);
let a: string; // exemplary.test: curated, improves over three scans
let b: string; // typical-saas.test: curated, one scan
let c: string; // content-site.test: curated, never scanned

beforeAll(async () => {
  t = await startScanTestServer({ worker: false });
  a = new URL(t.urlOf('exemplary')).hostname;
  b = new URL(t.urlOf('typical-saas')).hostname;
  c = new URL(t.urlOf('content-site')).hostname;
  for (const [name, domain] of [['Exemplary', a], ['Typical SaaS', b], ['Content Site', c]]) await insertCompany(t.db, { name, domain });
  const layers = (d: number, u: number) => [{ id: 'discovery' as const, weight: 25, score: d }, { id: 'usability' as const, weight: 30, score: u }];
  await scanEnding(t, t.urlOf('exemplary'), finished(60, 'C', [check('llms-txt', 'failed', 7), check('robots-txt', 'passed'), check('openapi', 'failed', 10, 'usability')], layers(50, 40)), ago(20));
  await scanEnding(t, t.urlOf('exemplary'), finished(70, 'C', [check('llms-txt', 'failed', 7), check('robots-txt', 'passed'), check('openapi', 'warning', 10, 'usability')], layers(60, 60)), ago(10));
  await scanEnding(t, t.urlOf('exemplary'), finished(91, 'A', [check('llms-txt', 'passed', 7), check('robots-txt', 'passed'), check('openapi', 'passed', 10, 'usability')], layers(100, 90)), ago(2));
  await scanEnding(t, t.urlOf('typical-saas'), finished(75, 'B', [check('llms-txt', 'passed', 7), check('robots-txt', 'failed'), check('openapi', 'passed', 10, 'usability')], layers(70, 90)), ago(1));
});
afterAll(() => t.close());

describe('compare', () => {
  test('scores, ranks, layers and every check side by side, with who is ahead on each row', async () => {
    const { data, error } = await t.client.GET('/v1/leaderboard/compare', { params: { query: { domains: `${a}, ${b.toUpperCase()},${c}` } } });
    expect(error).toBeUndefined();
    expect(data!.companies.map((x) => x.domain)).toEqual([a, b, c]);
    // Exactly getCompany's answer for each.
    const detail = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: a } } });
    expect(data!.companies[0]).toEqual(detail.data);
    expect(data!.score).toEqual({ values: [91, 75, null], leaders: [a] });
    expect(data!.rank).toEqual({ values: [1, 2, null], leaders: [a] });
    expect(data!.layers).toEqual([
      { id: 'discovery', weight: 25, values: [100, 70, null], leaders: [a] },
      { id: 'usability', weight: 30, values: [90, 90, null], leaders: [a, b] },
    ]);
    expect(data!.checks).toEqual([
      { id: 'llms-txt', name: 'Check llms-txt', layer: 'discovery', points: 7, statuses: ['passed', 'passed', null], values: [7, 7, null], leaders: [a, b] },
      { id: 'robots-txt', name: 'Check robots-txt', layer: 'discovery', points: 10, statuses: ['passed', 'failed', null], values: [10, 0, null], leaders: [a] },
      { id: 'openapi', name: 'Check openapi', layer: 'usability', points: 10, statuses: ['passed', 'passed', null], values: [10, 10, null], leaders: [a, b] },
    ]);
  });

  test('a check that did not apply to a company is not a race it lost', async () => {
    const na = { ...check('llms-txt', 'failed', 7), status: 'not_applicable' as const };
    const other = (await scanEnding(t, t.urlOf('bare-mcp'), finished(50, 'D', [na, check('robots-txt', 'failed')]), ago(1))).domain;
    const { data } = await t.client.GET('/v1/leaderboard/compare', { params: { query: { domains: `${a},${other}`, community: 'include' } } });
    const llms = data!.checks.find((k) => k.id === 'llms-txt')!;
    expect(llms).toMatchObject({ statuses: ['passed', 'not_applicable'], values: [7, 0], leaders: [] });
    expect(data!.checks.find((k) => k.id === 'robots-txt')!.leaders).toEqual([a]);
  });

  // The documented code for a count out of bounds is invalid_domains, counted after repeats are removed, whatever
  // the count (the contract's pattern once refused 1 and 5 entries itself, as a generic bad_request).
  test.each([
    ['one domain', 'invalid_domains', 'a.com', 'got 1'],
    ['the same domain twice', 'invalid_domains', 'a.com,A.COM.', 'got 1'],
    ['five domains', 'invalid_domains', 'a.com,b.com,c.com,d.com,e.com', 'got 5'],
    ['five distinct among eight entries', 'invalid_domains', 'a.com,b.com,a.com,c.com,d.com,b.com,e.com,e.com', 'got 5'],
    ['an empty item', 'bad_request', 'a.com,,b.com', 'domains'],
  ])('%s is refused (400 %s)', async (_name, code, domains, message) => {
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard/compare').query({ domains });
    expectErrorBody(res, 400, code);
    expect(res.body.message).toContain(message);
  });

  test('repeats are removed before counting: a,a,a,b,b compares two companies', async () => {
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard/compare').query({ domains: `${a},${a},${a.toUpperCase()},${b},${b}.` });
    expect(res.status).toBe(200);
    expect(res.body.companies.map((x: { domain: string }) => x.domain)).toEqual([a, b]);
  });

  test('an entry that is only a root dot names no company (404), it does not shorten the list to one (400)', async () => {
    // The contract's pattern accepts `.`; the contract fuzz found `domains=.,x` refused as malformed ("got 1").
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard/compare').query({ domains: `.,${a}` });
    expectErrorBody(res, 404, 'not_found');
    expect(res.body.message).toContain('""');
  });

  test('an unknown domain answers 404 naming it', async () => {
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard/compare').query({ domains: `${a},nobody.example` });
    expectErrorBody(res, 404, 'not_found');
    expect(res.body.message).toContain('"nobody.example"');
  });
});

/** The badge through fetch (supertest keeps an SVG body as a Buffer). */
async function badge(domain: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.leaderboardUrl}/v1/leaderboard/companies/${domain}/badge.svg`, { headers });
  return { status: res.status, headers: Object.fromEntries(res.headers), text: await res.text() };
}

describe('badge', () => {
  test('score and grade in the grade colour, an accessible title, cache headers tied to the scan, 304 on its ETag', async () => {
    const res = await badge(a);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = res.text;
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" [^>]*role="img" aria-label="agent-ready: 91 A">/);
    expect(svg).toContain(`<title>${a} agent readiness: score 91 of 100, grade A</title>`);
    expect(svg).toContain('fill="#1a7f37"');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const detail = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: a } } });
    expect(res.headers['last-modified']).toBe(new Date(detail.data!.scannedAt!).toUTCString());
    const etag = res.headers.etag;
    const again = await badge(a, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // Another company, another grade and colour, another ETag.
    const other = await badge(b, { 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.text).toContain('fill="#4d7c0f"');
    expect(other.headers.etag).not.toBe(etag);
  });

  test('a new scored scan changes the ETag', async () => {
    const before = (await badge(b)).headers.etag;
    await scanEnding(t, t.urlOf('typical-saas'), finished(76, 'B', [check('llms-txt', 'passed', 7), check('robots-txt', 'failed'), check('openapi', 'passed', 10, 'usability')]), new Date());
    const after = await badge(b, { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.text).toContain('76 B');
  });

  test.each([['never scanned', () => c], ['unknown', () => 'nobody.example']])('a %s company gets the neutral badge (200)', async (_name, domain) => {
    const res = await badge(domain());
    expect(res.status).toBe(200);
    expect(res.text).toContain('aria-label="agent-ready: not scanned"');
    expect(res.text).toContain('fill="#57606a"');
    expect(res.text).toContain(`<title>${domain()} agent readiness: not scanned yet</title>`);
    expect(res.headers).not.toHaveProperty('last-modified');
  });
});

describe('check history', () => {
  test('when a check changed status across the scans, newest first, with the current status since when', async () => {
    const { data } = await t.client.GET('/v1/leaderboard/companies/{domain}/checks/{checkId}/history', { params: { path: { domain: a, checkId: 'openapi' } } });
    expect(data!.current).toEqual({ status: 'passed', since: ago(2).toISOString().slice(0, 10) + data!.current!.since.slice(10) });
    expect(data!.items.map((i) => [i.from, i.to])).toEqual([['warning', 'passed'], ['failed', 'warning'], [null, 'failed']]);
    expect(data!.items.map((i) => i.at.slice(0, 10))).toEqual([ago(2), ago(10), ago(20)].map((d) => d.toISOString().slice(0, 10)));
    expect(data!.name).toBe('Check openapi');
    expect(data!.nextCursor).toBeNull();
  });

  test('pages with the cursor; a check that never moved has one item; an unknown check is empty', async () => {
    const first = await t.client.GET('/v1/leaderboard/companies/{domain}/checks/{checkId}/history', { params: { path: { domain: a, checkId: 'openapi' }, query: { limit: 2 } } });
    expect(first.data!.items).toHaveLength(2);
    const second = await t.client.GET('/v1/leaderboard/companies/{domain}/checks/{checkId}/history', { params: { path: { domain: a, checkId: 'openapi' }, query: { limit: 2, cursor: first.data!.nextCursor! } } });
    expect(second.data!.items.map((i) => [i.from, i.to])).toEqual([[null, 'failed']]);
    expect(second.data!.nextCursor).toBeNull();
    const steady = await t.client.GET('/v1/leaderboard/companies/{domain}/checks/{checkId}/history', { params: { path: { domain: a, checkId: 'robots-txt' } } });
    expect(steady.data!.items.map((i) => [i.from, i.to])).toEqual([[null, 'passed']]);
    const none = await t.client.GET('/v1/leaderboard/companies/{domain}/checks/{checkId}/history', { params: { path: { domain: a, checkId: 'no-such-check' } } });
    expect(none.data).toMatchObject({ name: null, current: null, items: [], nextCursor: null });
    expectErrorBody(await request(t.leaderboardUrl).get(`/v1/leaderboard/companies/nobody.example/checks/openapi/history`), 404);
    expectErrorBody(await request(t.leaderboardUrl).get(`/v1/leaderboard/companies/${a}/checks/openapi/history`).query({ cursor: 'bm9wZQ' }), 400, 'invalid_cursor');
  });

  test('the last 7 days: which checks moved the score, with the points each moved', async () => {
    const week = await t.client.GET('/v1/leaderboard/companies/{domain}/check-changes', { params: { path: { domain: a } } });
    expect(week.data!.days).toBe(7);
    expect(week.data!.items.map((i) => [i.checkId, i.from, i.to, i.earnedChange])).toEqual([['llms-txt', 'failed', 'passed', 7], ['openapi', 'warning', 'passed', 5]]);
    const month = await t.client.GET('/v1/leaderboard/companies/{domain}/check-changes', { params: { path: { domain: a }, query: { days: 30 } } });
    // First runs are not changes; the 10-day-old warning is.
    expect(month.data!.items.map((i) => [i.checkId, i.from, i.to])).toEqual([['llms-txt', 'failed', 'passed'], ['openapi', 'warning', 'passed'], ['openapi', 'failed', 'warning']]);
  });
});

// The direct path of the reads (http/direct-reads.ts) answers exactly what the full Express path answers:
// random requests of operations 1-3 and 6 and of the population statistics, valid and not (unknown, repeated or empty parameters, bad numbers, escapes,
// NUL, bounds, unknown companies, odd paths), sent to the host's listener and to the bare contract app (no cache,
// no direct path), must get the same status, headers and bytes. Companies with real scans (sandbox personas
// through the real scanner and worker) make the company reads carry real layers and checks.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { createDirectReads, createLeaderboardApp, createLeaderboardListener, createLeaderboardReadCache } from '../src/apps';
import type { DirectReads } from '../src/http/direct-reads';
import { insertCompany } from './support/fixtures';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
let direct: DirectReads;
let cache: ReturnType<typeof createLeaderboardReadCache>;
let listenerUrl: string;
let expressUrl: string;
const servers: http.Server[] = [];
const domains: string[] = [];
const scanIds: string[] = [];

async function serve(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 0 });
  for (const persona of ['typical-saas', 'exemplary', 'bare-mcp'] as const) {
    const started = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf(persona) } });
    const scan = await t.waitForEnd(started.data!.scan.id);
    domains.push(scan.domain);
    scanIds.push(scan.id);
  }
  for (let i = 0; i < 40; i++) {
    const domain = `co-${i}.example`;
    domains.push(domain);
    await insertCompany(t.db, {
      name: `Company ${i} ${['Labs', 'Pay', 'Search'][i % 3]}`, domain, score: (i * 37) % 101,
      category: ['payments', 'search', null][i % 3], source: i % 4 === 3 ? 'community' : 'curated',
      scannedAt: new Date(Date.UTC(2026, 10, 1 + (i % 20))),
    });
  }
  await t.runtime.changes.publish();
  cache = createLeaderboardReadCache(t.runtime);
  direct = createDirectReads(t.runtime, cache);
  listenerUrl = await serve(createLeaderboardListener(t.runtime, cache, direct));
  expressUrl = await serve(createLeaderboardApp(t.runtime));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await t.close();
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function get(base: string, path: string, requestId: string): Promise<Answer> {
  const res = await fetch(base + path, { headers: { 'X-Request-Id': requestId } });
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !['date', 'connection', 'keep-alive'].includes(name)));
  return { status: res.status, headers, body: await res.text() };
}

const value = fc.oneof(
  fc.constantFrom('a', 'Company', 'co-1', 'labs', 'pay+search', 'it%27s', '(beta)', '%00', '%ZZ', '%E2%82%AC', '', 'x'.repeat(121), '%F0%9F%98%80'),
  fc.stringMatching(/^[a-z0-9 .%-]{0,6}$/),
);
const pair = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.constant('q'), value) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('limit'), fc.constantFrom('1', '7', '50', '100', '0', '101', '050', '1e1', '0x10', '+5', '-1', '2.0', '')) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('sort'), fc.constantFrom('score', 'company', 'category', 'scanned', 'name', '')) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('order'), fc.constantFrom('asc', 'desc', 'up')) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('category'), fc.constantFrom('payments', 'search', 'unknown-slug', 'Bad Slug', '')) },
  { weight: 2, arbitrary: fc.tuple(fc.constant('community'), fc.constantFrom('include', 'exclude', '')) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('cursor'), fc.constantFrom('abc', 'eyJ4IjoxfQ', '')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('unknown', 'q[a]', 'Q', '%71'), value) },
);
const anyQuery = fc.array(pair, { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
// Mostly valid queries too, so the direct path answers many of the comparisons itself.
const validQuery = fc
  .record(
    {
      q: fc.constantFrom('co', 'Company+1', 'labs', 'pay', 'a', 'example', 'it%27s', '%E2%82%AC'),
      limit: fc.integer({ min: 1, max: 100 }).map(String),
      sort: fc.constantFrom('score', 'company', 'category', 'scanned'),
      order: fc.constantFrom('asc', 'desc'),
      category: fc.constantFrom('payments', 'search', 'unknown-slug'),
      community: fc.constant('include'),
    },
    { requiredKeys: [] },
  )
  .map((r) => Object.entries(r).map(([k, v]) => `${k}=${v}`).join('&'));
const query = fc.oneof(anyQuery, validQuery);
const path = fc.oneof(
  { weight: 4, arbitrary: fc.constant('/v1/leaderboard') },
  { weight: 1, arbitrary: fc.constantFrom('/v1/leaderboard/categories', '/v1/leaderboard/', '/V1/leaderboard', '/v1/leaderboard/categories/') },
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 42 }).map((i) => `/v1/leaderboard/companies/${domains[i] ?? 'missing.example'}`) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 4 }).map((i) => `/v1/leaderboard/scans/${scanIds[i] ?? ['00000000-0000-4000-8000-000000000000', 'not-a-uuid'][i - 3]}`) },
  { weight: 2, arbitrary: fc.constant('/v1/leaderboard/stats') },
  { weight: 1, arbitrary: fc.constantFrom('/v1/leaderboard/companies/CO-1.EXAMPLE', '/v1/leaderboard/companies/co-1%2Eexample', '/v1/leaderboard/companies/%00', '/v1/leaderboard/companies/a%2Fb') },
);

test('random reads, valid and not, get the same status, headers and bytes from the direct path as from Express', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(path, query, async (p, q) => {
      const url = q ? `${p}?${q}` : p;
      const id = `direct-${n++}`;
      const expected = await get(expressUrl, url, id);
      // Twice: the first is a miss (direct or handed to Express), the second may be answered by the response cache.
      for (const attempt of [1, 2]) {
        const actual = await get(listenerUrl, url, id);
        expect({ url, attempt, ...actual }).toEqual({ url, attempt, ...expected });
      }
    }),
    { numRuns: 400, seed: 2611 },
  );
  // The comparison is about the direct path: most valid reads were answered by it, not handed back.
  expect(direct.counts.answered).toBeGreaterThan(100);
});

test('every plain valid read is answered by the direct path itself', async () => {
  const before = { ...direct.counts, hits: cache.counts.hits };
  const urls = [
    '/v1/leaderboard?q=company&limit=7&sort=company&order=asc',
    '/v1/leaderboard?community=include&category=payments&limit=3',
    '/v1/leaderboard/categories',
    `/v1/leaderboard/companies/${domains[0]}?community=include`,
    '/v1/leaderboard/companies/co-0.example',
    '/v1/leaderboard?q=pay+search',
    `/v1/leaderboard/scans/${scanIds[1]}`,
    '/v1/leaderboard/stats?community=include&category=payments',
    '/v1/leaderboard/stats',
  ];
  for (const url of urls) expect((await get(listenerUrl, url, 'plain')).status).toBe(200);
  // (A URL the first test already read may be answered from the response cache, before the direct path.)
  expect(direct.counts.answered - before.answered + cache.counts.hits - before.hits).toBe(urls.length);
  expect(direct.counts.handedBack).toBe(before.handedBack);
  // A scan's view changes with the scan, not with the ranked snapshot: answered directly, never stored.
  const stored = cache.counts.stored;
  for (let i = 0; i < 3; i++) expect((await get(listenerUrl, `/v1/leaderboard/scans/${scanIds[2]}`, 'scan')).status).toBe(200);
  expect(cache.counts.stored).toBe(stored);
});

test('an error of ours (unknown company, invalid cursor) is answered by the direct path itself: its handler runs once', async () => {
  const urls = ['/v1/leaderboard/companies/nobody-here.example', '/v1/leaderboard?cursor=eyJ4IjoxfQ', '/v1/leaderboard/scans/00000000-0000-4000-8000-000000000000'];
  for (const url of urls) {
    const expected = await get(expressUrl, url, 'ours');
    expect(expected.status).toBeGreaterThanOrEqual(400);
    expect(expected.status).toBeLessThan(500);
    const before = { ...direct.counts };
    expect(await get(listenerUrl, url, 'ours')).toEqual(expected);
    // Handed back, Express ran the handler a second time (and parsed the query again) to write the same error.
    expect(direct.counts).toEqual({ answered: before.answered + 1, handedBack: before.handedBack });
  }
});

test('an answer the contract refuses is not sent by the direct path: Express answers it (500 in fail mode)', async () => {
  // A grade outside the contract's enum, written behind the service's back.
  await t.db.prisma.company.update({ where: { domain: 'co-2.example' }, data: { grade: 'Z' } });
  await t.runtime.changes.publish();
  const before = direct.counts.handedBack;
  const url = '/v1/leaderboard/companies/co-2.example';
  const expected = await get(expressUrl, url, 'refused');
  expect(expected.status).toBe(500);
  expect(await get(listenerUrl, url, 'refused')).toEqual(expected);
  expect(direct.counts.handedBack).toBe(before + 1);
});

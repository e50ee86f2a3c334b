// One cache key for every way in: the listener's hits, the direct reads, the Express recorder and the pages all look
// answers up and store them under the canonical request (path and canonical query, its pairs in one order), so two
// spellings of one request share an answer; a request the full path answers differently never shares one.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLeaderboardApp, createLeaderboardListener, createLeaderboardReadCache } from '../src/apps';
import { canonicalRequestKey } from '../src/http/canonical-query';
import type { ResponseCache } from '../src/http/response-cache';
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let t: TestServer;
let cache: ResponseCache;
let listenerUrl: string;
let expressUrl: string;
const servers: http.Server[] = [];

async function serve(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  t = await startTestServer();
  await insertCompany(t.runtime.db, { name: 'Fern Journal', domain: 'fern.example', score: 80, category: 'payments' });
  await insertCompany(t.runtime.db, { name: 'Fern Ledger', domain: 'ledger.example', score: 60, category: 'payments' });
  await insertCompany(t.runtime.db, { name: 'Oak', domain: 'oak.example', score: 70 });
  await t.runtime.changes.publish();
  cache = createLeaderboardReadCache(t.runtime);
  listenerUrl = await serve(createLeaderboardListener(t.runtime, cache));
  expressUrl = await serve(createLeaderboardApp(t.runtime));
});

afterAll(async () => {
  for (const server of servers) server.close();
  await t.close();
});

async function read(base: string, url: string): Promise<{ status: number; body: string }> {
  const res = await fetch(base + url, { headers: { 'X-Request-Id': 'cache-key' } });
  return { status: res.status, body: await res.text() };
}

/** Reads `stored` twice (an answer is admitted the second time), then each spelling once: all from the cache. */
async function expectShared(stored: string, spellings: string[]): Promise<void> {
  for (let i = 0; i < 2; i++) expect((await read(listenerUrl, stored)).status).toBe(200);
  for (const url of spellings) {
    const hits = cache.counts.hits;
    const answer = await read(listenerUrl, url);
    expect({ url, hit: cache.counts.hits - hits }).toEqual({ url, hit: 1 });
    // Byte for byte what the full path answers to this spelling.
    expect(answer).toEqual(await read(expressUrl, url));
  }
}

test('a space written as + or %20, an escaped letter and reordered parameters are one request', async () => {
  await expectShared('/v1/leaderboard?q=Fern%20Journal', ['/v1/leaderboard?q=Fern+Journal', '/v1/leaderboard?q=Fern%20Journa%6C']);
  await expectShared('/v1/leaderboard?limit=5&q=fern&sort=company', [
    '/v1/leaderboard?q=fern&limit=5&sort=company',
    '/v1/leaderboard?sort=company&q=fern&limit=5&',
  ]);
  await expectShared('/v1/leaderboard/companies/fern.example?community=include', ['/v1/leaderboard/companies/fern.example?&community=include']);
});

test('a request the full path refuses or reads differently never shares an answer', async () => {
  for (let i = 0; i < 2; i++) expect((await read(listenerUrl, '/v1/leaderboard?limit=5&q=fern')).status).toBe(200);
  for (const url of [
    '/v1/leaderboard?limit=5&q=fern&q=fern', // repeated: 400
    '/v1/leaderboard?limit=5&q=fern&limit=5', // repeated: 400
    '/v1/leaderboard?limit=05&q=fern', // not decimal digits: 400
    '/v1/leaderboard?limit=5&Q=fern', // unknown parameter: 400
    '/v1/leaderboard?limit=5&q=fern%ZZ', // malformed escape: 400
    '/v1/leaderboard?limit=5&q=Fern', // another search (the same rows, but not provably)
    '/V1/leaderboard?limit=5&q=fern', // another path
  ]) {
    const hits = cache.counts.hits;
    const answer = await read(listenerUrl, url);
    expect({ url, hit: cache.counts.hits - hits }).toEqual({ url, hit: 0 });
    expect(answer).toEqual(await read(expressUrl, url));
  }
});

test('the key is the path and the canonical query, sorted; null when the full path refuses the query', () => {
  expect(canonicalRequestKey('/v1/leaderboard?q=Fern+Journal&limit=5')).toBe('/v1/leaderboard?limit=5&q=Fern%20Journal');
  expect(canonicalRequestKey('/v1/leaderboard?limit=5&q=Fern%20Journal')).toBe('/v1/leaderboard?limit=5&q=Fern%20Journal');
  expect(canonicalRequestKey('/v1/leaderboard?q=(it%27s)')).toBe('/v1/leaderboard?q=%28it%27s%29');
  expect(canonicalRequestKey('/v1/leaderboard?')).toBe('/v1/leaderboard');
  expect(canonicalRequestKey('/v1/leaderboard?&&')).toBe('/v1/leaderboard');
  expect(canonicalRequestKey('/v1/leaderboard?q=a&q=b')).toBeNull();
  expect(canonicalRequestKey('/v1/leaderboard?q=a&%71=a')).toBeNull();
  expect(canonicalRequestKey('/v1/leaderboard?q=%E2%82')).toBeNull();
  // A key is its own key: a URL already in canonical form can be looked up as it is.
  const key = canonicalRequestKey('/v1/leaderboard?sort=company&q=it%27s+%E2%82%AC&limit=7')!;
  expect(canonicalRequestKey(key)).toBe(key);
});

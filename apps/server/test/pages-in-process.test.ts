// The pages read the API in process (web/in-process-client.ts): a page render is one request to the host, never a
// second one over loopback, and every read a page makes gets the bytes (or the error body) the HTTP path answers.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDirectReads, createLeaderboardApp, createLeaderboardListener, createLeaderboardReadCache } from '../src/apps';
import { inProcessClient } from '../src/web/in-process-client';
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let t: TestServer;
let expressUrl: string;
let expressServer: http.Server;
let requests = 0;

beforeAll(async () => {
  t = await startTestServer();
  await insertCompany(t.runtime.db, {
    name: 'Fern Journal', domain: 'fern.example', score: 80, category: 'payments',
    history: [[70, new Date(Date.now() - 3 * 86_400_000)]],
  });
  await insertCompany(t.runtime.db, { name: 'Oak', domain: 'oak.example', score: 70 });
  await insertCompany(t.runtime.db, { name: 'Unscored', domain: 'unscored.example', score: null });
  await t.runtime.changes.publish();
  t.servers.leaderboard.on('request', () => requests++);
  expressServer = http.createServer(createLeaderboardApp(t.runtime));
  await new Promise<void>((r) => expressServer.listen(0, '127.0.0.1', r));
  expressUrl = `http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  expressServer.close();
  await t.close();
});

test('a page render is one request to the host: its reads open no socket', async () => {
  const pages: Array<[string, number]> = [
    ['/', 200],
    ['/?q=Fern+Journal&sort=company', 200],
    ['/?q=Fern+Journal&sort=company', 200],
    ['/companies/fern.example', 200],
    ['/companies/unscored.example', 200],
    ['/companies/missing.example', 404],
    ['/companies/fern.example/journey', 200],
    ['/methodology', 200],
    ['/stats?category=payments', 200],
    ['/compare?domains=fern.example,oak.example', 200],
    ['/?cursor=not-a-cursor', 400],
  ];
  for (const [page, status] of pages) {
    for (const accept of ['text/html', 'text/markdown']) {
      const before = requests;
      const res = await fetch(t.leaderboardUrl + page, { headers: { Accept: accept } });
      await res.text();
      expect({ page, accept, status: res.status, requests: requests - before }).toEqual({ page, accept, status, requests: 1 });
    }
  }
});

test('the in-process reads answer the bytes and error bodies of the HTTP path, without a listener to fall back on', async () => {
  const cache = createLeaderboardReadCache(t.runtime);
  const reads = createDirectReads(t.runtime, cache);
  // A page request whose host is not listening: a read that fell back to loopback would fail to connect.
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const api = inProcessClient(() => reads, cache)({ requestId: 'page-1', socket: { localAddress: '127.0.0.1', localPort: port } });
  const urls = [
    '/v1/leaderboard?q=Fern%20Journal&limit=50',
    '/v1/leaderboard/categories',
    '/v1/leaderboard/coverage',
    '/v1/leaderboard/companies/fern.example',
    '/v1/leaderboard/companies/fern.example/history?days=90',
    '/v1/leaderboard/companies/fern.example/check-changes?days=7',
    '/v1/leaderboard/companies/fern.example/disputes',
    '/v1/leaderboard/methodology',
    '/v1/leaderboard/stats?category=payments',
    '/v1/leaderboard/compare?domains=fern.example%2Coak.example',
    // Errors of the handlers: the error handler's body and status.
    '/v1/leaderboard/companies/missing.example',
    '/v1/leaderboard/companies/fern.example/report',
    '/v1/leaderboard?cursor=not-a-cursor',
    '/v1/leaderboard/journeys/00000000-0000-4000-8000-000000000000',
  ];
  for (const url of urls) {
    const expected = await fetch(expressUrl + url, { headers: { 'X-Request-Id': 'page-1' } });
    // The client's own fetch (typed GETs build these URLs), so each read is the one a page makes.
    const actual = await (api as unknown as { GET(path: string, init: unknown): Promise<{ data?: string; error?: unknown; response: Response }> })
      .GET(url.split('?')[0], { params: { query: Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? '')) }, parseAs: 'text' });
    // An error body comes back parsed; written again it is the same JSON text.
    const body = actual.data ?? JSON.stringify(actual.error);
    expect({ url, status: actual.response.status, body }).toEqual({ url, status: expected.status, body: await expected.text() });
  }
  // Read twice, the ranked reads come from the cache, stored under the key every way in uses.
  const hits = cache.counts.hits;
  await api.GET('/v1/leaderboard', { params: { query: { q: 'Fern Journal', limit: 50 } } });
  await api.GET('/v1/leaderboard', { params: { query: { q: 'Fern Journal', limit: 50 } } });
  expect(cache.counts.hits - hits).toBe(1);
});

test('the leaderboard page is kept in the same cache under the same key: another spelling of its URL is not rendered again', async () => {
  const cache = createLeaderboardReadCache(t.runtime);
  const server = http.createServer(createLeaderboardListener(t.runtime, cache));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const page = async (url: string) => (await fetch(base + url, { headers: { Accept: 'text/html' } })).text();
  try {
    // Kept the second time it is rendered, as every answer is (the cache's admission).
    const first = await page('/?q=Fern+Journal&sort=company');
    expect(await page('/?q=Fern+Journal&sort=company')).toBe(first);
    const reads = { ...cache.counts };
    // Kept: no read of the API at all, from the cache or not.
    expect(await page('/?sort=company&q=Fern%20Journal')).toBe(first);
    expect(await page('/?q=Fern%20Journal&sort=company&')).toBe(first);
    expect(cache.counts).toEqual(reads);
    // Another format is another page.
    const markdown = await (await fetch(`${base}/?sort=company&q=Fern+Journal`, { headers: { Accept: 'text/markdown' } })).text();
    expect(markdown).not.toBe(first);
    expect(cache.counts.hits).toBeGreaterThan(reads.hits);
  } finally {
    server.close();
  }
});

// Repeated reads are answered from the bytes of an earlier validated answer, until the data changes.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createLeaderboardListener, createLeaderboardReadCache } from '../src/apps';
import { startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await insertCompany(t.runtime.db, { name: 'First', domain: 'first.com', score: 70 });
});
afterAll(() => t.close());

test('a repeated read is identical but keeps its own request id', async () => {
  const a = await request(t.leaderboardUrl).get('/v1/leaderboard?limit=10');
  const b = await request(t.leaderboardUrl).get('/v1/leaderboard?limit=10');
  expect(b.text).toBe(a.text);
  expect(b.headers['content-type']).toMatch(/^application\/json/);
  expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
});

test('a published change is visible on the next read, for the list and the company read', async () => {
  const before = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'first.com' } } });
  expect(before.data!.rank).toBe(1);
  await insertCompany(t.runtime.db, { name: 'Second', domain: 'second.com', score: 90 });
  await t.runtime.changes.publish();
  const list = await t.client.GET('/v1/leaderboard', { params: { query: { limit: 10 } } });
  expect(list.data!.items.map((i) => i.company.domain)).toEqual(['second.com', 'first.com']);
  const after = await t.client.GET('/v1/leaderboard/companies/{domain}', { params: { path: { domain: 'first.com' } } });
  expect(after.data!.rank).toBe(2);
});

test('errors are never cached', async () => {
  expect((await request(t.leaderboardUrl).get('/v1/leaderboard/companies/later.com')).status).toBe(404);
  await insertCompany(t.runtime.db, { name: 'Later', domain: 'later.com', score: 50 });
  expect((await request(t.leaderboardUrl).get('/v1/leaderboard/companies/later.com')).status).toBe(200);
});

test('an answer is stored the second time its URL is read, so reads made once never churn the cache', async () => {
  const cache = createLeaderboardReadCache(t.runtime);
  const server = http.createServer(createLeaderboardListener(t.runtime, cache));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (let i = 1; i <= 20; i++) expect((await request(base).get(`/v1/leaderboard?limit=${i}`)).status).toBe(200);
    expect(cache.counts).toEqual({ hits: 0, stored: 0 });
    const second = await request(base).get('/v1/leaderboard?limit=7');
    expect(cache.counts).toEqual({ hits: 0, stored: 1 });
    const third = await request(base).get('/v1/leaderboard?limit=7');
    expect(cache.counts).toEqual({ hits: 1, stored: 1 });
    expect(third.text).toBe(second.text);
  } finally {
    server.close();
  }
});

// Every bound of operations 1-3, tried from both sides: invalid values answer 400 with the exact error body,
// the edge values inside the bound answer 200.
import request from 'supertest';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  await insertCompany(t.runtime.db, { name: 'Acme', domain: 'acme.com', score: 80, category: 'developer-tools' });
});
afterAll(() => t.close());

const long = (n: number, ch = 'a') => ch.repeat(n);

const invalid: Array<[string, string]> = [
  ['limit below 1', '/v1/leaderboard?limit=0'],
  ['limit above 100', '/v1/leaderboard?limit=101'],
  ['limit not an integer', '/v1/leaderboard?limit=1.5'],
  ['limit not a number', '/v1/leaderboard?limit=ten'],
  ['limit given twice', '/v1/leaderboard?limit=1&limit=2'],
  ['q empty', '/v1/leaderboard?q='],
  ['q over 120 characters', `/v1/leaderboard?q=${long(121)}`],
  ['category over 120 characters', `/v1/leaderboard?category=${long(121)}`],
  ['category with uppercase', '/v1/leaderboard?category=Developer-Tools'],
  ['category with a double hyphen', '/v1/leaderboard?category=a--b'],
  ['category with a trailing hyphen', '/v1/leaderboard?category=a-'],
  ['category with an underscore', '/v1/leaderboard?category=a_b'],
  ['sort unknown', '/v1/leaderboard?sort=rank'],
  ['order unknown', '/v1/leaderboard?order=up'],
  ['cursor empty', '/v1/leaderboard?cursor='],
  ['cursor over 2048 characters', `/v1/leaderboard?cursor=${long(2049)}`],
  ['community other than include', '/v1/leaderboard?community=yes'],
  ['unknown query parameter', '/v1/leaderboard?page=2'],
  ['categories with a query parameter', '/v1/leaderboard/categories?x=1'],
  ['domain over 253 characters', `/v1/leaderboard/companies/${long(254)}`],
  ['company community other than include', '/v1/leaderboard/companies/acme.com?community=all'],
  ['company with an unknown query parameter', '/v1/leaderboard/companies/acme.com?verbose=1'],
];

test.each(invalid)('%s answers 400 with the error body', async (_name, url) => {
  const res = await request(t.leaderboardUrl).get(url);
  expectErrorBody(res, 400, 'bad_request');
});

const valid: Array<[string, string]> = [
  ['limit 1', '/v1/leaderboard?limit=1'],
  ['limit 100', '/v1/leaderboard?limit=100'],
  ['q of 1 character', '/v1/leaderboard?q=a'],
  ['q of 120 characters', `/v1/leaderboard?q=${long(120)}`],
  ['category of 120 characters', `/v1/leaderboard?category=${long(120)}`],
  ['category with single hyphens', '/v1/leaderboard?category=developer-tools'],
  ['every sort and order', '/v1/leaderboard?sort=scanned&order=asc'],
  ['community include', '/v1/leaderboard?community=include'],
  ['domain of 253 characters (unknown, so 404 not 400)', `/v1/leaderboard/companies/${long(253)}`],
];

test.each(valid)('%s is accepted', async (name, url) => {
  const res = await request(t.leaderboardUrl).get(url);
  if (name.includes('404')) expectErrorBody(res, 404, 'not_found');
  else expect(res.status).toBe(200);
});

test('a cursor that is not ours answers 400 invalid_cursor', async () => {
  for (const cursor of ['abc', 'a.b', 'x'.repeat(2048), 'eyJ2IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA']) {
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard').query({ cursor });
    expectErrorBody(res, 400, 'invalid_cursor');
  }
});

test('unknown routes answer 404 and wrong methods 405 with Allow, both with the error body', async () => {
  expectErrorBody(await request(t.leaderboardUrl).get('/v1/nothing-here'), 404);
  expectErrorBody(await request(t.leaderboardUrl).get('/no-such-page'), 404);
  const res = await request(t.leaderboardUrl).delete('/v1/leaderboard');
  expectErrorBody(res, 405, 'method_not_allowed');
  expect(res.headers.allow).toMatch(/GET/);
  const post = await request(t.leaderboardUrl).post('/v1/leaderboard/categories').send({});
  expectErrorBody(post, 405, 'method_not_allowed');
});

test('every response carries X-Request-Id, and a plain caller id is echoed', async () => {
  const res = await request(t.leaderboardUrl).get('/v1/leaderboard').set('X-Request-Id', 'trace-123');
  expect(res.headers['x-request-id']).toBe('trace-123');
  const odd = await request(t.leaderboardUrl).get('/v1/leaderboard?limit=0').set('X-Request-Id', 'bad id\twith tabs');
  expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(odd.body.requestId).toBe(odd.headers['x-request-id']);
});

test('health and readiness answer on the leaderboard host', async () => {
  expect((await request(t.leaderboardUrl).get('/healthz')).body).toEqual({ status: 'ok' });
  expect((await request(t.leaderboardUrl).get('/readyz')).body).toEqual({ status: 'ok' });
});

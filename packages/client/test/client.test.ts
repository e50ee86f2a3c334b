import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DISPUTE_STATES, badgeUrl, comparePageUrl, createFeedbackClient, createLeaderboardClient, datasetUrl, requestIdMiddleware, webhookAuth } from '../src';

// A loopback server that records what the client sent and answers a canned, contract-shaped body.
let server: http.Server;
let baseUrl: string;
const seen: Array<{ method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/v1/leaderboard/categories')) {
        res.end(JSON.stringify({ items: [] }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ code: 'not_found', message: 'No such thing', requestId: String(req.headers['x-request-id']) }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => (seen.length = 0));

test('leaderboard client serializes query parameters and sends a request id', async () => {
  const client = createLeaderboardClient(baseUrl, { middleware: [requestIdMiddleware(() => 'req-1')] });
  const { data } = await client.GET('/v1/leaderboard/categories');
  expect(data).toEqual({ items: [] });
  await client.GET('/v1/leaderboard', { params: { query: { q: 'a b', limit: 5, sort: 'company' } } });
  expect(seen.map((s) => s.url)).toEqual(['/v1/leaderboard/categories', '/v1/leaderboard?q=a%20b&limit=5&sort=company']);
  expect(seen.every((s) => s.headers['x-request-id'] === 'req-1')).toBe(true);
});

test('an error body comes back as `error`, typed as the contract error', async () => {
  const client = createLeaderboardClient(baseUrl);
  const { data, error, response } = await client.GET('/v1/leaderboard/companies/{domain}', {
    params: { path: { domain: 'nope.example' } },
  });
  expect(data).toBeUndefined();
  expect(response.status).toBe(404);
  expect(error).toMatchObject({ code: 'not_found', message: 'No such thing' });
  expect(seen[0].url).toBe('/v1/leaderboard/companies/nope.example');
});

test('feedback client posts JSON to the project path and keeps a caller-given request id', async () => {
  const client = createFeedbackClient(baseUrl, { middleware: [requestIdMiddleware()] });
  await client.POST('/v1/feedback/{slug}/reports', {
    params: { path: { slug: 'leaderboard' } },
    body: { observation: 'Something happened here', outcome: 'friction' },
    headers: { 'x-request-id': 'mine' },
  });
  expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/feedback/leaderboard/reports' });
  expect(seen[0].headers['content-type']).toContain('application/json');
  expect(seen[0].headers['x-request-id']).toBe('mine');
  expect(JSON.parse(seen[0].body)).toEqual({ observation: 'Something happened here', outcome: 'friction' });
});

test('watch helpers: the webhook token goes as a bearer header; badge and compare URLs are built from the base', async () => {
  const client = createLeaderboardClient(baseUrl);
  const id = '3f1c2a64-8d1e-4c55-9a7b-0c6f2d9e1a10';
  const { error } = await client.GET('/v1/leaderboard/webhooks/{webhookId}', { params: { path: { webhookId: id } }, headers: webhookAuth('whk_abc') });
  expect(error).toMatchObject({ code: 'not_found' });
  expect(seen[0]).toMatchObject({ url: `/v1/leaderboard/webhooks/${id}`, headers: expect.objectContaining({ authorization: 'Bearer whk_abc' }) });
  expect(badgeUrl(baseUrl, 'stripe.com')).toBe(`${baseUrl}v1/leaderboard/companies/stripe.com/badge.svg`);
  expect(badgeUrl('https://x.test', 'a b.com', { community: true })).toBe('https://x.test/v1/leaderboard/companies/a%20b.com/badge.svg?community=include');
  expect(comparePageUrl('https://x.test/', ['a.com', 'b.com'])).toBe('https://x.test/compare?domains=a.com,b.com');
});

test('disputes are typed routes of both clients, and their states are exported', async () => {
  const feedback = createFeedbackClient(baseUrl);
  const scanId = '4b1c2a34-5d6e-4f70-8a9b-0c1d2e3f4a5b';
  await feedback.POST('/v1/feedback/{slug}/disputes', {
    params: { path: { slug: 'leaderboard' } },
    body: { scanId, checkId: 'llms-txt', observation: 'Our llms.txt is served at /llms.txt.' },
  });
  await feedback.GET('/v1/feedback/{slug}/reports/{reportId}/dispute', { params: { path: { slug: 'leaderboard', reportId: scanId } } });
  await createLeaderboardClient(baseUrl).GET('/v1/leaderboard/companies/{domain}/disputes', { params: { path: { domain: 'example.com' } } });
  expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
    'POST /v1/feedback/leaderboard/disputes',
    `GET /v1/feedback/leaderboard/reports/${scanId}/dispute`,
    'GET /v1/leaderboard/companies/example.com/disputes',
  ]);
  expect(JSON.parse(seen[0].body)).toEqual({ scanId, checkId: 'llms-txt', observation: 'Our llms.txt is served at /llms.txt.' });
  expect(DISPUTE_STATES).toEqual(['rescanning', 'held', 'changed', 'unresolved']);
});

test('open data: the statistics are a typed route and the dataset has its URL', async () => {
  const api = createLeaderboardClient(baseUrl);
  const { error } = await api.GET('/v1/leaderboard/stats', { params: { query: { category: 'payments', community: 'include' } } });
  expect(error).toMatchObject({ code: 'not_found' });
  expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/leaderboard/stats?category=payments&community=include' });
  await api.GET('/v1/leaderboard/dataset.jsonl', { params: { query: { community: 'include' } }, parseAs: 'stream' });
  expect(seen[1]).toMatchObject({ url: '/v1/leaderboard/dataset.jsonl?community=include' });
  expect(datasetUrl(baseUrl, 'csv')).toBe(`${baseUrl}v1/leaderboard/dataset.csv`);
  expect(datasetUrl('https://x.test/', 'jsonl', { category: 'media', community: true })).toBe('https://x.test/v1/leaderboard/dataset.jsonl?category=media&community=include');
});

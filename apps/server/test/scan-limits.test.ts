// Input errors and limits of operations 5 and 6: 400 bounds, 404, 422 unscannable URLs, 429 rate limit, 503 queue_full.
import request from 'supertest';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';

describe('bounds and refusals', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { SCAN_ALLOW_PRIVATE_NETWORKS: 'false', SCAN_RATE_LIMIT: '0' } });
  });
  afterAll(() => t.close());

  test.each([
    ['no url', {}],
    ['empty url', { url: '' }],
    ['url over 2048', { url: `https://example.com/${'a'.repeat(2048)}` }],
    ['url not a string', { url: 42 }],
    ['bad email', { url: 'https://example.com', email: 'not-an-address' }],
    ['unknown field', { url: 'https://example.com', extra: true }],
  ])('POST scans with %s answers 400', async (_name, body) => {
    const res = await request(t.leaderboardUrl).post('/v1/leaderboard/scans').send(body);
    expectErrorBody(res, 400, 'bad_request');
  });

  test.each([
    ['a non-http scheme', 'ftp://example.com/'],
    ['a relative URL', '/just/a/path'],
    ['credentials in the URL', 'https://user:secret@example.com/'],
    ['a loopback address', 'http://127.0.0.1:8080/'],
    ['a private address', 'http://10.1.2.3/'],
    ['link-local metadata', 'http://169.254.169.254/latest/meta-data'],
    ['an IPv6 loopback', 'http://[::1]/'],
    ['a name that resolves to loopback', 'http://localhost:3000/'],
  ])('POST scans with %s answers 422 unscannable_url', async (_name, url) => {
    const res = await request(t.leaderboardUrl).post('/v1/leaderboard/scans').send({ url });
    expectErrorBody(res, 422, 'unscannable_url');
    expect(res.body.message).not.toMatch(/secret/);
  });

  test('GET scan: 400 for a non-lowercase or malformed id, 404 for an unknown one', async () => {
    expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard/scans/0B4E7A0E-5D1C-4A9B-8F3E-2C1D0E9F8A7B'), 400, 'bad_request');
    expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard/scans/not-a-uuid'), 400, 'bad_request');
    expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard/scans/0b4e7a0e-5d1c-4a9b-8f3e-2c1d0e9f8a7b'), 404, 'not_found');
  });
});

describe('limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    // No worker runs here, so scans stay waiting: the queue cap is reached deterministically.
    t = await startTestServer({ env: { SCAN_RATE_LIMIT: '3', SCAN_QUEUE_LIMIT: '2' } });
  });
  afterAll(() => t.close());

  test('a full queue answers 503 queue_full; joining a waiting scan still works', async () => {
    const post = (url: string) => request(t.leaderboardUrl).post('/v1/leaderboard/scans').send({ url });
    expect((await post('http://127.0.0.1:9/a')).status).toBe(202);
    expect((await post('http://127.0.0.1:9/b')).status).toBe(202);
    const full = await post('http://127.0.0.1:9/c');
    expectErrorBody(full, 503, 'queue_full');
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('more than SCAN_RATE_LIMIT scans a minute from one client answer 429 with Retry-After', async () => {
    // Seven requests: however the fixed one-minute windows fall, one of them sees more than three.
    const answers = [];
    for (let i = 0; i < 7; i += 1) answers.push(await request(t.leaderboardUrl).post('/v1/leaderboard/scans').send({ url: 'http://127.0.0.1:9/a' }));
    const limited = answers.find((a) => a.status === 429)!;
    expectErrorBody(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });
});

// Webhooks end to end on loopback (PGlite, or PostgreSQL with TEST_DATABASE_URL): subscriptions managed with their
// token only, deliveries of every event type to a real receiver that verifies the Standard Webhooks signature with
// node:crypto (not the library we sign with), retries with the same webhook-id, pausing a URL that keeps failing,
// and the SSRF guard refusing private addresses when they are not allowed.
import { Worker } from '../src/jobs/worker';
import type { ScanOutcome } from '../src/scans/results';
import { check, failed, finished, scanEnding as endWith } from './support/scan-outcomes';
import { sendWebhook } from '../src/webhooks/send';
import { WEBHOOK_JOB } from '../src/webhooks/events';
import { expectErrorBody, startTestServer } from './support/harness';
import { ensureCategory } from './support/fixtures';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';
import { startReceiver, verifyStandardWebhook, type Receiver } from './support/webhook-receiver';
import request from 'supertest';

let t: ScanTestServer;
let worker: Worker;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // Scans are ended by the test (exact outcomes); a worker runs only the webhook deliveries. No receiver here holds a
  // request, so the attempt timeout only has to stay far from a loaded machine's slow answer (a timed-out attempt is
  // retried, and the tests count attempts).
  t = await startScanTestServer({ worker: false, env: { WEBHOOK_RETRY_BASE: '50ms', WEBHOOK_TIMEOUT: '30s', WEBHOOK_RATE_LIMIT: '0' } });
  worker = new Worker(t.runtime.jobs, t.runtime.logger, { kinds: [WEBHOOK_JOB], pollMs: 50 });
  worker.start();
});
afterAll(async () => {
  await worker.stop(2000);
  for (const r of receivers) await r.close();
  await t.close();
});

async function receiver(answer?: Receiver['answer']): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

const scanEnding = (outcome: ScanOutcome) => endWith(t, t.urlOf('exemplary'), outcome);

async function subscribe(body: Record<string, unknown>) {
  const res = await request(t.leaderboardUrl).post('/v1/leaderboard/webhooks').send(body);
  expect(res.status).toBe(201);
  return res.body as { subscription: { id: string; status: string }; token: string; secret: string };
}

async function deliveries(id: string, token: string) {
  const res = await request(t.leaderboardUrl).get(`/v1/leaderboard/webhooks/${id}/deliveries`).set('Authorization', `Bearer ${token}`);
  expect(res.status).toBe(200);
  return res.body.items as Array<{ id: string; event: string; status: string; attempts: number; responseStatus: number | null; lastError: string | null; payload: { type: string; data: Record<string, unknown> } }>;
}

const personaDomain = async () => (await scanEnding(failed())).domain;

test('every event reaches a real receiver, signed (verified with node:crypto), and is listed as delivered', async () => {
  const domain = await personaDomain();
  const r = await receiver();
  const sub = await subscribe({ url: r.url, domain, events: ['score.changed', 'grade.changed', 'check.changed', 'scan.ended'] });
  expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  expect(sub.token).toMatch(/^whk_/);

  const first = await scanEnding(finished(70, 'C', [check('llms-txt', 'failed'), check('robots-txt', 'passed')]));
  await pollUntil('3 deliveries', async () => r.received.length >= 3 || undefined, 120_000);
  const second = await scanEnding(finished(85, 'B', [check('llms-txt', 'passed'), check('robots-txt', 'passed')]));
  await pollUntil('7 deliveries', async () => r.received.length >= 7 || undefined, 120_000);

  for (const got of r.received) {
    expect(verifyStandardWebhook(sub.secret, got)).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    // A body changed by one byte no longer verifies: the check is real.
    expect(verifyStandardWebhook(sub.secret, { ...got, body: `${got.body} ` })).toBe(false);
  }
  const bodies = r.received.map((got) => JSON.parse(got.body) as { type: string; data: Record<string, unknown> });
  const ofScan = (scanId: string) => bodies.filter((b) => b.data.scanId === scanId).map((b) => b.type).sort();
  // A first score: score and grade change from nothing; no check can have changed yet.
  expect(ofScan(first.id)).toEqual(['grade.changed', 'scan.ended', 'score.changed']);
  expect(ofScan(second.id)).toEqual(['check.changed', 'grade.changed', 'scan.ended', 'score.changed']);
  const scoreChange = bodies.find((b) => b.type === 'score.changed' && b.data.scanId === second.id)!;
  expect(scoreChange.data).toMatchObject({ domain, score: 85, grade: 'B', previousScore: 70, change: 15 });
  const checkChange = bodies.find((b) => b.type === 'check.changed')!;
  expect(checkChange.data.checks).toEqual([{ id: 'llms-txt', name: 'Check llms-txt', layer: 'discovery', previousStatus: 'failed', status: 'passed' }]);

  const listed = await pollUntil('all delivered', async () => {
    const items = await deliveries(sub.subscription.id, sub.token);
    return items.length === 7 && items.every((d) => d.status === 'delivered') ? items : undefined;
  });
  expect(listed.every((d) => d.responseStatus === 200 && d.attempts === 1 && d.lastError === null)).toBe(true);
  expect(new Set(listed.map((d) => d.id))).toEqual(new Set(r.received.map((got) => got.headers['webhook-id'])));
  // The listed payload is the body that was signed.
  const sent = r.received.find((got) => got.headers['webhook-id'] === listed[0].id)!;
  expect(listed[0].payload).toEqual(JSON.parse(sent.body));
});

test('a failing receiver gets retries with the same webhook-id, then the delivery is delivered', async () => {
  const domain = await personaDomain();
  const r = await receiver((n) => (n < 2 ? 500 : 200));
  const sub = await subscribe({ url: r.url, domain, events: ['scan.ended'] });
  await scanEnding(finished(60, 'C', []));
  const [item] = await pollUntil('delivered after retries', async () => {
    const items = await deliveries(sub.subscription.id, sub.token);
    return items[0]?.status === 'delivered' ? items : undefined;
  });
  expect(r.received).toHaveLength(3);
  expect(new Set(r.received.map((got) => got.headers['webhook-id']))).toEqual(new Set([item.id]));
  // Each attempt is signed anew (its own timestamp) and verifies.
  for (const got of r.received) expect(verifyStandardWebhook(sub.secret, got)).toBe(true);
  expect(item).toMatchObject({ attempts: 3, responseStatus: 200, lastError: null });
});

test('a URL failing for the whole retry window is paused with the reason; its text never becomes ours', async () => {
  const paused = await startScanTestServer({ worker: false, env: { WEBHOOK_RETRY_BASE: '50ms', WEBHOOK_RETRY_WINDOW: '1s', WEBHOOK_RATE_LIMIT: '0' } });
  const w = new Worker(paused.runtime.jobs, paused.runtime.logger, { kinds: [WEBHOOK_JOB], pollMs: 50 });
  w.start();
  try {
    const r = await receiver(() => 503);
    const domain = (await endWith(paused, paused.urlOf('exemplary'), failed())).domain;
    const res = await request(paused.leaderboardUrl).post('/v1/leaderboard/webhooks').send({ url: r.url, domain, events: ['scan.ended'] });
    const sub = res.body as { subscription: { id: string }; token: string };
    await endWith(paused, paused.urlOf('exemplary'), finished(50, 'D', []));
    const read = await pollUntil('paused', async () => {
      const got = await request(paused.leaderboardUrl).get(`/v1/leaderboard/webhooks/${sub.subscription.id}`).set('Authorization', `Bearer ${sub.token}`);
      return got.body.status === 'paused' ? got.body : undefined;
    }, 120_000);
    expect(read.pausedReason).toMatch(/^Deliveries have failed since .* The URL answered HTTP 503\.$/);
    expect(JSON.stringify(read)).not.toContain('do-not-echo');
    const list = await request(paused.leaderboardUrl).get(`/v1/leaderboard/webhooks/${sub.subscription.id}/deliveries`).set('Authorization', `Bearer ${sub.token}`);
    expect(list.body.items[0]).toMatchObject({ status: 'failed', responseStatus: 503, lastError: 'The URL answered HTTP 503.' });
    expect(list.body.items[0].attempts).toBeGreaterThan(1);
    // Resuming makes it active again.
    const resumed = await request(paused.leaderboardUrl).post(`/v1/leaderboard/webhooks/${sub.subscription.id}/resume`).set('Authorization', `Bearer ${sub.token}`);
    expect(resumed.body).toMatchObject({ status: 'active', pausedReason: null, pausedAt: null });
  } finally {
    await w.stop(2000);
    await paused.close();
  }
});

test('a subscription is managed with its token only: 401 without, 404 with a wrong one, deleted with it', async () => {
  const r = await receiver();
  await ensureCategory(t.db, 'payments');
  const sub = await subscribe({ url: r.url, category: 'payments', events: ['grade.changed'], description: 'Payments watch' });
  expect(sub.subscription).toMatchObject({ category: 'payments', domain: null, description: 'Payments watch', status: 'active' });
  const path = `/v1/leaderboard/webhooks/${sub.subscription.id}`;
  expectErrorBody(await request(t.leaderboardUrl).get(path), 401);
  expectErrorBody(await request(t.leaderboardUrl).get(path).set('Authorization', 'Bearer whk_wrong'), 404, 'not_found');
  const read = await request(t.leaderboardUrl).get(path).set('Authorization', `Bearer ${sub.token}`);
  expect(read.status).toBe(200);
  expect(read.body).toEqual(sub.subscription);
  // Neither the token nor the secret is ever shown again.
  expect(JSON.stringify(read.body)).not.toContain(sub.secret);
  expect(JSON.stringify(read.body)).not.toContain(sub.token);
  expect((await request(t.leaderboardUrl).delete(path).set('Authorization', `Bearer ${sub.token}`)).status).toBe(204);
  expectErrorBody(await request(t.leaderboardUrl).get(path).set('Authorization', `Bearer ${sub.token}`), 404);
});

describe('401 without a bearer token: a challenge (RFC 9110 §11.6.1, RFC 6750 §3) and a message saying what is missing', () => {
  const id = '3f1c2a64-8d1e-4c55-9a7b-0c6f2d9e1a10';
  const operations = [
    ['GET', `/v1/leaderboard/webhooks/${id}`],
    ['DELETE', `/v1/leaderboard/webhooks/${id}`],
    ['POST', `/v1/leaderboard/webhooks/${id}/resume`],
    ['GET', `/v1/leaderboard/webhooks/${id}/deliveries`],
  ] as const;
  const send = (method: string, path: string, authorization?: string) => {
    const req = request(t.leaderboardUrl)[method.toLowerCase() as 'get' | 'delete' | 'post'](path);
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };

  test.each(operations)('%s %s with no Authorization header', async (method, path) => {
    const res = await send(method, path);
    expectErrorBody(res, 401, 'unauthorized');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="leaderboard"');
    expect(res.body.message).toBe(
      'The request has no Authorization header. Send "Authorization: Bearer <token>" with the management token createWebhook returned for this subscription (there are no accounts).',
    );
  });

  test.each([
    ['another scheme', 'Basic dXNlcjpzM2NyZXQ=', /uses the Basic scheme; this operation takes a bearer token/, 'Bearer realm="leaderboard"'],
    ['a scheme name that is not a token', 'B@sic dXNlcjpzM2NyZXQ=', /uses another scheme; this operation takes a bearer token/, 'Bearer realm="leaderboard"'],
    ['Bearer without a token', 'Bearer', /no bearer token, or one that is not a token/, 'Bearer realm="leaderboard", error="invalid_request"'],
    ['Bearer with two words', 'Bearer whk_s3cret whk_other', /no bearer token, or one that is not a token/, 'Bearer realm="leaderboard", error="invalid_request"'],
    // The validator let any header containing "bearer" through.
    ['Basic with bearer inside', 'Basic bearerdXNlcjpzM2NyZXQ=', /uses the Basic scheme/, 'Bearer realm="leaderboard"'],
  ])('%s', async (_name, authorization, message, challenge) => {
    for (const [method, path] of operations) {
      const res = await send(method, path, authorization);
      expectErrorBody(res, 401, 'unauthorized');
      expect(res.headers['www-authenticate']).toBe(challenge);
      expect(res.body.message).toMatch(message);
      // What was sent is never repeated.
      expect(res.body.message).not.toMatch(/dXNlcjpzM2NyZXQ|s3cret|whk_other/);
    }
  });

  test('a well-formed token is the operation\'s to judge: a wrong one is 404, not 401 (ids cannot be probed)', async () => {
    const res = await send('GET', `/v1/leaderboard/webhooks/${id}`, 'bearer  whk_wrong');
    expectErrorBody(res, 404, 'not_found');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

test.each([
  [{ url: 'https://hooks.example.com/x', events: ['scan.ended'] }, 422, 'invalid_subscription'],
  [{ url: 'https://hooks.example.com/x', domain: 'a.com', category: 'payments', events: ['scan.ended'] }, 422, 'invalid_subscription'],
  [{ url: 'https://hooks.example.com/x', category: 'no-such-category', events: ['scan.ended'] }, 404, 'not_found'],
  [{ url: 'ftp://hooks.example.com/x', domain: 'a.com', events: ['scan.ended'] }, 422, 'webhook_url_refused'],
  [{ url: 'https://user:pw@hooks.example.com/x', domain: 'a.com', events: ['scan.ended'] }, 422, 'webhook_url_refused'],
  [{ url: 'https://hooks.example.com/x', domain: 'a.com', events: [] }, 400, undefined],
  [{ url: 'https://hooks.example.com/x', domain: 'a.com', events: ['nope'] }, 400, undefined],
])('a bad subscription is refused: %j', async (body, status, code) => {
  expectErrorBody(await request(t.leaderboardUrl).post('/v1/leaderboard/webhooks').send(body), status, code);
});

describe('a refused URL is explained in terms of webhooks and their deliveries, not of scanning', () => {
  const refusal = async (base: string, url: string) => {
    const res = await request(base).post('/v1/leaderboard/webhooks').send({ url, domain: 'a.com', events: ['scan.ended'] });
    expectErrorBody(res, 422, 'webhook_url_refused');
    expect(res.body.message).not.toMatch(/scan/i);
    return res.body.message as string;
  };

  test('scheme, credentials and a name that does not resolve', async () => {
    expect(await refusal(t.leaderboardUrl, 'ftp://hooks.example.com/x')).toBe('Webhooks are delivered over http or https only, not ftp.');
    expect(await refusal(t.leaderboardUrl, 'https://user:pw@hooks.example.com/x')).toBe(
      'A webhook URL cannot carry credentials (user:password@): check the webhook-signature header of each delivery instead.',
    );
    expect(await refusal(t.leaderboardUrl, 'https://no-such-host.invalid/x')).toBe(
      "The webhook URL's host no-such-host.invalid could not be resolved (DNS), so nothing could be delivered to it.",
    );
  });

  test('a port other than a web port, and a private address (private networks not allowed); the address is not repeated', async () => {
    const strict = await startTestServer({ env: { SCAN_ALLOW_PRIVATE_NETWORKS: 'false' }, dbName: 'webhooks_words' });
    try {
      expect(await refusal(strict.leaderboardUrl, 'https://hooks.example.com:25/x')).toBe('Port 25 is not a web port; webhooks are delivered to ports 80, 443, 8080 and 8443 only.');
      const message = await refusal(strict.leaderboardUrl, 'http://localhost/x');
      expect(message).toBe(
        "Webhooks are delivered to public addresses only; the webhook URL's host localhost is or resolves to a private, loopback, link-local or reserved address.",
      );
      expect(message).not.toMatch(/127\.0\.0\.1|::1/);
    } finally {
      await strict.close();
    }
  });
});

describe('SSRF guard (private networks not allowed, the default)', () => {
  test('a loopback URL is refused at subscription (422) and at delivery (nothing reaches it)', async () => {
    const r = await receiver();
    const strict = await startTestServer({ env: { SCAN_ALLOW_PRIVATE_NETWORKS: 'false' }, dbName: 'webhooks_strict' });
    try {
      const res = await request(strict.leaderboardUrl).post('/v1/leaderboard/webhooks').send({ url: r.url, domain: 'a.com', events: ['scan.ended'] });
      expectErrorBody(res, 422, 'webhook_url_refused');
      for (const url of [r.url, r.url.replace('127.0.0.1', 'localhost'), 'http://[::1]/', 'http://169.254.169.254/latest/meta-data/']) {
        const refused = await request(strict.leaderboardUrl).post('/v1/leaderboard/webhooks').send({ url, domain: 'a.com', events: ['scan.ended'] });
        expect(refused.status).toBe(422);
      }
    } finally {
      await strict.close();
    }
    // A subscription made while allowed (or a name that later resolves privately) is refused again when sent.
    const outcome = await sendWebhook(
      { url: r.url, id: 'id', body: '{}', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now: new Date() },
      { policy: { allowPrivateNetworks: false }, timeoutMs: 2000 },
    );
    expect(outcome).toEqual({ ok: false, status: null, error: expect.stringMatching(/^The URL resolves to an address deliveries may not reach/) });
    expect(r.received).toHaveLength(0);
  });
});

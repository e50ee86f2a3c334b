// Issue 21's findings, one block per row, each answered as the contract says (`{code, message, requestId}` with
// X-Request-Id) on every surface: MCP tool arguments (row 1), HTML error pages' headers (3), JSON that is not
// JSON-RPC (4), the metrics port (5), a wrong method with a body (7), absolute-form targets and CONNECT (8), and our
// own validation messages (9). Run on both databases.
import { Writable } from 'node:stream';
import request from 'supertest';
import { startOpsServer, type OpsServer } from '../src/metrics/ops-server';
import { insertProject } from './feedback-fixtures';
import { insertCompany } from './support/fixtures';
import { parseRaw, rawExchange } from './support/raw-http';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';

let t: TestServer;
let ops: OpsServer;
const logLines: string[] = [];
beforeAll(async () => {
  const logStream = new Writable({ write(chunk, _enc, done) { logLines.push(chunk.toString()); done(); } });
  t = await startTestServer({ logStream, env: { LOG_LEVEL: 'warn' } });
  await insertCompany(t.runtime.db, { name: 'Acme', domain: 'acme.example', score: 80 });
  await insertProject(t.runtime.db, { slug: 'hard-project' });
  ops = await startOpsServer({ host: '127.0.0.1', port: 0, metrics: t.runtime.metrics, logger: t.runtime.logger, ready: () => t.runtime.readiness.check() });
});
afterAll(async () => {
  await ops.close();
  await t.close();
});

/** One tools/call over POST /mcp; returns the tool result. */
async function callTool(url: string, name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; text: string }> {
  const res = await request(url).post('/mcp').set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  expect(res.status).toBe(200);
  const result = res.body.result as { isError?: boolean; content: Array<{ text: string }> };
  return { isError: result.isError, text: result.content[0].text };
}

describe('row 1: MCP tool arguments meet the HTTP edge rule for NUL and lone surrogates', () => {
  test.each([
    ['leaderboard', 'get_company', { domain: 'a\u0000b' }],
    ['leaderboard', 'get_company', { domain: 'a\ud800b' }],
    ['leaderboard', 'start_journey', { domain: 'acme\u0000.example' }],
    ['leaderboard', 'search_leaderboard', { q: 'a\u0000' }],
    ['feedback', 'get_feedback_card', { slug: 'hard\u0000project' }],
    ['feedback', 'send_feedback_report', { slug: 'hard\u0000project', observation: 'Ten characters at least.', outcome: 'friction' }],
  ] as const)('%s %s %j is a bad_request tool error, nothing logged as a failure', async (host, name, args) => {
    const before = logLines.length;
    const result = await callTool(host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl, name, args);
    expect(result.isError).toBe(true);
    const body = JSON.parse(result.text) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
    expect(body.code).toBe('bad_request');
    expect(body.message).toMatch(/NUL character|lone surrogate/);
    expect(logLines.slice(before).join('')).not.toMatch(/tool call failed|internal_error|prisma|\.ts:\d+/i);
  });

  test('a report body keeps NUL (stored as JSON), as over HTTP', async () => {
    const result = await callTool(t.feedbackUrl, 'send_feedback_report', { slug: 'hard-project', observation: 'NUL \u0000 inside a body.', outcome: 'friction' });
    expect(result.isError).toBeUndefined();
  });
});

describe('row 3: HTML error pages carry the pages\' Content-Security-Policy', () => {
  test.each([
    ['404 of a page handler', '/companies/nobody.example', 404],
    ['400 of a page route', '/?limit=abc', 400],
    ['404 of an unknown path', '/no/such/page', 404],
  ])('%s', async (_name, path, status) => {
    for (const accept of ['text/html', 'text/markdown']) {
      const res = await request(t.leaderboardUrl).get(path).set('accept', accept);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toContain(accept);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });
});

describe('row 4: POST /mcp with JSON that is not JSON-RPC answers our 400', () => {
  test.each([
    ['an object without jsonrpc', { hello: 'world' }],
    ['an empty batch', []],
    ['a batch with a non-message', [{ jsonrpc: '2.0', id: 1, method: 'ping' }, 42]],
    ['JSON-RPC 1.0', { jsonrpc: '1.0', id: 1, method: 'ping' }],
  ])('%s', async (_name, body) => {
    const res = await request(t.leaderboardUrl).post('/mcp').set('accept', 'application/json, text/event-stream').set('content-type', 'application/json').send(JSON.stringify(body));
    expectErrorBody(res, 400, 'bad_request');
    expect(res.body.message).toMatch(/^The body (matches none of the forms|is an empty JSON-RPC batch|is not a JSON-RPC)/);
  });

  test('a JSON-RPC ping still answers', async () => {
    const res = await request(t.feedbackUrl).post('/mcp').set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('row 5: the metrics port answers what Node refuses with the error body', () => {
  test.each([
    ['a malformed request line', 400, 'GARBAGE\r\n\r\n'],
    ['a header without a colon', 400, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header y\r\n\r\n'],
    ['a request head over the limit', 431, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['CONNECT', 405, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ])('%s answers %d', async (_name, status, data) => {
    const res = parseRaw(await rawExchange(ops.url, data));
    expectErrorBody(res, status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('an absolute-form target reaches its route', async () => {
    const res = parseRaw(await rawExchange(ops.url, `GET ${ops.url}/healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('row 7: a wrong method with a body answers 405 before the body is read', () => {
  test.each([
    ['JSON', 'application/json', '{"a":1}'],
    ['malformed JSON', 'application/json', '{'],
    ['text', 'text/plain', 'hello'],
    ['over 1 MiB', 'application/json', `"${'a'.repeat(1_100_000)}"`],
  ])('POST /healthz with %s', async (_name, type, body) => {
    const res = await request(t.leaderboardUrl).post('/healthz').set('content-type', type).send(body);
    expectErrorBody(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toMatch(/GET/);
  });

  test('PUT on the feedback reports with a JSON body', async () => {
    const res = await request(t.feedbackUrl).put('/v1/feedback/hard-project/reports').set('content-type', 'application/json').send('{"observation":1}');
    expectErrorBody(res, 405, 'method_not_allowed');
  });
});

describe('row 8: absolute-form request targets (RFC 9112 §3.2.2) and CONNECT', () => {
  test.each([
    ['leaderboard', '/v1/leaderboard?limit=1'],
    ['leaderboard', '/healthz'],
    ['feedback', '/v1/feedback/hard-project'],
  ] as const)('%s GET http://host%s is served as its origin form', async (host, path) => {
    const base = host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl;
    const raw = await rawExchange(base, `GET ${base}${path} HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n\r\n`);
    const res = parseRaw(raw);
    expect(res.status).toBe(200);
    const origin = await request(base).get(path);
    expect(res.body).toEqual(origin.body);
  });

  test.each(['leaderboard', 'feedback'] as const)('CONNECT on the %s host answers 405 with the error body', async (host) => {
    const res = parseRaw(await rawExchange(host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expectErrorBody(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });
});

describe('row 9: validation messages are our sentences', () => {
  test('a repeated parameter says so', async () => {
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard?limit=1&limit=2');
    expectErrorBody(res, 400, 'bad_request');
    expect(res.body.message).toBe('The query parameter "limit" is given more than once; give it once.');
  });

  test.each([
    ['/v1/leaderboard?limit=abc', 'The query parameter limit must be a whole number.'],
    ['/v1/leaderboard?limit=500', 'The query parameter limit must be at most 100.'],
    ['/v1/leaderboard?limit=0', 'The query parameter limit must be at least 1.'],
    ['/v1/leaderboard?sort=height', 'The query parameter sort must be one of: score, company, category, scanned.'],
    ['/v1/leaderboard?color=red', 'The query parameter color is not one this operation takes.'],
  ])('GET %s', async (path, message) => {
    const res = await request(t.leaderboardUrl).get(path);
    expectErrorBody(res, 400, 'bad_request');
    expect(res.body.message).toBe(message);
  });

  test('MCP tool arguments get the same sentences, no schema regex', async () => {
    const pattern = JSON.parse((await callTool(t.leaderboardUrl, 'get_journey', { journeyId: 'not-an-id' })).text) as Record<string, string>;
    expect(pattern).toMatchObject({ code: 'bad_request', message: 'Invalid arguments for get_journey: journeyId is not in the form the contract describes for it.' });
    const bound = JSON.parse((await callTool(t.leaderboardUrl, 'search_leaderboard', { limit: 500 })).text) as Record<string, string>;
    expect(bound.message).toBe('Invalid arguments for search_leaderboard: limit must be at most 100.');
  });

  test('no schema regex, no validator wording, in any message', async () => {
    const answers = await Promise.all([
      request(t.leaderboardUrl).get(`/v1/leaderboard/companies/${'x'.repeat(300)}`),
      request(t.leaderboardUrl).get('/v1/leaderboard?category=Not%20A%20Slug!'),
      request(t.feedbackUrl).post('/v1/feedback/hard-project/reports').send({ observation: 'short', outcome: 'maybe' }),
      request(t.feedbackUrl).post('/v1/feedback/hard-project/reports').send({ observation: 'Long enough to pass.', outcome: 'friction', metadata: { 'bad key!': 1 } }),
      request(t.leaderboardUrl).post('/v1/leaderboard/scans').send({ url: 'not a url', extra: 1 }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.message).not.toMatch(/\^|\$"|\\\\|must match|must NOT|must have|should|pattern|<=|>=/);
      expect(res.body.message).toMatch(/^The /);
    }
  });
});

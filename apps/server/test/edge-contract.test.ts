// The edge of both hosts, probed as an attacker would: values the database cannot hold, query strings encoded the
// way forms, browsers and our own client encode them, lenient numbers, HEAD, bodies on GET, library error text, and
// errors raised below Express (malformed request line, oversized head, slow clients). Every answer must be a status
// the contract lists for the operation, and every error the exact `{code, message, requestId}` body.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { answerClientErrors } from '../src/http/client-errors';
import { parseRaw, rawExchange } from './support/raw-http';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';
import { insertProject } from './feedback-fixtures';
import { loadContracts, type ContractOperation } from './support/contract-model';

let t: TestServer;
let contracts: Awaited<ReturnType<typeof loadContracts>>;
beforeAll(async () => {
  t = await startTestServer();
  contracts = await loadContracts();
  await insertProject(t.runtime.db, { slug: 'edge-project' });
  const names = ['Fern Journal', "It's Here", 'Widget (beta)', 'C++ Tools', 'a/b testing', 'AT&T Labs', 'Who? What: @home', '100% Pure'];
  for (const [i, name] of names.entries()) await insertCompany(t.runtime.db, { name, domain: `edge${i}.example`, score: 50 + i });
});
afterAll(() => t.close());

function listedStatuses(host: 'leaderboard' | 'feedback', method: string, path: string): number[] {
  const op = contracts[host].operations.find((o: ContractOperation) => o.method === method && o.matches(path));
  if (!op) throw new Error(`no operation ${method} ${path}`);
  return op.statuses;
}

describe('NUL and other values the database cannot hold are refused at the edge', () => {
  const report = { observation: 'Something happened here.', outcome: 'friction' };
  // Every row has five entries: a shorter row would make jest pass `done` as the body.
  const cases: Array<[string, 'leaderboard' | 'feedback', string, string, unknown]> = [
    ['company read', 'leaderboard', 'get', '/v1/leaderboard/companies/%00', undefined],
    ['company read (NUL inside)', 'leaderboard', 'get', '/v1/leaderboard/companies/acme%00.com', undefined],
    ['journey start', 'leaderboard', 'post', '/v1/leaderboard/companies/%00/journeys', {}],
    ['feedback card', 'feedback', 'get', '/v1/feedback/%00', undefined],
    ['report schema', 'feedback', 'get', '/v1/feedback/%00/report-schema', undefined],
    ['feedback page', 'feedback', 'get', '/v1/feedback/%00/page', undefined],
    ['report', 'feedback', 'post', '/v1/feedback/%00/reports', report],
    ['leaderboard with NUL in q', 'leaderboard', 'get', '/v1/leaderboard?q=a%00b', undefined],
  ];
  test.each(cases)('%s answers 400, not 500', async (_name, host, method, url, body) => {
    const base = host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl;
    const req = method === 'get' ? request(base).get(url) : request(base).post(url).send(body as object);
    const res = await req;
    expectErrorBody(res, 400, 'bad_request');
    expect(res.body.message).toMatch(/NUL|character/i);
    expect(listedStatuses(host, method, url.split('?')[0])).toContain(400);
  });

  test('a report body keeps NUL and lone surrogates (reports are stored as JSON, exactly as sent)', async () => {
    // The rule is for parameters; percent-escapes must be UTF-8, so a lone surrogate can only arrive in a body.
    const res = await request(t.feedbackUrl).post('/v1/feedback/edge-project/reports').set('content-type', 'application/json').send('{"observation":"Lone \\ud800 and \\u0000 here","outcome":"friction"}');
    expect(res.status).toBe(201);
  });
});

describe('query strings are read as browsers, forms and clients encode them', () => {
  const search = async (rawQuery: string) => {
    const res = await request(t.leaderboardUrl).get(`/v1/leaderboard?${rawQuery}`);
    expect({ status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ status: 200, body: undefined });
    return (res.body as { items: Array<{ company: { name: string } }> }).items.map((i) => i.company.name);
  };

  test.each([
    ['Fern Journal', 'q=Fern+Journal'],
    ["It's Here", "q=it's"],
    ['Widget (beta)', 'q=(beta)'],
    ['C++ Tools', 'q=C%2B%2B'],
    ['a/b testing', 'q=a/b'],
    ['AT&T Labs', 'q=AT%26T'],
    ['Who? What: @home', 'q=Who?+What:+@home'],
    ['100% Pure', 'q=100%25'],
  ])('finds %s from the raw query %s', async (name, raw) => {
    expect(await search(raw)).toEqual([name]);
  });

  test('a raw + is a space (C++ searches for "C  ")', async () => {
    expect(await search('q=C++')).toEqual([]);
  });

  test('URLSearchParams and encodeURIComponent encodings of every name find it', async () => {
    for (const name of ['Fern Journal', "It's Here", 'Widget (beta)', 'C++ Tools', 'a/b testing', 'AT&T Labs', 'Who? What: @home', '100% Pure']) {
      expect(await search(new URLSearchParams({ q: name }).toString())).toEqual([name]);
      expect(await search(`q=${encodeURIComponent(name)}`)).toEqual([name]);
    }
  });

  test('a query string that is not correctly percent-encoded answers 400 with our sentence', async () => {
    for (const raw of ['q=%E0%A4%A', 'q=%zz', 'q=%']) {
      const res = await request(t.leaderboardUrl).get(`/v1/leaderboard?${raw}`);
      expectErrorBody(res, 400, 'bad_request');
      expect(res.body.message).toBe('The query string is not correctly percent-encoded.');
    }
  });

  test('the generated client round-trips every printable ASCII character in q', async () => {
    const rows = [];
    for (let c = 0x20; c <= 0x7e; c += 1) {
      const ch = String.fromCharCode(c);
      rows.push({ name: `pfx${ch}${c.toString(16)}`, domain: `char${c.toString(16)}.example`, website: `https://char${c.toString(16)}.example/`, source: 'curated' as const, score: 40, grade: 'D', scannedAt: new Date('2026-11-20T12:00:00.000Z') });
    }
    await t.runtime.db.prisma.company.createMany({ data: rows });
    t.runtime.changes.publish();
    const failures: string[] = [];
    for (let c = 0x20; c <= 0x7e; c += 1) {
      const q = `${String.fromCharCode(c)}${c.toString(16)}`;
      const { data, response } = await t.client.GET('/v1/leaderboard', { params: { query: { q, limit: 100 } } });
      const names = data?.items.map((i) => i.company.name) ?? [];
      if (response.status !== 200 || !names.includes(`pfx${q}`)) failures.push(`${JSON.stringify(q)}: ${response.status} ${names.join(',')}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('integers follow the contract strictly', () => {
  test.each(['0x10', '1e1', '%2B5', '%2050', '50%20', '1.0', '0b1', 'Infinity', '-0x1'])('limit=%s answers 400', async (raw) => {
    expectErrorBody(await request(t.leaderboardUrl).get(`/v1/leaderboard?limit=${raw}`), 400, 'bad_request');
  });
  test('an integer too long for a double (Infinity) answers 400 with the bound, not 500', async () => {
    // The contract fuzz found days=9{400} on an existing company's history answering 500.
    for (const path of ['/v1/leaderboard/companies/edge0.example/history', '/v1/leaderboard/companies/edge0.example/check-changes', '/v1/leaderboard']) {
      const name = path === '/v1/leaderboard' ? 'limit' : 'days';
      const res = await request(t.leaderboardUrl).get(`${path}?${name}=${'9'.repeat(400)}`);
      expectErrorBody(res, 400, 'bad_request');
      expect(res.body.message).toMatch(new RegExp(`${name} must be at most \\d+`));
    }
  });
  test.each(['1', '50', '100'])('limit=%s is accepted', async (raw) => {
    expect((await request(t.leaderboardUrl).get(`/v1/leaderboard?limit=${raw}`)).status).toBe(200);
  });
});

describe('HEAD works wherever GET does', () => {
  const gets: Array<['leaderboard' | 'feedback', string]> = [
    ['leaderboard', '/healthz'],
    ['leaderboard', '/readyz'],
    ['leaderboard', '/v1/leaderboard'],
    ['leaderboard', '/v1/leaderboard/categories'],
    ['leaderboard', '/v1/leaderboard/companies/edge0.example'],
    ['leaderboard', '/v1/leaderboard/scans/00000000-0000-4000-8000-000000000000'],
    ['feedback', '/healthz'],
    ['feedback', '/v1/feedback/edge-project'],
    ['feedback', '/v1/feedback/edge-project/page'],
  ];
  test.each(gets)('%s HEAD %s answers as GET does, without a body', async (host, path) => {
    const base = host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl;
    const get = await fetch(base + path);
    const head = await fetch(base + path, { method: 'HEAD' });
    expect(head.status).toBe(get.status);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('x-request-id')).toBeTruthy();
    expect(await head.text()).toBe('');
  });
  test('405 lists HEAD beside GET', async () => {
    const res = await request(t.leaderboardUrl).delete('/v1/leaderboard');
    expectErrorBody(res, 405, 'method_not_allowed');
    expect(res.headers.allow?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD']);
  });
});

describe('no status outside the contract', () => {
  test('an unknown query parameter on the probes answers a status the probes list', async () => {
    for (const [host, base] of [['leaderboard', t.leaderboardUrl], ['feedback', t.feedbackUrl]] as const) {
      for (const path of ['/healthz', '/readyz']) {
        const res = await request(base).get(`${path}?x=1`);
        expect(listedStatuses(host, 'get', path)).toContain(res.status);
        if (res.status >= 400) expectErrorBody(res, res.status);
      }
    }
  });

  test('a body on a GET is ignored, whatever its type or encoding', async () => {
    for (const [type, encoding] of [['application/json', 'gzip'], ['application/json', 'x-unknown'], ['application/json; charset=latin-9', 'identity'], ['text/plain', 'identity'], ['application/json', 'identity']]) {
      const raw = await rawExchange(t.leaderboardUrl, `GET /v1/leaderboard/categories HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Encoding: ${encoding}\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{"a":`);
      expect([type, encoding, parseRaw(raw).status]).toEqual([type, encoding, 200]);
    }
  });

  test('a body on an operation that declares none (resume, delete) is ignored, whatever its type or encoding', async () => {
    // The contract fuzz found POST /webhooks/{id}/resume with `Content-Encoding: x-unknown` answering an unlisted 415.
    const answered: string[] = [];
    for (const host of ['leaderboard', 'feedback'] as const) {
      const base = host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl;
      for (const op of contracts[host].operations.filter((o) => o.method !== 'get' && !o.body)) {
        const path = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        for (const [type, encoding] of [['application/json', 'x-unknown'], ['text/plain', 'identity'], ['application/json', 'gzip']]) {
          const res = await request(base)[op.method as 'post' | 'delete'](path).set('content-type', type).set('content-encoding', encoding).send('{');
          answered.push(`${op.operationId} ${type} ${encoding}: ${op.statuses.includes(res.status) && res.status !== 415 ? 'listed' : res.status}`);
        }
      }
    }
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.filter((line) => !line.endsWith('listed'))).toEqual([]);
  });

  test('a body that does not decompress answers 400 with our sentence, not zlib text', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await request(t.leaderboardUrl).post('/v1/leaderboard/scans').set('content-type', 'application/json').set('content-encoding', encoding).send('{"url":"https://example.com"}');
      expectErrorBody(res, 400, 'bad_request');
      expect(res.body.message).toBe('The request body could not be decompressed (Content-Encoding).');
    }
  });

  test('a malformed percent-encoding in the path answers 400 with our sentence', async () => {
    const res = await request(t.leaderboardUrl).get('/v1/leaderboard/companies/%E0%A4%A');
    expectErrorBody(res, 400, 'bad_request');
    expect(res.body.message).toBe('The request path is not correctly percent-encoded.');
  });

  test('an empty path segment in place of each path parameter answers a status the operation lists', async () => {
    // `/companies//badge.svg` routes nowhere (404): every operation with a path parameter must list that answer.
    // Found by the contract fuzz (an empty draw for {domain}); walked here for every operation at once.
    const unlisted: string[] = [];
    for (const host of ['leaderboard', 'feedback'] as const) {
      const base = host === 'leaderboard' ? t.leaderboardUrl : t.feedbackUrl;
      for (const op of contracts[host].operations) {
        const names = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        for (const empty of names) {
          const path = names.reduce((p, name) => p.replace(`{${name}}`, name === empty ? '' : 'edge-project'), op.path);
          const call = request(base)[op.method as 'get' | 'post' | 'put' | 'delete'](path);
          const res = op.method === 'get' || op.method === 'delete' ? await call : await call.send({});
          if (!op.statuses.includes(res.status)) unlisted.push(`${op.operationId}: ${op.method.toUpperCase()} ${path} answered ${res.status}, lists ${op.statuses.join(',')}`);
        }
      }
    }
    expect(unlisted).toEqual([]);
  });

  test('a page for a domain that is a dot segment answers 404, not the leaderboard read as a company (500)', async () => {
    // The contract fuzz found GET /companies/.. answering 500: the page's fetch of /v1/leaderboard/companies/.. is
    // resolved by the URL standard to /v1/leaderboard/.
    for (const path of ['/companies/..', '/companies/%2E%2E', '/companies/../journey', '/companies/%2e%2e/journey?community=include']) {
      const res = await request(t.leaderboardUrl).get(path).set('accept', 'text/html');
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  test('unknown routes and wrong methods answer in our words', async () => {
    const notFound = await request(t.leaderboardUrl).get('/v1/nothing');
    expectErrorBody(notFound, 404, 'route_not_found');
    expect(notFound.body.message).toBe('No route GET /v1/nothing.');
    const wrong = await request(t.feedbackUrl).put('/v1/feedback/edge-project');
    expectErrorBody(wrong, 405, 'method_not_allowed');
    expect(wrong.body.message).toBe('PUT is not allowed on /v1/feedback/edge-project.');
  });
});

describe('errors raised below Express carry the error body and X-Request-Id', () => {
  test.each([
    ['a malformed request line', 400, 'GARBAGE\r\n\r\n'],
    ['a header without a colon', 400, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header y\r\n\r\n'],
    ['an unknown method', 400, 'FROB /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['Content-Length with Transfer-Encoding', 400, 'POST /v1/leaderboard/scans HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a request head over the limit', 431, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
  ])('%s answers %d with the error body', async (_name, status, data) => {
    const res = parseRaw(await rawExchange(t.leaderboardUrl, data));
    expectErrorBody(res, status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers.connection).toBe('close');
  });

  test('a client too slow to send its request answers 408 with the error body', async () => {
    // Our handler on a server with short timeouts: the hosts use 10 s / 30 s, too long for a test.
    const server = http.createServer({ requestTimeout: 300, headersTimeout: 300, connectionsCheckingInterval: 50 }, (_req, res) => res.end('late'));
    answerClientErrors(server, t.runtime.logger);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = parseRaw(await rawExchange(url, 'GET /healthz HTTP/1.1\r\nHost: x\r\n', { keepOpen: true }));
      expectErrorBody(res, 408, 'request_timeout');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('the contract documents them', () => {
    for (const host of ['leaderboard', 'feedback'] as const) {
      const responses = contracts[host].components.responses;
      expect(Object.keys(responses)).toEqual(expect.arrayContaining(['RequestTimeout', 'RequestHeaderFieldsTooLarge']));
      expect(contracts[host].description).toMatch(/408/);
      expect(contracts[host].description).toMatch(/431/);
    }
  });
});

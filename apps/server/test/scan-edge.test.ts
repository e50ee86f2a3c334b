// Limits of operation 5 that mean what the README says: a refused URL (422) does not use up the client's scan rate
// limit; a public host is scanned on web ports only; a host name with the root label's dot is judged (and joined)
// as the same name without it. Private networks are NOT allowed here, as in production; DNS is a fake on loopback.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkScannableUrl, createGuardedFetch, GuardedFetchError } from '@arl/scanner';
import { SCANNABLE_PORTS } from '../src/scans/target';
import request from 'supertest';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';

const PUBLIC = '93.184.216.34';
const lookup = async (hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>> => {
  if (hostname === 'public.example') return [{ address: PUBLIC, family: 4 }];
  if (hostname === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ env: { SCAN_ALLOW_PRIVATE_NETWORKS: 'false', SCAN_RATE_LIMIT: '2' }, fetchPolicy: { lookup } });
});
afterAll(() => t.close());

const scan = (url: string) => request(t.leaderboardUrl).post('/v1/leaderboard/scans').send({ url });

test('refused URLs do not use up the rate limit; accepted ones do', async () => {
  for (const url of ['http://127.0.0.1/', 'http://localhost./', 'http://public.example:6379/', 'ftp://public.example/', 'http://user:pw@public.example/', 'http://[::1]/']) {
    expectErrorBody(await scan(url), 422, 'unscannable_url');
  }
  expect((await scan('https://public.example/one')).status).toBe(202);
  expect((await scan('https://public.example/two')).status).toBe(202);
  const limited = await scan('https://public.example/three');
  expectErrorBody(limited, 429, 'rate_limited');
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
});

test.each([25, 22, 6379, 5432, 11211, 8000, 3000])('a public host on port %d is refused with a reason naming the rule', async (port) => {
  const res = await scan(`http://public.example:${port}/`);
  expectErrorBody(res, 422, 'unscannable_url');
  expect(res.body.message).toBe(`Port ${port} is not a web port; scans reach ports 80, 443, 8080, 8443 only.`);
});

test('web ports are scanned; a default port written out is the same target', async () => {
  expect((await t.runtime.scans.vet('http://public.example:8080/')).target).toBe('http://public.example:8080/');
  expect((await t.runtime.scans.vet('https://public.example:8443/')).target).toBe('https://public.example:8443/');
  expect((await t.runtime.scans.vet('https://public.example:443/a')).target).toBe('https://public.example/a');
  expect((await t.runtime.scans.vet('http://public.example:80/a')).target).toBe('http://public.example/a');
});

test('a trailing dot is the same name: same target and domain, and the private-address check sees through it', async () => {
  const dotted = await t.runtime.scans.vet('https://public.example./path');
  expect({ target: dotted.target, domain: dotted.domain, host: dotted.url.hostname }).toEqual({ target: 'https://public.example/path', domain: 'public.example', host: 'public.example' });
  const res = await scan('http://localhost./');
  expectErrorBody(res, 422, 'unscannable_url');
  expect(res.body.message).toMatch(/127\.0\.0\.1.*not a public address/);
  // The scanner's own check (every redirect hop goes through it) normalises the name too.
  expect(await checkScannableUrl('http://localhost./', { allowPrivateNetworks: false, lookup })).toMatchObject({ ok: false, code: 'blocked_address' });
});

test('a redirect to another port of a public host is not followed (every hop meets the port rule)', async () => {
  const site = http.createServer((_req, res) => res.writeHead(302, { location: 'http://public.example:6379/' }).end());
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  try {
    // public.example resolves to a public address; the test routes the connection to the local site, whose port
    // stands in for a web port.
    const guarded = createGuardedFetch({ lookup, allowPrivateNetworks: false, publicPorts: [...SCANNABLE_PORTS, port] }, { dial: () => ({ address: '127.0.0.1', family: 4 }) });
    const error = await guarded(`http://public.example:${port}/`).then(() => null, (err: unknown) => err);
    expect(error).toBeInstanceOf(GuardedFetchError);
    expect((error as GuardedFetchError).message).toMatch(/Port 6379 of a public host is not fetched/);
  } finally {
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  }
});

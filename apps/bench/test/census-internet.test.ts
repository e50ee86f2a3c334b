// The census bench's simulated internet: the population mix over a seeded population is the one the bench README
// cites, the same seed gives the same sites, and a site answers over TLS signed by the bench authority (and only a
// client that trusts that authority gets through).
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as os from 'node:os';
import * as path from 'node:path';
import { startInternet, type Internet } from '../src/census/internet';
import { generatePopulation, mixOf, MIX } from '../src/census/population';
import { makeTestCa, type TestCa } from '../src/census/test-ca';

describe('census population', () => {
  const sites = generatePopulation({ sites: 20_000, seed: 7 });
  const mix = mixOf(sites);

  it('draws the cited mix', () => {
    // 20,000 draws: a share's standard error is under 0.3 points; the bounds allow about four.
    expect(mix.robots).toBeCloseTo(MIX.robots, 1);
    expect(Math.abs(mix.aiBlocked - MIX.aiBlocked)).toBeLessThan(0.012);
    expect(Math.abs(mix.llmsTxt - MIX.llmsTxt)).toBeLessThan(0.006);
    expect(Math.abs(mix.dead - MIX.dead)).toBeLessThan(0.004);
    expect(Math.abs(mix.waf - MIX.waf)).toBeLessThan(0.005);
    expect(mix.drip).toBeGreaterThan(0.005);
    expect(sites.every((s) => !s.aiBlocked || s.robots)).toBe(true);
  });

  it('draws HTML sizes around 30 KB with a tail past 1 MB, and round trips from 20 to 300 ms', () => {
    expect(mix.htmlMedianBytes).toBeGreaterThan(27 * 1024);
    expect(mix.htmlMedianBytes).toBeLessThan(33 * 1024);
    expect(mix.htmlP90Bytes).toBeGreaterThan(120 * 1024);
    expect(mix.overOneMb).toBeGreaterThan(0);
    expect(Math.min(...sites.map((s) => s.rttMs))).toBeGreaterThanOrEqual(20);
    expect(Math.max(...sites.map((s) => s.rttMs))).toBeLessThanOrEqual(300);
  });

  it('is the same population for the same seed', () => {
    // The address depends on the population's size (sites per address), the rest on the seed alone.
    const drawn = (s: ReturnType<typeof generatePopulation>) => s.map(({ address: _address, ...rest }) => rest);
    expect(drawn(generatePopulation({ sites: 50, seed: 7 }))).toEqual(drawn(sites.slice(0, 50)));
    expect(drawn(generatePopulation({ sites: 50, seed: 8 }))).not.toEqual(drawn(sites.slice(0, 50)));
  });
});

describe('census internet over TLS', () => {
  let dir: string;
  let ca: TestCa;
  let internet: Internet;
  const sites = generatePopulation({ sites: 40, seed: 3, sitesPerAddress: 20 });
  const live = sites.find((s) => s.kind === 'ok' && s.robots)!;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-census-test-'));
    ca = makeTestCa(dir, 'census.test');
    internet = await startInternet({ sites, certFile: ca.certFile, keyFile: ca.keyFile, port: 0 });
  });
  afterAll(async () => {
    await internet.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (pathname: string, caPem?: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.get(
        { host: live.address, port: internet.port, path: pathname, servername: live.host, headers: { host: live.host }, ...(caPem ? { ca: caPem } : {}), agent: false },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => { body += c; });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
    });

  it('answers a client that trusts the bench authority, with the site delayed by its round trips', async () => {
    const caPem = fs.readFileSync(ca.caFile, 'utf8');
    const started = Date.now();
    const robots = await get('/robots.txt', caPem);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * live.rttMs - 5);
    expect(robots.status).toBe(200);
    expect(robots.body).toContain('User-agent: *');
    const home = await get('/', caPem);
    expect(home.status).toBe(200);
    expect(home.body).toMatch(/^<!doctype html>/);
    expect(Buffer.byteLength(home.body)).toBeGreaterThan(live.htmlBytes * 0.9);
    expect(internet.counters.handshakes).toBeGreaterThanOrEqual(2);
  });

  it('is refused by a client that does not trust it', async () => {
    await expect(get('/')).rejects.toThrow(/certificate/i);
  });
});

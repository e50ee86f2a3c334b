// Reports and score history through the real server and worker: a sandbox persona is scanned, then its report is
// read by scan and by company; stored evidence is bounded and stripped of credentials; history ranks are recomputed
// from the scores every company had at each moment.
import { randomUUID } from 'node:crypto';
import { CATALOG_VERSION, CHECK_CATALOG } from '@arl/scanner';
import { expectErrorBody } from './support/harness';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 0 });
});
afterAll(() => t.close());

const get = async (path: string) => {
  const res = await fetch(`${t.leaderboardUrl}${path}`);
  return { status: res.status, headers: Object.fromEntries(res.headers), body: (await res.json()) as any };
};

test('a finished scan has a full report: every check with its description, evidence and fix; the company report is the same', async () => {
  const started = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('typical-saas') } });
  const scanId = started.data!.scan.id;
  const scan = await t.waitForEnd(scanId);
  expect(scan.ending).toBe('finished');

  const { data: report, response } = await t.client.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId } } });
  expect(response.status).toBe(200);
  expect(report).toMatchObject({
    scanId, domain: scan.domain, kind: 'website', catalogVersion: CATALOG_VERSION, ending: 'finished',
    score: scan.score, grade: scan.grade, scannedAt: scan.endedAt,
  });
  expect(report!.url).toBe(t.urlOf('typical-saas'));
  expect(report!.summary).toEqual(expect.any(String));
  expect(report!.layers.map((l) => l.id)).toEqual(['discovery', 'access', 'usability', 'payments']);
  expect(report!.checks.map((c) => c.id)).toEqual(CHECK_CATALOG.map((c) => c.id));
  const byId = new Map(CHECK_CATALOG.map((c) => [c.id, c]));
  for (const check of report!.checks) {
    expect(check.description).toBe(byId.get(check.id)!.description);
    expect(check.evidence.detail.length).toBeGreaterThan(0);
    if (check.status === 'failed' || check.status === 'warning') expect(check.fix).toEqual(expect.any(String));
    else expect(check.fix).toBeNull();
  }
  // A typical SaaS site fails some checks: the report says where it looked and what to change.
  const failed = report!.checks.filter((c) => c.status === 'failed');
  expect(failed.length).toBeGreaterThan(0);
  expect(failed.some((c) => c.evidence.url?.startsWith('http') && typeof c.evidence.status === 'number')).toBe(true);

  // The company (a community company: the sandbox is not curated) answers with the same report.
  const hidden = await get(`/v1/leaderboard/companies/${scan.domain}/report`);
  expectErrorBody(hidden, 404, 'not_found');
  const company = await get(`/v1/leaderboard/companies/${scan.domain.toUpperCase()}/report?community=include`);
  expect(company.status).toBe(200);
  expect(company.body).toEqual(report);
});

test('a scan that has not ended answers 409 report_not_ready; unknown ids 404; malformed ids 400', async () => {
  await t.db.prisma.scan.create({ data: { id: randomUUID(), target: 'https://waiting.test/', url: 'https://waiting.test/', domain: 'waiting.test', state: 'running' } });
  const running = await t.db.prisma.scan.findFirstOrThrow({ where: { domain: 'waiting.test' } });
  expectErrorBody(await get(`/v1/leaderboard/scans/${running.id}/report`), 409, 'report_not_ready');
  expectErrorBody(await get(`/v1/leaderboard/scans/${randomUUID()}/report`), 404, 'not_found');
  expectErrorBody(await get(`/v1/leaderboard/scans/NOT-A-UUID/report`), 400, 'bad_request');
  expectErrorBody(await get(`/v1/leaderboard/companies/nobody.test/report`), 404, 'not_found');
});

test('stored evidence is bounded and never shows cookies or authorization', async () => {
  const scanId = randomUUID();
  const long = 'x'.repeat(5000);
  await t.db.prisma.scan.create({
    data: {
      id: scanId, target: 'https://leaky.test/', url: 'https://leaky.test/', domain: 'leaky.test', state: 'ended', ending: 'sign_in_required',
      cause: 'Nothing public was reachable without signing in.', kind: 'website', catalogVersion: CATALOG_VERSION, endedAt: new Date(),
      checks: {
        create: [
          { checkId: 'robots-txt', name: 'robots', layer: 'discovery', tier: 'required', bonus: false, status: 'failed', earned: 0, points: 10, position: 0, fix: 'Serve it.',
            evidence: { url: 'https://user:pw@leaky.test/robots.txt', status: 200, detail: `sent Bearer abcdefghijklmnop and ${long}`, header: 'set-cookie: session=secret', excerpt: `Cookie: session=secret\nhello ${long}` } },
          { checkId: 'sitemap', name: 'sitemap', layer: 'discovery', tier: 'required', bonus: false, status: 'passed', earned: 10, points: 10, position: 1, fix: 'stale fix',
            evidence: { detail: 'ok', header: 'authorization: Basic dXNlcjpwYXNzd29yZA==' } },
          { checkId: 'gone-check', name: 'A retired check', layer: 'access', tier: 'recommended', bonus: false, status: 'warning', earned: 3.5, points: 7, position: 2, fix: 'Do better.',
            evidence: { url: 'not a url', status: 42, detail: 'partly', header: 'content-type: text/html' } },
        ],
      },
    },
  });
  const { status, body } = await get(`/v1/leaderboard/scans/${scanId}/report`);
  expect(status).toBe(200);
  expect(body).toMatchObject({ score: null, grade: null, summary: null, ending: 'sign_in_required', layers: [] });
  const [robots, sitemap, retired] = body.checks;
  const text = JSON.stringify(body);
  expect(text).not.toContain('secret');
  expect(text).not.toContain('abcdefghijklmnop');
  expect(text).not.toContain('dXNlcjpwYXNzd29yZA');
  expect(text).not.toContain('user:pw');
  expect(robots.evidence.url).toBe('https://leaky.test/robots.txt');
  expect(robots.evidence.header).toBeNull();
  expect(Array.from(robots.evidence.excerpt as string).length).toBe(500);
  expect(Array.from(robots.evidence.detail as string).length).toBe(1000);
  expect(robots.fix).toBe('Serve it.');
  expect(sitemap).toMatchObject({ fix: null, evidence: { header: null, url: null, status: null, excerpt: null, detail: 'ok' } });
  expect(retired).toMatchObject({ description: 'A retired check', evidence: { url: null, status: null, header: 'content-type: text/html' } });
});

describe('history', () => {
  const DAY = 24 * 60 * 60 * 1000;

  test('each scored scan records the rank its company had at that moment, in both populations, as the leaderboard showed it', async () => {
    const domainOf = (persona: 'exemplary' | 'content-site') => new URL(t.urlOf(persona)).hostname;
    for (const persona of ['exemplary', 'content-site'] as const) {
      await t.db.prisma.company.create({ data: { name: `Curated ${persona}`, website: t.urlOf(persona), domain: domainOf(persona), source: 'curated' } });
    }
    const seen: Record<string, Array<{ score: number; all: number; curated: number }>> = {};
    for (const persona of ['content-site', 'exemplary', 'content-site'] as const) {
      const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf(persona) } });
      const scan = await t.waitForEnd(data!.scan.id);
      expect(scan.ending).toBe('finished');
      const all = await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } });
      const curated = await t.client.GET('/v1/leaderboard', { params: { query: {} } });
      const rankIn = (items: Array<{ rank: number; company: { domain: string } }>) => items.find((i) => i.company.domain === domainOf(persona))!.rank;
      (seen[persona] ??= []).push({ score: scan.score!, all: rankIn(all.data!.items), curated: rankIn(curated.data!.items) });
    }
    for (const persona of ['exemplary', 'content-site'] as const) {
      const curated = await get(`/v1/leaderboard/companies/${domainOf(persona)}/history`);
      const all = await get(`/v1/leaderboard/companies/${domainOf(persona)}/history?community=include`);
      expect(curated.body.items.map((i: { score: number; rank: number }) => [i.score, i.rank])).toEqual(seen[persona].map((p) => [p.score, p.curated]));
      expect(all.body.items.map((i: { score: number; rank: number }) => [i.score, i.rank])).toEqual(seen[persona].map((p) => [p.score, p.all]));
    }
    // The first point had no curated company scored before it.
    expect(seen['content-site'][0].curated).toBe(1);
  });

  test('points oldest first within `days`, the rank of the asked population; bounds and visibility', async () => {
    const rows: Record<string, string> = {};
    for (const [domain, source] of [['alpha.test', 'curated'], ['gamma.test', 'community']] as const) {
      rows[domain] = (await t.db.prisma.company.create({ data: { name: domain, website: `https://${domain}`, domain, source, score: 50, grade: 'D', scannedAt: new Date() } })).id;
    }
    const now = Date.now();
    await t.db.prisma.scoreHistory.createMany({
      data: [
        { companyId: rows['alpha.test'], score: 60, grade: 'C', recordedAt: new Date(now - 200 * DAY), rankAll: 4, rankCurated: 3 },
        { companyId: rows['alpha.test'], score: 80, grade: 'B', recordedAt: new Date(now - 20 * DAY), rankAll: 2, rankCurated: 1 },
        { companyId: rows['alpha.test'], score: 83, grade: 'B', recordedAt: new Date(now - 2 * DAY), rankAll: null, rankCurated: null },
        { companyId: rows['gamma.test'], score: 95, grade: 'A', recordedAt: new Date(now - 30 * DAY), rankAll: 1, rankCurated: null },
      ],
    });
    const curated = await t.client.GET('/v1/leaderboard/companies/{domain}/history', { params: { path: { domain: 'alpha.test' }, query: {} } });
    expect(curated.response.status).toBe(200);
    expect(curated.data).toEqual({
      domain: 'alpha.test',
      days: 90,
      items: [
        { at: new Date(now - 20 * DAY).toISOString(), score: 80, grade: 'B', rank: 1 },
        { at: new Date(now - 2 * DAY).toISOString(), score: 83, grade: 'B', rank: null },
      ],
    });
    const all = await get('/v1/leaderboard/companies/ALPHA.test/history?community=include&days=365');
    expect(all.body.items.map((i: { score: number; rank: number | null }) => [i.score, i.rank])).toEqual([[60, 4], [80, 2], [83, null]]);
    expect((await get('/v1/leaderboard/companies/alpha.test/history?days=1')).body.items).toEqual([]);

    expectErrorBody(await get('/v1/leaderboard/companies/alpha.test/history?days=0'), 400, 'bad_request');
    expectErrorBody(await get('/v1/leaderboard/companies/alpha.test/history?days=366'), 400, 'bad_request');
    expectErrorBody(await get('/v1/leaderboard/companies/alpha.test/history?since=1'), 400, 'bad_request');
    expectErrorBody(await get('/v1/leaderboard/companies/gamma.test/history'), 404, 'not_found');
    expectErrorBody(await get('/v1/leaderboard/companies/nobody.test/history'), 404, 'not_found');
    expect((await get('/v1/leaderboard/companies/gamma.test/history?community=include')).body.items).toEqual([
      expect.objectContaining({ score: 95, grade: 'A', rank: 1 }),
    ]);
  });
});

// Scans end to end through the real worker against the sandbox personas: operation 5 -> job -> scanner -> results
// -> operations 6, 1 and 3. PGlite by default, PostgreSQL with TEST_DATABASE_URL.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCAN_PHASES } from '@arl/scanner';
import type { PersonaName } from '@arl/sandbox';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
beforeAll(async () => {
  t = await startScanTestServer({ latencyMs: 5 });
});
afterAll(() => t.close());

async function start(url: string, email?: string) {
  const { data, response, error } = await t.client.POST('/v1/leaderboard/scans', { body: { url, ...(email ? { email } : {}) } });
  if (error) throw new Error(`${response.status} ${JSON.stringify(error)}`);
  return { status: response.status, body: data! };
}

const steps = (scan: { events: Array<{ step: string }> }) => scan.events.map((e) => e.step);

test('exemplary persona: 202, every step in order, finished with a score, visible in operations 1 and 3, mail written', async () => {
  const { status, body } = await start(t.urlOf('exemplary'), 'owner@example.com');
  expect(status).toBe(202);
  expect(body).toEqual({ started: true, scan: { id: expect.any(String), state: 'waiting' }, domain: 'exemplary-co.test' });
  const scan = await t.waitForEnd(body.scan.id);
  expect(steps(scan)).toEqual(['waiting', 'running', ...SCAN_PHASES, 'ended']);
  const ats = scan.events.map((e) => Date.parse(e.at));
  expect(ats).toEqual([...ats].sort((a, b) => a - b));
  expect(Object.keys(scan).sort()).toEqual(['cause', 'domain', 'endedAt', 'ending', 'events', 'grade', 'id', 'score', 'state']);
  expect(scan).toMatchObject({ state: 'ended', ending: 'finished', domain: 'exemplary-co.test' });
  expect(['A+', 'A']).toContain(scan.grade);

  const { data: company } = await t.client.GET('/v1/leaderboard/companies/{domain}', {
    params: { path: { domain: 'exemplary-co.test' }, query: { community: 'include' } },
  });
  expect(company).toMatchObject({ domain: 'exemplary-co.test', source: 'community', score: scan.score, grade: scan.grade, rank: 1 });
  expect(company!.name).not.toBe('exemplary-co.test'); // named from the site's own metadata
  expect(company!.layers!.map((l) => l.id)).toEqual(['discovery', 'access', 'usability', 'payments']);
  expect(company!.checks!.length).toBeGreaterThan(40);

  const { data: board } = await t.client.GET('/v1/leaderboard', { params: { query: { community: 'include' } } });
  expect(board!.items.find((i) => i.company.domain === 'exemplary-co.test')).toMatchObject({ score: scan.score, newThisWeek: true });
  const { data: curatedOnly } = await t.client.GET('/v1/leaderboard', { params: { query: {} } });
  expect(curatedOnly!.items.find((i) => i.company.domain === 'exemplary-co.test')).toBeUndefined();

  // No SMTP_URL: the mail is an .eml file under DATA_DIR/outbox.
  const outbox = path.join(t.dataDir, 'outbox');
  // Written after the scan's end: polled for, with a deadline that only catches a hang (not 5 s, near normal under load).
  const file = await pollUntil('the mail in the outbox', async () => {
    const files = fs.existsSync(outbox) ? fs.readdirSync(outbox) : [];
    return files.length > 0 ? path.join(outbox, files[0]) : undefined;
  }, 120_000);
  // Quoted-printable body: undo soft line breaks and =XX escapes.
  const eml = fs.readFileSync(file, 'utf8').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  expect(eml).toContain('To: owner@example.com');
  expect(eml).toContain(`exemplary-co.test: ${scan.score}/100 (${scan.grade})`);
  expect(eml).toContain('/v1/leaderboard/companies/exemplary-co.test?community=include');
});

test('a curated company stays curated, keeps its name and category, and gets the score and its history', async () => {
  const category = await t.db.prisma.category.create({ data: { slug: 'publishing', name: 'Publishing' } });
  await t.db.prisma.company.create({
    data: { name: 'Fern Journal (curated)', website: 'https://fern-journal.test', domain: 'fern-journal.test', source: 'curated', categoryId: category.id },
  });
  const { body } = await start(t.urlOf('content-site'));
  const scan = await t.waitForEnd(body.scan.id);
  expect(scan.ending).toBe('finished');
  const company = await t.db.prisma.company.findUniqueOrThrow({ where: { domain: 'fern-journal.test' } });
  expect(company).toMatchObject({ name: 'Fern Journal (curated)', source: 'curated', categoryId: category.id, score: scan.score, grade: scan.grade, latestScanId: scan.id });
  expect(await t.db.prisma.scoreHistory.count({ where: { companyId: company.id, scanId: scan.id } })).toBe(1);
  const { data: board } = await t.client.GET('/v1/leaderboard', { params: { query: {} } });
  expect(board!.items.map((i) => i.company.domain)).toContain('fern-journal.test');
});

test.each([
  ['sign-in-wall persona', 'sign_in_required', () => t.urlOf('sign-in-wall'), 'members-only.test'],
  ['a name that does not resolve', 'failed', () => t.urlOf('exemplary').replace('exemplary-co.test', 'nowhere-at-all.test'), 'nowhere-at-all.test'],
])('%s: ends %s without a score, and no company is created', async (_name, ending, url, domain) => {
  const { status, body } = await start(url());
  expect(status).toBe(202);
  expect(body.domain).toBe(domain);
  const scan = await t.waitForEnd(body.scan.id);
  expect(scan.ending).toBe(ending);
  expect(scan.cause!.length).toBeGreaterThan(0);
  expect(scan).not.toHaveProperty('score');
  expect(scan).not.toHaveProperty('grade');
  expect(steps(scan)[0]).toBe('waiting');
  expect(steps(scan).at(-1)).toBe('ended');
  expect(await t.db.prisma.company.count({ where: { domain } })).toBe(0);
});

test.each<[PersonaName, Record<string, string>]>([
  // A login wall needs sign-in, so OAuth discovery applies; its /.well-known answers 401, which is a fail.
  ['sign-in-wall', { 'public-home-page': 'failed', 'oauth-discovery': 'failed' }],
  // RFC 9728 metadata behind a 401, RFC 8414 metadata with S256 and Client ID Metadata Documents.
  ['oauth-mcp', { 'protected-resource-metadata': 'passed', 'oauth-discovery': 'passed', 'pkce-s256': 'passed', 'client-registration': 'passed' }],
])('%s: a sign_in_required scan keeps its access verdicts in the stored check results', async (persona, expected) => {
  const { body } = await start(t.urlOf(persona));
  const scan = await t.waitForEnd(body.scan.id);
  expect(scan.ending).toBe('sign_in_required');
  const stored = await t.db.prisma.checkResult.findMany({ where: { scanId: body.scan.id, checkId: { in: Object.keys(expected) } }, select: { checkId: true, status: true, evidence: true } });
  expect(Object.fromEntries(stored.map((c) => [c.checkId, c.status]))).toEqual(expected);
  for (const check of stored) expect((check.evidence as { detail: string }).detail.length).toBeGreaterThan(0);
});

test('after a scan ended, the same target starts a new scan; an IP-address URL has the address as its domain', async () => {
  const first = await start(t.urlOf('bare-mcp'));
  await t.waitForEnd(first.body.scan.id);
  const again = await start(t.urlOf('bare-mcp'));
  expect(again.status).toBe(202);
  expect(again.body.scan.id).not.toBe(first.body.scan.id);
  await t.waitForEnd(again.body.scan.id);

  const ip = await start(`http://127.0.0.1:${t.sandbox.port}/`);
  expect(ip.body.domain).toBe('127.0.0.1');
  await t.waitForEnd(ip.body.scan.id);
});

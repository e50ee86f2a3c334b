// Disputes end to end against the real service (both hosts, the worker, PGlite or PostgreSQL) and sandbox sites:
// "this verdict is wrong" as a feedback report of the dispute kind (through disputeVerdict, through
// sendFeedbackReport's metadata, and through the page form), the rescan it starts, and whether the verdict held or
// changed on the receipt, getReportDispute, listCompanyDisputes and the company page.
import { PERSONAS, startSandbox, text, type Persona, type PersonaName, type Sandbox } from '@arl/sandbox';
import { DisputeService } from '../src/disputes/service';
import { ReportService } from '../src/reports/service';
import { expectErrorBody } from './support/harness';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';
import request from 'supertest';

// A site that fixes its llms.txt while a dispute says the verdict was wrong: the rescan then changes the verdict.
let llmsTxtServed = false;
const typical = PERSONAS.find((p) => p.name === 'typical-saas')!;
const fixable: Persona = {
  ...typical,
  name: 'fixable' as PersonaName,
  hostname: 'fixable.test',
  routes: {
    ...typical.routes,
    '/llms.txt': (req) => (llmsTxtServed
      ? text(`# Fixable\n\n> Invoices for small teams.\n\n## Docs\n\n- [Pricing](${req.origin}/pricing): plans and prices\n- [Docs](${req.origin}/docs): getting started\n`, 'text/markdown; charset=utf-8')
      : { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' }),
  },
};

let sandbox: Sandbox;
let t: ScanTestServer;
let scanId: string;
// The harness's clock: disputes start at most one rescan per company an hour (DISPUTE_RESCAN_INTERVAL), and a test
// that needs a fresh one moves the clock past it (dispute-rescans.test.ts tests the rule itself).
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);
beforeAll(async () => {
  sandbox = await startSandbox({ personas: [...PERSONAS, fixable], latencyMs: 5 });
  t = await startScanTestServer({ sandbox, clock });
  await t.db.prisma.feedbackProject.create({ data: { slug: 'leaderboard', name: 'Agent-Readiness Leaderboard', invitation: 'Tell us.', guidance: 'Be factual.' } });
  await t.db.prisma.feedbackProject.create({ data: { slug: 'other', name: 'Another project', invitation: '', guidance: '' } });
  const { data } = await t.client.POST('/v1/leaderboard/scans', { body: { url: sandbox.urlOf('fixable' as PersonaName) } });
  scanId = (await t.waitForEnd(data!.scan.id)).id;
});
afterAll(async () => {
  await t.close();
  await sandbox.close();
});

const observation = 'Our llms.txt is served at /llms.txt with an H1, a summary and links.';
const dispute = (body: Record<string, unknown>, slug = 'leaderboard') => request(t.feedbackUrl).post(`/v1/feedback/${slug}/disputes`).send(body);
const readDispute = async (id: string) => {
  const { data, response } = await t.feedback.GET('/v1/feedback/{slug}/reports/{reportId}/dispute', { params: { path: { slug: 'leaderboard', reportId: id } } });
  expect(response.status).toBe(200);
  return data!;
};

test('a verdict the site has since fixed: the receipt names the dispute and the rescan, which changes the verdict; a repeat says so', async () => {
  const { data: report } = await t.client.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId } } });
  expect(report!.checks.find((c) => c.id === 'llms-txt')!.status).toBe('failed');
  llmsTxtServed = true;

  const res = await dispute({ scanId, checkId: 'llms-txt', observation, agent: 'site-owner' });
  expect(res.status).toBe(201);
  expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'receivedAt', 'repeat']);
  const id = res.body.id as string;
  const first = await readDispute(id);
  expect(first).toMatchObject({ id, domain: 'fixable.test', scanId, checkId: 'llms-txt', disputedStatus: 'failed' });
  expect(res.body.message).toBe(
    `Dispute received: check llms-txt ("${first.checkName}") was failed in scan ${scanId} of fixable.test. ` +
    `A rescan of fixable.test is running (scan ${first.rescanId}); whether the verdict holds shows here once it ends. ` +
    `Follow it at ${t.config.feedbackPublicUrl}/v1/feedback/leaderboard/reports/${id}/dispute or on ${t.config.publicUrl}/companies/fixable.test?community=include#dispute-${id}.`,
  );
  // The report itself: the dispute kind in the report's own fields, nothing added to them.
  const stored = await t.db.prisma.feedbackReport.findUniqueOrThrow({ where: { id } });
  expect(stored.body).toEqual({
    observation, outcome: 'friction', category: 'confusing_output', goal: 'Dispute the verdict "failed" of check llms-txt for fixable.test',
    reference: `check:llms-txt scan:${scanId}`, surface: 'api', agent: 'site-owner',
    metadata: { kind: 'dispute', scanId, checkId: 'llms-txt', domain: 'fixable.test', status: 'failed' },
  });
  // The rescan is a real scan of the same site, started for the dispute.
  const rescan = await t.db.prisma.scan.findUniqueOrThrow({ where: { id: first.rescanId! } });
  expect(rescan).toMatchObject({ origin: 'dispute', domain: 'fixable.test' });

  await t.waitForEnd(first.rescanId!);
  const resolved = await readDispute(id);
  expect(resolved).toMatchObject({ state: 'changed', rescanStatus: 'passed', resolvedAt: expect.any(String) });
  expect(resolved.outcome).toBe(`The verdict changed: the rescan (${first.rescanId}) found "passed" where the disputed scan found "failed".`);

  const again = await dispute({ scanId, checkId: 'llms-txt', observation, agent: 'site-owner' });
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({ id, repeat: true, receivedAt: res.body.receivedAt });
  expect(again.body.message).toContain(`An identical dispute was already received; this is its receipt. ${resolved.outcome} Follow it at`);
  expect(await t.db.prisma.verdictDispute.count({ where: { id } })).toBe(1);
});

test('a verdict that was right holds; a dispute sent as a plain report with metadata kind dispute counts the same', async () => {
  const { data: report } = await t.client.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId } } });
  const openapi = report!.checks.find((c) => c.id === 'openapi')!;
  const res = await request(t.feedbackUrl).post('/v1/feedback/leaderboard/reports').send({
    observation: 'We think our API description is published.', outcome: 'friction', metadata: { kind: 'dispute', scanId, checkId: 'openapi' },
  });
  expect(res.status).toBe(201);
  expect(res.body.message).toMatch(/^Dispute received: check openapi /);
  // Within the hour of the first dispute's rescan, this one joins it (ended: its outcome is known at once).
  expect(res.body.message).toContain('It joins the rescan an earlier dispute of fixable.test asked for at ');
  const { rescanId } = await readDispute(res.body.id);
  await t.waitForEnd(rescanId!);
  expect(await readDispute(res.body.id)).toMatchObject({
    state: 'held', disputedStatus: openapi.status, rescanStatus: openapi.status,
    outcome: `The verdict held: the rescan (${rescanId}) also found "${openapi.status}".`,
  });
});

test('listCompanyDisputes lists them newest first; the outcome is kept, so a fresh process reads the same without the rescan', async () => {
  const { data, response } = await t.client.GET('/v1/leaderboard/companies/{domain}/disputes', { params: { path: { domain: 'FIXABLE.test' } } });
  expect(response.status).toBe(200);
  expect(data!.domain).toBe('fixable.test');
  expect(data!.items.map((d) => [d.checkId, d.state])).toEqual([['openapi', 'held'], ['llms-txt', 'changed']]);
  // Another process (or this one after a restart) has only the database: the same answers.
  const fresh = new DisputeService({
    db: t.db, reports: new ReportService(t.db, () => new Date()), scans: t.runtime.scans, logger: t.runtime.logger,
    feedbackPublicUrl: t.config.feedbackPublicUrl, publicUrl: t.config.publicUrl, clock, rescanIntervalMs: t.config.scan.disputeRescanIntervalMs,
  });
  expect(await fresh.list('fixable.test')).toEqual(data!.items);
  const rows = await t.db.prisma.verdictDispute.findMany({ orderBy: { receivedAt: 'asc' } });
  expect(rows.map((r) => [r.checkId, r.state, r.rescanStatus])).toEqual([['llms-txt', 'changed', 'passed'], ['openapi', 'held', rows[1].disputedStatus]]);
  const none = await t.client.GET('/v1/leaderboard/companies/{domain}/disputes', { params: { path: { domain: 'nobody.example' } } });
  expect(none.data).toEqual({ domain: 'nobody.example', items: [] });
});

test('the page form (no JavaScript): 303 to the company page, which shows the dispute; the scan page offers the form', async () => {
  offsetMs += 3_600_000 + 1000; // past the hour of the first dispute's rescan: this dispute starts a new one
  const form = await request(t.leaderboardUrl).post('/companies/fixable.test/disputes').type('form')
    .send({ scanId, checkId: 'robots-txt', observation: 'robots.txt is served; the scan must have timed out.' });
  expect(form.status).toBe(303);
  const location = form.headers.location as string;
  expect(location).toMatch(/^\/companies\/fixable\.test\?community=include#dispute-[0-9a-f-]{36}$/);
  const id = location.split('#dispute-')[1];
  expect((await t.db.prisma.feedbackReport.findUniqueOrThrow({ where: { id } })).body).toMatchObject({ surface: 'web', metadata: { kind: 'dispute', checkId: 'robots-txt' } });

  const page = await request(t.leaderboardUrl).get(location.split('#')[0]).set('accept', 'text/html');
  expect(page.status).toBe(200);
  expect(page.text).toContain(`id="dispute-${id}"`);
  const html = page.text.replace(/<!-- -->/g, '');
  expect(html).toMatch(/<strong>Verdict changed<\/strong>: “llms\.txt follows llmstxt\.org” \(<code>llms-txt<\/code>\) was disputed as <em>failed<\/em>/);
  expect(html).toMatch(/<strong>Rescanning<\/strong>: “robots\.txt is served and parseable” \(<code>robots-txt<\/code>\)/);
  // Every check of the latest scan carries the form, posting to this host.
  expect(page.text).toContain('action="/companies/fixable.test/disputes"');
  expect(page.text).toContain('name="checkId" value="llms-txt"');
  const markdown = await request(t.leaderboardUrl).get(location.split('#')[0]).set('accept', 'text/markdown');
  expect(markdown.text).toContain('## Disputes');

  const scanPage = await request(t.leaderboardUrl).get(`/scans/${scanId}`).set('accept', 'text/html');
  expect(scanPage.text).toContain('A verdict of this scan is wrong');
  expect(scanPage.text).toContain(`<input type="hidden" name="scanId" value="${scanId}"/>`);
});

test('refused, nothing stored: unknown scan or check, a scan of another domain, a running scan, another project, a dispute without its names', async () => {
  const before = await t.db.prisma.feedbackReport.count();
  expectErrorBody(await dispute({ scanId: '0b7e6f1c-2d3a-4b5c-8d9e-0f1a2b3c4d5e', checkId: 'llms-txt', observation }), 404, 'not_found');
  const noCheck = await dispute({ scanId, checkId: 'no-such-check', observation });
  expectErrorBody(noCheck, 404, 'not_found');
  expect(noCheck.body.message).toBe(`Scan ${scanId} has no check "no-such-check" (its checks are listed by getScanReport).`);
  expectErrorBody(await dispute({ scanId, checkId: 'llms-txt', observation }, 'other'), 404, 'not_found');
  expectErrorBody(await dispute({ scanId, checkId: 'LLMS', observation }), 400, 'bad_request');
  expectErrorBody(await dispute({ scanId, checkId: 'llms-txt', observation: 'short' }), 400, 'bad_request');
  expectErrorBody(await dispute({ scanId, checkId: 'llms-txt', observation, extra: 1 }), 400, 'bad_request');

  const plain = await request(t.feedbackUrl).post('/v1/feedback/leaderboard/reports').send({ observation, outcome: 'friction', metadata: { kind: 'dispute', scanId } });
  expectErrorBody(plain, 400, 'bad_request');
  expect(plain.body.message).toContain('metadata.checkId');

  const wrongDomain = await request(t.leaderboardUrl).post('/companies/typical-saas.test/disputes').type('form').send({ scanId, checkId: 'llms-txt', observation });
  expect(wrongDomain.status).toBe(404);
  const badForm = await request(t.leaderboardUrl).post('/companies/fixable.test/disputes').type('form').send({ scanId, checkId: 'llms-txt' });
  expectErrorBody(badForm, 400, 'bad_request');

  const { data: slow } = await t.client.POST('/v1/leaderboard/scans', { body: { url: sandbox.urlOf('slow') } });
  expectErrorBody(await dispute({ scanId: slow!.scan.id, checkId: 'llms-txt', observation }), 409, 'report_not_ready');
  await t.waitForEnd(slow!.scan.id, 120_000);

  expect(await t.db.prisma.feedbackReport.count()).toBe(before);
  expectErrorBody(await request(t.feedbackUrl).get(`/v1/feedback/leaderboard/reports/${scanId}/dispute`), 404, 'not_found');
});

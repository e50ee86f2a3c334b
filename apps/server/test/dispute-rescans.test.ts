// Disputes are no way around the scan limit (issue 28): over real servers, sandbox sites and PGlite or PostgreSQL,
// disputes start at most one rescan per company per DISPUTE_RESCAN_INTERVAL however many arrive (later ones join it
// and get its outcome), a dispute counts against the sender's scan limit like POST /v1/leaderboard/scans (shared by
// both hosts, the MCP tool and the page form), and with PostgreSQL the rule holds across two API processes.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createDb } from '@arl/db';
import { PERSONAS, startSandbox, type Persona, type PersonaName, type Sandbox } from '@arl/sandbox';
import * as http from 'node:http';
import request from 'supertest';
import { createLogger } from '../src/logger';
import { createRuntime } from '../src/runtime';
import { listen } from '../src/server';
import { expectErrorBody } from './support/harness';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

const HOUR = 3_600_000;
const typical = PERSONAS.find((p) => p.name === 'typical-saas')!;
/** One site per test, so that no test meets another's rescans. */
const site = (name: string): Persona => ({ ...typical, name: name as PersonaName, hostname: `${name}.test` });
const SITES = ['burst', 'joins', 'limited', 'two-processes'];

// The harness's clock option: the scans' created_at and the reports' receivedAt follow it, so an hour passes
// without waiting for it.
let offsetMs = 0;
const clock = () => new Date(Date.now() + offsetMs);

let sandbox: Sandbox;
let t: ScanTestServer;
const scanOf = new Map<string, string>();

async function scanned(server: ScanTestServer, name: string): Promise<string> {
  const { data } = await server.client.POST('/v1/leaderboard/scans', { body: { url: sandbox.urlOf(name as PersonaName) } });
  const ended = await server.waitForEnd(data!.scan.id, 120_000);
  expect(ended.ending).toBe('finished');
  return ended.id;
}

async function checksOf(server: ScanTestServer, scanId: string): Promise<string[]> {
  const { data } = await server.client.GET('/v1/leaderboard/scans/{scanId}/report', { params: { path: { scanId } } });
  return data!.checks.map((c) => c.id);
}

const dispute = (base: string, body: Record<string, unknown>) => request(base).post('/v1/feedback/leaderboard/disputes').send(body);
const disputeRescans = (server: ScanTestServer, domain: string) => server.db.prisma.scan.findMany({ where: { domain, origin: 'dispute' }, orderBy: { createdAt: 'asc' } });

beforeAll(async () => {
  sandbox = await startSandbox({ personas: [...PERSONAS, ...SITES.map(site)], latencyMs: 5 });
  // Limits off here: what keeps the rescans to one is the interval, not the per-minute limits (tested below).
  t = await startScanTestServer({ sandbox, clock, env: { FEEDBACK_RATE_LIMIT: '0', SCAN_RATE_LIMIT: '0' } });
  await t.db.prisma.feedbackProject.create({ data: { slug: 'leaderboard', name: 'Agent-Readiness Leaderboard', invitation: 'Tell us.', guidance: 'Be factual.' } });
  for (const name of ['burst', 'joins']) scanOf.set(name, await scanned(t, name));
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

/** Waits until no scan of the domain is running: the next disputes meet an ended rescan, as a long burst does. */
async function rescansEnded(server: ScanTestServer, domain: string): Promise<void> {
  for (const scan of await server.db.prisma.scan.findMany({ where: { domain } })) await server.waitForEnd(scan.id, 120_000);
}

test('50 disputes from one client in a burst start 1 rescan: every one is recorded with its id', async () => {
  const scanId = scanOf.get('burst')!;
  const checks = await checksOf(t, scanId);
  // Five waves of ten at once, each after the rescans so far have ended: a burst that outlasts a scan (the issue's
  // 50 disputes started 8 rescans), so that joining a running scan is not what keeps it to one.
  const answers = [];
  for (let wave = 0; wave < 5; wave += 1) {
    answers.push(...await Promise.all(Array.from({ length: 10 }, (_, j) => {
      const i = wave * 10 + j;
      return dispute(t.feedbackUrl, { scanId, checkId: checks[i % checks.length], observation: `Burst dispute number ${i}: the verdict is wrong.` });
    })));
    await rescansEnded(t, 'burst.test');
  }
  expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
  const rescans = await disputeRescans(t, 'burst.test');
  console.log(`50 disputes from one client start ${rescans.length} rescan(s)`);
  expect(rescans).toHaveLength(1);
  const rows = await t.db.prisma.verdictDispute.findMany({ where: { domain: 'burst.test' } });
  expect(rows).toHaveLength(50);
  expect(new Set(rows.map((r) => r.rescanId))).toEqual(new Set([rescans[0].id]));
  // Once it has ended, all 50 have its outcome.
  await t.waitForEnd(rescans[0].id, 120_000);
  const { data } = await t.client.GET('/v1/leaderboard/companies/{domain}/disputes', { params: { path: { domain: 'burst.test' } } });
  expect(data!.items).toHaveLength(20);
  expect(data!.items.every((d) => d.rescanId === rescans[0].id && (d.state === 'held' || d.state === 'changed'))).toBe(true);
  expect(await disputeRescans(t, 'burst.test')).toHaveLength(1);
});

test('disputes 1.2 s apart within DISPUTE_RESCAN_INTERVAL join the rescan, ended or not, and get its outcome; one after it starts a new one', async () => {
  const scanId = scanOf.get('joins')!;
  const checks = await checksOf(t, scanId);
  const first = await dispute(t.feedbackUrl, { scanId, checkId: 'llms-txt', observation: 'The first dispute: our llms.txt is fine.' });
  expect(first.status).toBe(201);
  const [rescan] = await disputeRescans(t, 'joins.test');
  expect(first.body.message).toContain(`A rescan of joins.test is running (scan ${rescan.id})`);
  await t.waitForEnd(rescan.id, 120_000);

  // 25 more, 1.2 s apart on the clock (the abuse: 25 rescans in 32 s), then one 30 s before the hour ends
  // (the clock also runs in real time: the margin keeps a slow request on a loaded machine inside the hour).
  for (let i = 0; i < 26; i += 1) {
    if (i < 25) offsetMs += 1200;
    else offsetMs = rescan.createdAt.getTime() + HOUR - 30_000 - Date.now();
    const res = await dispute(t.feedbackUrl, { scanId, checkId: checks[i % checks.length], observation: `Dispute ${i} of a verdict of joins.test.` });
    expect(res.status).toBe(201);
    expect(res.body.message).toContain(`It joins the rescan an earlier dispute of joins.test asked for at ${rescan.createdAt.toISOString()} (disputes rescan a company at most once every 1 hour).`);
    // Its outcome at once: the rescan has ended.
    const { data } = await t.feedback.GET('/v1/feedback/{slug}/reports/{reportId}/dispute', { params: { path: { slug: 'leaderboard', reportId: res.body.id } } });
    expect(data).toMatchObject({ rescanId: rescan.id, state: expect.stringMatching(/^(held|changed)$/) });
  }
  expect(await disputeRescans(t, 'joins.test')).toHaveLength(1);

  // The interval has passed (since the rescan was created): the next dispute starts a new rescan, which later ones join.
  offsetMs = rescan.createdAt.getTime() + HOUR + 1000 - Date.now();
  const after = await dispute(t.feedbackUrl, { scanId, checkId: 'llms-txt', observation: 'An hour later: our llms.txt is still fine.' });
  expect(after.status).toBe(201);
  const rescans = await disputeRescans(t, 'joins.test');
  expect(rescans).toHaveLength(2);
  expect(after.body.message).toContain(`A rescan of joins.test is running (scan ${rescans[1].id})`);
  const next = await dispute(t.feedbackUrl, { scanId, checkId: 'robots-txt', observation: 'And robots.txt, a second later.' });
  expect(next.body.message).toContain(`It joins the rescan an earlier dispute of joins.test asked for at ${rescans[1].createdAt.toISOString()}`);
  expect((await t.db.prisma.verdictDispute.findUniqueOrThrow({ where: { id: next.body.id } })).rescanId).toBe(rescans[1].id);
  await t.waitForEnd(rescans[1].id, 120_000);

  // A dispute of the rescan itself, within the interval: joining would compare the scan with itself, so it says so.
  const ofRescan = await dispute(t.feedbackUrl, { scanId: rescans[1].id, checkId: 'llms-txt', observation: 'The rescan got it wrong too.' });
  expect(ofRescan.status).toBe(201);
  const { data } = await t.feedback.GET('/v1/feedback/{slug}/reports/{reportId}/dispute', { params: { path: { slug: 'leaderboard', reportId: ofRescan.body.id } } });
  expect(data).toMatchObject({ state: 'unresolved', rescanId: null });
  expect(data!.outcome).toBe(
    `Scan ${rescans[1].id} is itself the rescan an earlier dispute of joins.test asked for at ${rescans[1].createdAt.toISOString()}, so no rescan started: ` +
    `disputes rescan a company at most once every 1 hour; dispute again after ${new Date(rescans[1].createdAt.getTime() + HOUR).toISOString()}.`,
  );
  expect(await disputeRescans(t, 'joins.test')).toHaveLength(2);
});

describe('the scan limit (SCAN_RATE_LIMIT 3 a minute)', () => {
  let limited: ScanTestServer;
  let scanId: string;
  beforeAll(async () => {
    limited = await startScanTestServer({ sandbox, env: { SCAN_RATE_LIMIT: '3' } });
    await limited.db.prisma.feedbackProject.create({ data: { slug: 'leaderboard', name: 'Agent-Readiness Leaderboard', invitation: 'Tell us.', guidance: 'Be factual.' } });
    scanId = await scanned(limited, 'limited');
  });
  afterAll(() => limited?.close());

  const postScan = (from?: string) => send(limited.leaderboardUrl, '/v1/leaderboard/scans', { url: sandbox.urlOf('limited' as PersonaName) }, from);

  /**
   * POSTs scans until refused, in a window with at least 40 s left (the limiter's windows run on the real clock): the
   * requests of the test must all fall in that window, and on a loaded machine they can take many seconds.
   */
  async function overTheLimit(): Promise<void> {
    for (;;) {
      let answer = await postScan();
      for (let i = 0; i < 10 && answer.status !== 429; i += 1) answer = await postScan();
      expect(answer.status).toBe(429);
      const left = Number(answer.headers['retry-after']);
      if (left >= 40) return;
      await new Promise((r) => setTimeout(r, left * 1000 + 200));
    }
  }

  test('a client over the scan limit gets the limit from every way of disputing (API, plain report, page form, MCP), nothing stored', async () => {
    await overTheLimit();
    const reports = await limited.db.prisma.feedbackReport.count();

    const refused = await dispute(limited.feedbackUrl, { scanId, checkId: 'llms-txt', observation: 'Over the limit: this starts nothing.' });
    expectErrorBody(refused, 429, 'rate_limited');
    expect(refused.body.message).toBe('Too many scans from this client: a dispute asks for a rescan, so it counts as one; try again in a minute. Nothing was stored.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const plain = await request(limited.feedbackUrl).post('/v1/feedback/leaderboard/reports')
      .send({ observation: 'Over the limit, as a plain report.', outcome: 'friction', metadata: { kind: 'dispute', scanId, checkId: 'llms-txt' } });
    expectErrorBody(plain, 429, 'rate_limited');
    const form = await request(limited.leaderboardUrl).post('/companies/limited.test/disputes').type('form')
      .send({ scanId, checkId: 'llms-txt', observation: 'Over the limit, from the page.' });
    expect(form.status).toBe(429);
    const mcp = new Client({ name: 'arl-test-client', version: '1.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${limited.feedbackUrl}/mcp`)));
    try {
      const result = await mcp.callTool({ name: 'dispute_verdict', arguments: { scanId, checkId: 'llms-txt', observation: 'Over the limit, over MCP.' } }) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(JSON.parse((result.content[0] as { text: string }).text)).toMatchObject({ code: 'rate_limited' });
    } finally {
      await mcp.close();
    }
    expect(await limited.db.prisma.feedbackReport.count()).toBe(reports);
    expect(await disputeRescans(limited, 'limited.test')).toHaveLength(0);
  });

  test('disputes use up the same limit: after three from a client, its POST scans answers 429; its repeat still gets the receipt', async () => {
    // Another client (another loopback address), with its own minute; with PostgreSQL the minutes are aligned to
    // the clock's, so the four requests below start early in one.
    const from = '127.0.0.2';
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 30_000) await new Promise((r) => setTimeout(r, left + 100)); // room for the four requests on a loaded machine
    const accepted = [];
    for (let i = 0; i < 3; i += 1) {
      accepted.push(await send(limited.feedbackUrl, '/v1/feedback/leaderboard/disputes', { scanId, checkId: 'llms-txt', observation: `Within the limit, number ${i}.` }, from));
    }
    expect(accepted.map((a) => a.status)).toEqual([201, 201, 201]);
    const over = await postScan(from);
    expect(over.status).toBe(429);
    expect(JSON.parse(over.text)).toMatchObject({ code: 'rate_limited' });
    // A repeat of a recorded dispute starts nothing, so it costs nothing: its receipt, even over the limit.
    const repeat = await send(limited.feedbackUrl, '/v1/feedback/leaderboard/disputes', { scanId, checkId: 'llms-txt', observation: 'Within the limit, number 0.' }, from);
    expect(repeat.status).toBe(200);
    expect(JSON.parse(repeat.text)).toMatchObject({ id: JSON.parse(accepted[0].text).id, repeat: true });
    // One rescan for the three (here the scan the POSTs above left running, joined: it starts nothing new).
    const rows = await limited.db.prisma.verdictDispute.findMany({ where: { id: { in: accepted.map((a) => JSON.parse(a.text).id as string) } } });
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r.rescanId)).size).toBe(1);
    expect(rows[0].rescanId).not.toBeNull();
    expect((await disputeRescans(limited, 'limited.test')).length).toBeLessThanOrEqual(1);
  });
});

/** A JSON POST from a chosen local address (a second client on loopback). */
function send(base: string, path: string, body: unknown, localAddress?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(new URL(path, base), {
      method: 'POST', localAddress, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

const postgres = process.env.TEST_DATABASE_URL;
// PGlite cannot be opened by a second runtime, so this one exists only with PostgreSQL.
if (postgres) test('PostgreSQL: two API processes on one database, 40 disputes in two concurrent waves split between them, start 1 rescan', async () => {
  const scanId = await scanned(t, 'two-processes');
  const db = await createDb({ databaseUrl: postgres, schema: t.db.schema });
  const other = await createRuntime(t.config, { logger: createLogger('silent'), db, prepare: false, clock, fetchPolicy: { lookup: sandbox.lookup } });
  const servers = await listen(other, { port: 0, feedbackPort: 0 });
  try {
    const hosts = [t.feedbackUrl, servers.feedbackUrl];
    const answers = [];
    for (let wave = 0; wave < 2; wave += 1) {
      answers.push(...await Promise.all(Array.from({ length: 20 }, (_, j) =>
        dispute(hosts[j % 2], { scanId, checkId: 'llms-txt', observation: `Two processes, dispute ${wave * 20 + j}.` }))));
      await rescansEnded(t, 'two-processes.test');
    }
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(201));
    const rescans = await disputeRescans(t, 'two-processes.test');
    expect(rescans).toHaveLength(1);
    const rows = await t.db.prisma.verdictDispute.findMany({ where: { domain: 'two-processes.test' } });
    expect(new Set(rows.map((r) => r.rescanId))).toEqual(new Set([rescans[0].id]));
  } finally {
    await servers.close();
    await other.close();
    await db.close();
  }
});

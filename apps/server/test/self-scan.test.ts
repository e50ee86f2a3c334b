// We pass our own test: the service scans its own leaderboard host (a website) and its /mcp endpoint (an MCP
// server) through the real pipeline (start scan, worker, scanner, stored report), and both must grade A+ with no
// check failed; a check that does not apply must say why. Private networks are allowed here only, because the
// service listens on loopback.
import type { LeaderboardSchemas } from '@arl/contract';
import { startBackground, type Background } from '../src/jobs/background';
import { startTestServer, type TestServer } from './support/harness';
import { realPublicUrls } from './support/ports';
import { waitForScanEnd } from './support/scan-harness';

type Report = LeaderboardSchemas['ScanReport'];

let server: TestServer;
let background: Background;
const reports: Record<'site' | 'mcp', Report> = {} as never;

async function scanAndReport(url: string): Promise<Report> {
  const started = await fetch(`${server.leaderboardUrl}/v1/leaderboard/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
  expect(started.status).toBe(202);
  const { scan } = (await started.json()) as { scan: { id: string } };
  const ended = await waitForScanEnd(server.leaderboardUrl, scan.id, 120_000);
  expect(ended).toMatchObject({ state: 'ended', ending: 'finished' });
  const res = await fetch(`${server.leaderboardUrl}/v1/leaderboard/scans/${scan.id}/report`);
  expect(res.status).toBe(200);
  return (await res.json()) as Report;
}

function summary(report: Report): string {
  return report.checks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status} (${c.evidence.detail})`).join('\n');
}

beforeAll(async () => {
  const { ports, env } = await realPublicUrls();
  server = await startTestServer({ dbName: 'selfscan', ports, env: { ...env, SCAN_RATE_LIMIT: '0' } });
  background = startBackground(server.runtime, { pollMs: 100 });
  // One after the other: the second scan is of a path of the same host.
  reports.site = await scanAndReport(`${server.config.publicUrl}/`);
  reports.mcp = await scanAndReport(`${server.config.publicUrl}/mcp`);
});

afterAll(async () => {
  await background?.stop(5000);
  await server?.close();
});

describe.each(['site', 'mcp'] as const)('the scan of our own %s', (which) => {
  test('is graded A+ with no check failed', () => {
    const report = reports[which];
    expect(report.kind).toBe(which === 'site' ? 'website' : 'mcp_server');
    expect({ grade: report.grade, failed: report.checks.filter((c) => c.status === 'failed').map((c) => `${c.id}: ${c.evidence.detail}`) }).toEqual({ grade: 'A+', failed: [] });
    expect(report.score).toBeGreaterThanOrEqual(97);
  });

  test('says why for every check that does not apply, and nothing was left unchecked', () => {
    const report = reports[which];
    for (const check of report.checks.filter((c) => c.status === 'not_applicable')) expect(check.evidence.detail.length).toBeGreaterThan(10);
    expect(report.checks.filter((c) => c.status === 'couldnt_check').map((c) => `${c.id}: ${c.evidence.detail}`)).toEqual([]);
    // Printed for the closing note: the score, the grade and every check that did not simply pass.
    process.stdout.write(`\n${which}: ${report.score} ${report.grade}\n${summary(report)}\n`);
  });
});

test('the MCP server was found on the website through its server card and its tools passed every MCP check', () => {
  const byId = new Map(reports.site.checks.map((c) => [c.id, c]));
  expect(byId.get('mcp-initialize')).toMatchObject({ status: 'passed', evidence: { detail: expect.stringContaining('server card') } });
  for (const id of ['mcp-tools-list', 'mcp-tool-schemas', 'mcp-tool-descriptions', 'mcp-tool-annotations', 'mcp-tool-names', 'mcp-safety-lint', 'mcp-origin-check', 'mcp-output-schema', 'mcp-server-card', 'mcp-card-consistent']) {
    expect({ id, status: byId.get(id)?.status }).toEqual({ id, status: 'passed' });
  }
});

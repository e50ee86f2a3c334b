// Issue 29 item 6: a report's evidence shows the exchange a verdict rests on (what the scanner sent, what came back),
// in words after the finding, since the contract's CheckEvidence has no field for it. The exemplary persona on
// loopback, scanned through the API by the real worker (requests signed with Web Bot Auth), read back through the API.
import { PERSONAS, startSandbox } from '@arl/sandbox';
import { DETAIL_MAX } from '../src/reports/evidence';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
beforeAll(async () => {
  const sandbox = await startSandbox({ personas: PERSONAS.filter((p) => p.name === 'exemplary') });
  t = await startScanTestServer({ sandbox });
});
afterAll(async () => {
  await t.close();
  await t.sandbox.close();
});

test('each fetched document\'s verdict names the request and the answer, within the detail\'s bound, without a signature', async () => {
  const { data, response } = await t.client.POST('/v1/leaderboard/scans', { body: { url: t.urlOf('exemplary') } });
  expect(response.status).toBe(202);
  expect((await t.waitForEnd(data!.scan.id, 30_000)).ending).toBe('finished');

  const { data: report } = await t.client.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain: 'exemplary-co.test' }, query: { community: 'include' } } });
  const llms = report!.checks.find((c) => c.id === 'llms-txt')!;
  expect(llms.status).toBe('passed');
  expect(llms.evidence.detail).toMatch(
    /^llms\.txt has an H1, a summary and \d+ link section\(s\) Sent: GET http:\/\/exemplary-co\.test:\d+\/llms\.txt \(Accept: text\/markdown,text\/plain,\*\/\*;q=0\.5; User-Agent: AgentReadinessScanner\/[^;]+; signed with Web Bot Auth\)\. Got: HTTP 200 text\/markdown[^,]*, \d+ bytes, first bytes "# Exemplary Co\\n/,
  );
  // Every detail stays within the contract's bound; none carries a signature or a cookie.
  for (const check of report!.checks) {
    expect(Array.from(check.evidence.detail).length).toBeLessThanOrEqual(DETAIL_MAX);
    expect(check.evidence.detail).not.toMatch(/sig1=|signature-input|set-cookie/i);
  }
  // Checks whose verdict rests on a fetched document say what was sent; the MCP session's checks have no such exchange.
  const withExchange = report!.checks.filter((c) => / Sent: (GET|HEAD) /.test(c.evidence.detail)).map((c) => c.id);
  expect(withExchange).toEqual(expect.arrayContaining(['robots-txt', 'sitemap', 'llms-txt', 'openapi', 'mcp-server-card']));
});

// The A2A agent of the leaderboard host, driven by the official A2A SDK's client (its A2A 0.3 JSON-RPC transport,
// in a child process: see support/a2a-client.cjs): the SDK parses our card, follows its url, and our answers about a
// scanned company, an unknown one and the top of the ranking come back as the SDK's agent messages.
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { realPublicUrls } from './support/ports';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

jest.setTimeout(60_000);

let server: ScanTestServer;
let domain: string;

beforeAll(async () => {
  const { ports, env } = await realPublicUrls();
  server = await startScanTestServer({ ports, env });
  const res = await fetch(`${server.leaderboardUrl}/v1/leaderboard/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: server.urlOf('exemplary') }) });
  const started = (await res.json()) as { scan: { id: string }; domain: string };
  domain = started.domain;
  await server.waitForEnd(started.scan.id);
});
afterAll(async () => server?.close());

interface SdkPart { content: { $case: string; value: unknown } }
interface SdkRun {
  legacy: boolean;
  card: { name: string; skills: Array<{ id: string }>; supportedInterfaces: Array<{ url: string; protocolBinding: string }> };
  /** The SDK's SendMessageResult for a message answer: the Message itself. */
  answers: Array<{ role: number; messageId: string; parts: SdkPart[] }>;
}

async function askWithSdk(...texts: string[]): Promise<SdkRun> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, 'support', 'a2a-client.cjs'), `${server.config.publicUrl}/.well-known/agent-card.json`, ...texts], { timeout: 30_000 });
  return JSON.parse(stdout.trim()) as SdkRun;
}

const textOf = (run: SdkRun, i: number): string => String(run.answers[i].parts.find((p) => p.content.$case === 'text')!.content.value);

test('the official SDK parses the card and gets agent messages for a company, an unknown domain and the ranking', async () => {
  const run = await askWithSdk(`How ready is ${domain} for agents?`, 'And nowhere-at-all.example?', 'Who leads the leaderboard?');
  expect(run.legacy).toBe(true);
  expect(run.card.name).toBe('Agent-Readiness Leaderboard agent');
  expect(run.card.skills.map((s) => s.id)).toEqual(['company-readiness', 'leaderboard-top']);
  expect(run.card.supportedInterfaces[0]).toMatchObject({ url: `${server.config.publicUrl}/a2a`, protocolBinding: 'JSONRPC' });
  for (const answer of run.answers) expect(answer).toMatchObject({ role: 2, messageId: expect.any(String) }); // ROLE_AGENT
  expect(textOf(run, 0)).toMatch(new RegExp(`\\(${domain.replace(/\./g, '\\.')}\\) scores \\d+, grade `));
  const data = run.answers[0].parts.find((p) => p.content.$case === 'data')!.content.value as { company: { domain: string }; report: { checks: unknown[] } };
  expect(data.company.domain).toBe(domain);
  expect(data.report.checks.length).toBeGreaterThan(40);
  expect(textOf(run, 1)).toContain('No company with the domain nowhere-at-all.example is known');
  // The scanned company is a community company; the ranking of curated companies is empty in this test.
  expect(textOf(run, 2)).toBe('No company has been scored yet.');
});

test('JSON-RPC errors: an unknown method, a message without text', async () => {
  const call = async (body: unknown) => (await (await fetch(`${server.leaderboardUrl}/a2a`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { id: unknown; error?: { code: number } };
  expect(await call({ jsonrpc: '2.0', id: 4, method: 'tasks/resubscribe', params: {} })).toMatchObject({ id: 4, error: { code: -32601 } });
  expect(await call({ jsonrpc: '2.0', id: 5, method: 'message/send', params: { message: { role: 'user', parts: [] } } })).toMatchObject({ id: 5, error: { code: -32602 } });
});

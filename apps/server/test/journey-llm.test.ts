// With LLM_BASE_URL, LLM_MODEL and LLM_API_KEY set, journeys run the LLM driver; here against a local fake of the
// chat completions protocol (no network) that opens the start page, follows the sign-up link and finishes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pollUntil, startScanTestServer, type ScanTestServer } from './support/scan-harness';

let t: ScanTestServer;
let endpoint: http.Server;
const seen: Array<{ authorization?: string; model: string; tools: string[] }> = [];

beforeAll(async () => {
  endpoint = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; tools: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: string | null }> };
      seen.push({ authorization: req.headers.authorization, model: body.model, tools: body.tools.map((x) => x.function.name) });
      const tool = body.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
      const signUp = /^\[(\d+)\] Sign up ->/m.exec(tool);
      const call =
        seen.length === 1 ? { name: 'open_url', arguments: JSON.stringify({ url: t.urlOf('exemplary') }) }
        : signUp && !/Forms:/.test(tool) ? { name: 'follow_link', arguments: JSON.stringify({ link: Number(signUp[1]) }) }
        : { name: 'finish', arguments: JSON.stringify({ success: true, answer: 'The sign-up form is at /signup.', evidence_urls: [`${t.urlOf('exemplary')}signup`] }) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: `c${seen.length}`, type: 'function', function: call }] } }], usage: { total_tokens: 500 } }),
      );
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
  t = await startScanTestServer({ env: { LLM_BASE_URL: base, LLM_MODEL: 'fake-model', LLM_API_KEY: 'sk-fake' } });
  await t.db.prisma.company.create({ data: { name: 'Exemplary Co', website: t.urlOf('exemplary'), domain: 'exemplary-co.test', source: 'curated' } });
});
afterAll(async () => {
  await t.close();
  endpoint.closeAllConnections();
  await new Promise((resolve) => endpoint.close(resolve));
});

test('create_account runs the LLM driver against the configured endpoint', async () => {
  const { data, response } = await t.client.POST('/v1/leaderboard/companies/{domain}/journeys', { params: { path: { domain: 'exemplary-co.test' }, query: {} }, body: { task: 'create_account' } });
  expect(response.status).toBe(202);
  const journey = await pollUntil('the journey to end', async () => {
    const { data: j } = await t.client.GET('/v1/leaderboard/journeys/{journeyId}', { params: { path: { journeyId: data!.journey.id } } });
    return j?.state === 'ended' ? j : undefined;
  });
  expect(journey).toMatchObject({ driver: 'llm', outcome: 'succeeded', task: 'create_account' });
  expect(journey.steps.map((s) => s.action)).toEqual(['open_url', 'follow_link', 'finish']);
  expect(journey.evidence).toContainEqual(expect.objectContaining({ kind: 'signup_form', url: `${t.urlOf('exemplary')}signup` }));
  expect(journey.evidence).toContainEqual({ kind: 'agent_answer', url: `${t.urlOf('exemplary')}signup`, detail: 'The sign-up form is at /signup.' });
  expect(seen[0]).toEqual({ authorization: 'Bearer sk-fake', model: 'fake-model', tools: ['open_url', 'follow_link', 'finish'] });
});

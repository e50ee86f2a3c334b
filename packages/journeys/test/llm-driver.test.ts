// The LLM driver against a local fake of the OpenAI chat completions protocol: no network, scripted models.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type Sandbox } from '@arl/sandbox';
import { createLlmDriver, runJourney, type JourneyResult, type JourneyTask, type LlmConfig } from '../src';

interface ChatRequest {
  headers: http.IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: string | null; tool_call_id?: string }>; tools: Array<{ function: { name: string } }>; max_tokens: number };
}
type Model = (request: ChatRequest, turn: number) => { status?: number; body: unknown; delayMs?: number };

const API_KEY = 'sk-test-secret-key';
let sandbox: Sandbox;
let endpoint: http.Server;
let baseUrl: string;
let model: Model;
let requests: ChatRequest[];
// Answers the fake model delays on purpose (a model slower than the driver's timeout): cleared at the end, so no
// timer outlives the file (Jest reported it as an open handle).

beforeAll(async () => {
  sandbox = await startSandbox({});
  endpoint = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const request: ChatRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      requests.push(request);
      const answer = model(request, requests.length);
      const timer = setTimeout(() => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      }, answer.delayMs ?? 0);
      // A slow answer the client gave up on is never sent: its timer must not outlive the test (Jest's open handle).
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
});
beforeEach(() => {
  requests = [];
});
afterAll(async () => {
  endpoint.closeAllConnections();
  await new Promise((resolve) => endpoint.close(resolve));
  await sandbox.close();
});

function toolCall(name: string, args: unknown, id = `call_${Math.random().toString(36).slice(2, 8)}`) {
  return { id, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) } };
}
function reply(calls: unknown[], content: string | null = null, tokens = 100) {
  return { body: { id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content, tool_calls: calls }, finish_reason: 'tool_calls' }], usage: { total_tokens: tokens } } };
}
/** The link number the fake model picks from the last page digest it was shown. */
function linkNumber(request: ChatRequest, text: RegExp): number {
  const last = [...request.body.messages].reverse().find((m) => m.role === 'tool')?.content ?? '';
  const line = last.split('\n').find((l) => /^\[\d+\] /.test(l) && text.test(l));
  if (!line) throw new Error(`no link matching ${text} in ${last}`);
  return Number(/^\[(\d+)\]/.exec(line)![1]);
}

function run(task: JourneyTask, persona: Parameters<Sandbox['urlOf']>[0] = 'exemplary', config: Partial<LlmConfig> = {}, maxSteps = 8): Promise<JourneyResult> {
  return runJourney({
    task,
    startUrl: sandbox.urlOf(persona),
    // Deadlines far beyond the normal (a loaded machine must not turn a page or an answer into a timeout); the test
    // about a slow model sets its own.
    fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup, requestTimeoutMs: 60_000 },
    driver: createLlmDriver({ baseUrl, model: 'fake-model', apiKey: API_KEY, requestTimeoutMs: 120_000, ...config }),
    budgets: { maxSteps },
  });
}

test('a good model browses to the pricing page and finishes; evidence from the pages and its answer', async () => {
  model = (request, turn) => {
    if (turn === 1) return reply([toolCall('open_url', { url: sandbox.urlOf('exemplary') })]);
    if (turn === 2) return reply([toolCall('follow_link', { link: linkNumber(request, /Pricing ->/) })]);
    return reply([toolCall('finish', { success: true, answer: 'Pro costs 49 USD per month.', evidence_urls: [`${sandbox.urlOf('exemplary')}pricing`] })]);
  };
  const result = await run('find_pricing', 'exemplary', { maxPageChars: 300 });
  expect(result).toMatchObject({ driver: 'llm', outcome: 'succeeded' });
  expect(result.steps.map((s) => s.action)).toEqual(['open_url', 'follow_link', 'finish']);
  expect(result.steps[2].seen).toMatch(/agent: done: Pro costs 49 USD per month/);
  expect(result.evidence).toContainEqual(expect.objectContaining({ kind: 'plan_price', detail: 'Pro: 49 USD (schema.org Offer)' }));
  expect(result.evidence).toContainEqual({ kind: 'agent_answer', url: `${sandbox.urlOf('exemplary')}pricing`, detail: 'Pro costs 49 USD per month.' });

  // The protocol as an OpenAI-compatible endpoint expects it.
  expect(requests).toHaveLength(3);
  const first = requests[0];
  expect(first.headers.authorization).toBe(`Bearer ${API_KEY}`);
  expect(first.body.model).toBe('fake-model');
  expect(first.body.tools.map((t) => t.function.name)).toEqual(['open_url', 'follow_link', 'finish']);
  expect(first.body.messages[0]).toMatchObject({ role: 'system', content: expect.stringMatching(/Find the pricing/) });
  // Page text is truncated before it reaches the model, and every tool call gets its answer.
  const toolMessages = requests[2].body.messages.filter((m) => m.role === 'tool');
  expect(toolMessages).toHaveLength(2);
  expect(toolMessages.some((m) => (m.content ?? '').includes(' [truncated]\nLinks:'))).toBe(true);
  for (const m of toolMessages) expect(/Text: ([\s\S]*?)\nLinks:/.exec(m.content ?? '')![1].length).toBeLessThanOrEqual(300 + ' [truncated]'.length);
});

test('a model that loops is stopped by the step budget', async () => {
  model = () => reply([toolCall('open_url', { url: sandbox.urlOf('exemplary') })]);
  const result = await run('find_pricing', 'exemplary', {}, 4);
  expect(result.outcome).toBe('failed');
  expect(result.cause).toMatch(/after 4 pages: the step budget \(4 pages\) ran out/);
  expect(result.steps.filter((s) => s.action === 'open_url')).toHaveLength(4);
  expect(result.steps[1].seen).toMatch(/^again \(already read\)/);
  expect(requests).toHaveLength(4);
});

test('a model that burns tokens is stopped by the token budget', async () => {
  model = () => reply([toolCall('open_url', { url: sandbox.urlOf('exemplary') })], null, 40_000);
  const result = await run('find_pricing', 'exemplary', { maxTotalTokens: 60_000 });
  expect(result.outcome).toBe('failed');
  expect(result.cause).toMatch(/the token budget \(60000 tokens\) ran out/);
  expect(requests).toHaveLength(2);
});

test.each([
  ['arguments that are not JSON', () => toolCall('open_url', '{"url": "http://exemplary')],
  ['an unknown tool', () => toolCall('delete_site', { now: true })],
  ['missing arguments', () => toolCall('follow_link', {})],
  ['a link number that does not exist', () => toolCall('follow_link', { link: 999 })],
  ['no function at all', () => ({ id: 'c1', type: 'function' })],
])('malformed tool calls (%s) end in a clear failure, not a crash', async (_label, call) => {
  model = () => reply([call()]);
  const result = await run('find_pricing');
  expect(result.outcome).toBe('failed');
  expect(result.cause).toMatch(/^The model sent malformed tool calls 3 times in a row \(last: .+\)\.$/);
  expect(requests).toHaveLength(3);
  // The model was told what was wrong each time.
  expect(requests[2].body.messages.filter((m) => m.role === 'tool').every((m) => /^Error: /.test(m.content ?? ''))).toBe(true);
});

test('a model that answers in prose instead of tools fails clearly', async () => {
  model = () => reply([], 'I think the pricing is probably on the pricing page.');
  const result = await run('find_pricing');
  expect(result).toMatchObject({ outcome: 'failed', cause: 'The model stopped calling tools (3 answers without a tool call in a row).' });
});

test('a success claim citing a page the agent never read is not believed', async () => {
  model = () => reply([toolCall('finish', { success: true, answer: 'It costs 5 USD.', evidence_urls: [`${sandbox.urlOf('exemplary')}pricing`] })]);
  const result = await run('find_pricing');
  expect(result.outcome).toBe('failed');
  expect(result.cause).toMatch(/the agent claimed success without citing a page it had read/);
  expect(result.evidence).toEqual([{ kind: 'agent_answer', detail: 'It costs 5 USD.' }]);
});

test('on the hostile site the model sees the block and the outcome is blocked', async () => {
  model = (_request, turn) =>
    turn === 1 ? reply([toolCall('open_url', { url: sandbox.urlOf('hostile') })]) : reply([toolCall('finish', { success: false, answer: 'A bot challenge blocks me.' })]);
  const result = await run('understand_product', 'hostile');
  expect(result.outcome).toBe('blocked');
  expect(requests[1].body.messages.at(-1)?.content).toMatch(/Status: 403 \(blocked: bot challenge \(403\)\)/);
});

// The 200 ms timeout is for the slow model only: the others answer at once, and on a loaded machine "at once" could
// take longer than 200 ms and read as too slow.
test.each([
  // The provider's text is never the cause (providers echo keys in it): our sentence only.
  ['answers 500', () => ({ status: 500, body: { error: { message: 'upstream overloaded' } } }), /^The model endpoint failed \(HTTP 500\)\.$/, undefined],
  ['answers 401 echoing the key', () => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } }), /^The model endpoint refused our credentials \(HTTP 401\)/, undefined],
  ['answers something that is not JSON', () => ({ body: '<html>gateway</html>' }), /not JSON/, undefined],
  ['answers without choices', () => ({ body: { object: 'chat.completion' } }), /without a message/, undefined],
  ['is too slow', () => ({ body: {}, delayMs: 2000 }), /did not answer within 200 ms/, 200],
])('an endpoint that %s fails the journey with a clear cause and no secret', async (_label, answer, cause, requestTimeoutMs) => {
  model = answer as Model;
  const result = await run('find_pricing', 'exemplary', requestTimeoutMs === undefined ? {} : { requestTimeoutMs });
  expect(result.outcome).toBe('failed');
  expect(result.cause).toMatch(cause);
  expect(JSON.stringify(result)).not.toContain(API_KEY);
});

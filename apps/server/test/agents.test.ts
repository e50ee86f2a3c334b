// What agents use: both hosts' MCP servers through the official MCP client over Streamable HTTP: every tool's schemas are valid JSON
// Schema, every tool is called once with valid and once with invalid arguments (a tool error naming the argument,
// never a crash), results match the declared output schemas, and the endpoint refuses foreign web origins. Then the
// A2A agent, which answers through the same tools, driven by the official A2A SDK client (its A2A 0.3 JSON-RPC
// transport, in a child process: see support/a2a-client.cjs), on the same server and scan; and the discovery documents that announce them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { serviceFactsFor } from '../src/discovery/handlers';
import { apiCatalog } from '../src/discovery/api-catalog';
import { llmsFullTxt, llmsTxt } from '../src/discovery/llms-txt';
import { robotsTxt } from '../src/discovery/robots';
import { serverCard } from '../src/discovery/server-card';
import { loadConfig } from '../src/config';
import { realPublicUrls } from './support/ports';
import { startScanTestServer, type ScanTestServer } from './support/scan-harness';

let server: ScanTestServer;
let leaderboard: Client;
let feedback: Client;
let leaderboardTools: Tool[];
let feedbackTools: Tool[];

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

async function connect(base: string): Promise<Client> {
  const client = new Client({ name: 'arl-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return client;
}

beforeAll(async () => {
  // PUBLIC_URL names the real address: the A2A card's url is followed by the SDK client.
  const { ports, env } = await realPublicUrls();
  server = await startScanTestServer({ seed: true, ports, env });
  [leaderboard, feedback] = await Promise.all([connect(server.leaderboardUrl), connect(server.feedbackUrl)]);
  leaderboardTools = (await leaderboard.listTools()).tools;
  feedbackTools = (await feedback.listTools()).tools;
});

afterAll(async () => {
  await Promise.all([leaderboard?.close(), feedback?.close()]);
  await server?.close();
});

function structured(result: CallToolResult): Record<string, unknown> {
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toBeDefined();
  // The text block carries the same JSON, for clients that ignore structuredContent.
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

function toolError(result: CallToolResult): { code: string; message: string; requestId: string } {
  expect(result.isError).toBe(true);
  const body = JSON.parse((result.content[0] as { text: string }).text) as { code: string; message: string; requestId: string };
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
  return body;
}

function expectMatchesOutput(tools: Tool[], name: string, value: unknown): void {
  const tool = tools.find((t) => t.name === name)!;
  const validate = ajv.compile(tool.outputSchema!);
  expect({ name, valid: validate(value), errors: validate.errors ?? null }).toEqual({ name, valid: true, errors: null });
}

describe('tools/list', () => {
  test('the leaderboard and feedback hosts list their tools with titles, descriptions and annotations', () => {
    expect(leaderboardTools.map((t) => t.name).sort()).toEqual(
      ['compare_companies', 'get_company', 'get_dataset_info', 'get_journey', 'get_methodology', 'get_population_stats', 'get_scan', 'list_categories', 'search_leaderboard', 'start_journey', 'start_scan', 'subscribe_webhook'],
    );
    expect(feedbackTools.map((t) => t.name).sort()).toEqual(['dispute_verdict', 'get_dispute', 'get_feedback_card', 'send_feedback_report']);
    for (const tool of [...leaderboardTools, ...feedbackTools]) {
      expect(tool.title).toBeTruthy();
      expect(tool.description!.length).toBeGreaterThanOrEqual(40);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) expect(typeof tool.annotations?.[hint]).toBe('boolean');
    }
    const byName = new Map([...leaderboardTools, ...feedbackTools].map((t) => [t.name, t.annotations!]));
    expect(byName.get('search_leaderboard')).toMatchObject({ readOnlyHint: true, openWorldHint: false });
    expect(byName.get('start_scan')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(byName.get('send_feedback_report')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  test('every input and output schema is a valid JSON Schema 2020-12 object schema whose arguments are described', () => {
    for (const tool of [...leaderboardTools, ...feedbackTools]) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema).toBeDefined();
        expect({ tool: tool.name, valid: ajv.validateSchema(schema!), errors: ajv.errors ?? null }).toEqual({ tool: tool.name, valid: true, errors: null });
        expect(schema!.type).toBe('object');
        expect(() => ajv.compile(schema!)).not.toThrow();
      }
      for (const [name, prop] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect({ tool: tool.name, name, description: typeof (prop as { description?: unknown }).description }).toEqual({ tool: tool.name, name, description: 'string' });
      }
    }
  });

  test('the schemas are the contract operations\' own (an HTTP bound appears unchanged in the tool)', () => {
    const search = leaderboardTools.find((t) => t.name === 'search_leaderboard')!;
    expect(search.inputSchema.properties!.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    const send = feedbackTools.find((t) => t.name === 'send_feedback_report')!;
    expect(send.inputSchema.required).toEqual(expect.arrayContaining(['slug', 'observation', 'outcome']));
    expect(send.inputSchema.properties!.observation).toMatchObject({ minLength: 10, maxLength: 4000 });
  });
});

let domain: string;

describe('each tool, valid then invalid arguments', () => {
  let scanId: string;

  test('start_scan starts (then joins) a scan; invalid: a URL that is not a string, an unscannable URL', async () => {
    const started = structured(await leaderboard.callTool({ name: 'start_scan', arguments: { url: server.urlOf('exemplary') } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'start_scan', started);
    scanId = (started.scan as { id: string }).id;
    domain = started.domain as string;
    expect(toolError(await leaderboard.callTool({ name: 'start_scan', arguments: { url: 42 } }) as CallToolResult)).toMatchObject({ code: 'bad_request', message: expect.stringContaining('url') });
    expect(toolError(await leaderboard.callTool({ name: 'start_scan', arguments: { url: 'ftp://example.com/' } }) as CallToolResult).code).toBe('unscannable_url');
  });

  test('get_scan waits for the end; invalid: an id that is not a lowercase UUID, a wait over the bound', async () => {
    const scan = structured(await leaderboard.callTool({ name: 'get_scan', arguments: { scanId, waitSeconds: 25 } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'get_scan', scan);
    expect(scan).toMatchObject({ id: scanId, state: 'ended', ending: 'finished' });
    expect(toolError(await leaderboard.callTool({ name: 'get_scan', arguments: { scanId: 'NOT-AN-ID' } }) as CallToolResult).message).toContain('scanId');
    expect(toolError(await leaderboard.callTool({ name: 'get_scan', arguments: { scanId, waitSeconds: 99 } }) as CallToolResult).message).toContain('waitSeconds');
  });

  test('get_company returns the company with its report; invalid: no domain, an unknown domain', async () => {
    const result = structured(await leaderboard.callTool({ name: 'get_company', arguments: { domain, community: 'include' } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'get_company', result);
    expect(result.company).toMatchObject({ domain, source: 'community' });
    expect(result.report).toMatchObject({ scanId, domain, ending: 'finished' });
    const neverScanned = structured(await leaderboard.callTool({ name: 'get_company', arguments: { domain: 'stripe.com' } }) as CallToolResult);
    expect(neverScanned).toMatchObject({ company: { domain: 'stripe.com', score: null }, report: null });
    expect(toolError(await leaderboard.callTool({ name: 'get_company', arguments: {} }) as CallToolResult).message).toContain('domain is required');
    expect(toolError(await leaderboard.callTool({ name: 'get_company', arguments: { domain: 'nowhere.invalid' } }) as CallToolResult).code).toBe('not_found');
  });

  test('search_leaderboard lists the scanned company; invalid: a limit over 100', async () => {
    const page = structured(await leaderboard.callTool({ name: 'search_leaderboard', arguments: { community: 'include', q: domain } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'search_leaderboard', page);
    expect((page.items as Array<{ company: { domain: string } }>).map((i) => i.company.domain)).toEqual([domain]);
    expect(toolError(await leaderboard.callTool({ name: 'search_leaderboard', arguments: { limit: 1000 } }) as CallToolResult).message).toContain('limit');
  });

  test('list_categories lists the seeded categories; invalid: an unknown argument', async () => {
    const result = structured(await leaderboard.callTool({ name: 'list_categories', arguments: {} }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'list_categories', result);
    expect((result.items as unknown[]).length).toBeGreaterThan(0);
    expect(toolError(await leaderboard.callTool({ name: 'list_categories', arguments: { colour: 'red' } }) as CallToolResult).message).toContain('colour is not an argument');
  });

  test('get_methodology returns the catalog; invalid: an unknown argument', async () => {
    const result = structured(await leaderboard.callTool({ name: 'get_methodology', arguments: {} }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'get_methodology', result);
    expect((result.checks as unknown[]).length).toBeGreaterThan(40);
    expect(toolError(await leaderboard.callTool({ name: 'get_methodology', arguments: { version: 1 } }) as CallToolResult).code).toBe('bad_request');
  });

  let journeyId: string;
  test('start_journey starts a journey on the scanned company; invalid: an unknown task', async () => {
    const started = structured(await leaderboard.callTool({ name: 'start_journey', arguments: { domain, community: 'include', task: 'find_pricing' } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'start_journey', started);
    journeyId = (started.journey as { id: string }).id;
    expect(toolError(await leaderboard.callTool({ name: 'start_journey', arguments: { domain, task: 'fly_to_the_moon' } }) as CallToolResult).message).toContain('task');
  });

  test('get_journey reads it; invalid: a malformed id', async () => {
    const journey = structured(await leaderboard.callTool({ name: 'get_journey', arguments: { journeyId } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'get_journey', journey);
    expect(journey).toMatchObject({ id: journeyId, task: 'find_pricing', domain });
    expect(toolError(await leaderboard.callTool({ name: 'get_journey', arguments: { journeyId: 'abc' } }) as CallToolResult).message).toContain('journeyId');
  });

  test('compare_companies puts the scanned company beside a never-scanned one; invalid: one domain', async () => {
    const result = structured(await leaderboard.callTool({ name: 'compare_companies', arguments: { domains: `${domain},stripe.com`, community: 'include' } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'compare_companies', result);
    expect((result.companies as Array<{ domain: string }>).map((c) => c.domain)).toEqual([domain, 'stripe.com']);
    expect(result.score).toMatchObject({ leaders: [domain] });
    expect(toolError(await leaderboard.callTool({ name: 'compare_companies', arguments: { domains: domain } }) as CallToolResult).message).toContain('domains');
  });

  test('get_population_stats and get_dataset_info answer the statistics and the dataset of a population; invalid: a bad category', async () => {
    const stats = structured(await leaderboard.callTool({ name: 'get_population_stats', arguments: { community: 'include' } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'get_population_stats', stats);
    // The scanned company of this file is a community company: ranked and counted with community included.
    expect(stats).toMatchObject({ population: 'all', rankedCompanies: 1 });
    const info = structured(await leaderboard.callTool({ name: 'get_dataset_info', arguments: { community: 'include' } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'get_dataset_info', info);
    expect(info).toEqual(stats.dataset);
    expect(info).toMatchObject({ license: 'CC-BY-4.0', rows: 1 });
    const csv = await fetch((info.formats as Array<{ format: string; url: string }>).find((f) => f.format === 'csv')!.url);
    expect((await csv.text()).trim().split('\r\n')).toHaveLength(2);
    expect(toolError(await leaderboard.callTool({ name: 'get_dataset_info', arguments: { category: 'Not A Slug' } }) as CallToolResult).message).toContain('category');
  });

  test('subscribe_webhook subscribes a URL and gives the token and secret once; invalid: both domain and category', async () => {
    const url = `${server.leaderboardUrl}/healthz`;
    const result = structured(await leaderboard.callTool({ name: 'subscribe_webhook', arguments: { url, domain, events: ['score.changed'] } }) as CallToolResult);
    expectMatchesOutput(leaderboardTools, 'subscribe_webhook', result);
    expect(result).toMatchObject({ subscription: { url, domain, events: ['score.changed'], status: 'active' }, secret: expect.stringMatching(/^whsec_/), token: expect.stringMatching(/^whk_/) });
    const read = await fetch(`${server.leaderboardUrl}/v1/leaderboard/webhooks/${(result.subscription as { id: string }).id}`, { headers: { authorization: `Bearer ${result.token as string}` } });
    expect(read.status).toBe(200);
    expect(toolError(await leaderboard.callTool({ name: 'subscribe_webhook', arguments: { url, domain, category: 'payments', events: ['scan.ended'] } }) as CallToolResult).code).toBe('invalid_subscription');
  });

  test('get_feedback_card reads the service\'s own project; invalid: no slug, an unknown project', async () => {
    const card = structured(await feedback.callTool({ name: 'get_feedback_card', arguments: { slug: 'leaderboard' } }) as CallToolResult);
    expectMatchesOutput(feedbackTools, 'get_feedback_card', card);
    expect(card).toMatchObject({ slug: 'leaderboard', accepting: true, collectionUrl: `${server.config.feedbackPublicUrl}/v1/feedback/leaderboard/reports` });
    expect(toolError(await feedback.callTool({ name: 'get_feedback_card', arguments: {} }) as CallToolResult).message).toContain('slug is required');
    expect(toolError(await feedback.callTool({ name: 'get_feedback_card', arguments: { slug: 'no-such-project' } }) as CallToolResult).code).toBe('not_found');
  });

  test('send_feedback_report stores a report and answers a repeat with the same receipt; invalid: a short observation', async () => {
    const report = { slug: 'leaderboard', observation: 'The get_scan tool waited for the end as described.', outcome: 'succeeded', surface: 'mcp', agent: 'arl-test-client/1.0' };
    const first = structured(await feedback.callTool({ name: 'send_feedback_report', arguments: report }) as CallToolResult);
    expectMatchesOutput(feedbackTools, 'send_feedback_report', first);
    const again = structured(await feedback.callTool({ name: 'send_feedback_report', arguments: report }) as CallToolResult);
    expect(first.repeat).toBe(false);
    expect(again).toMatchObject({ id: first.id, receivedAt: first.receivedAt, repeat: true });
    // Over HTTP the same content is the same report too.
    const http = await fetch(`${server.feedbackUrl}/v1/feedback/leaderboard/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...report, slug: undefined }) });
    expect(http.status).toBe(200);
    expect(await http.json()).toMatchObject({ id: first.id, repeat: true });
    expect(toolError(await feedback.callTool({ name: 'send_feedback_report', arguments: { slug: 'leaderboard', observation: 'short', outcome: 'friction' } }) as CallToolResult).message).toContain('observation');
  });

  test('dispute_verdict files a dispute of a check of the scanned site and starts a rescan, get_dispute follows it; invalid: an unknown check, no observation', async () => {
    const { data: report } = await server.client.GET('/v1/leaderboard/companies/{domain}/report', { params: { path: { domain }, query: { community: 'include' } } });
    const check = report!.checks.find((c) => c.status === 'failed') ?? report!.checks[0];
    const args = { scanId: report!.scanId, checkId: check.id, observation: 'The verdict does not match what the site serves.', agent: 'arl-test-client/1.0' };
    const receipt = structured(await feedback.callTool({ name: 'dispute_verdict', arguments: args }) as CallToolResult);
    expectMatchesOutput(feedbackTools, 'dispute_verdict', receipt);
    expect(receipt).toMatchObject({ repeat: false });
    expect(receipt.message).toContain(`Dispute received: check ${check.id} ("${check.name}") was ${check.status} in scan ${report!.scanId} of ${domain}.`);
    const dispute = structured(await feedback.callTool({ name: 'get_dispute', arguments: { reportId: receipt.id } }) as CallToolResult);
    expectMatchesOutput(feedbackTools, 'get_dispute', dispute);
    expect(dispute).toMatchObject({ id: receipt.id, domain, scanId: report!.scanId, checkId: check.id, checkName: check.name, disputedStatus: check.status });
    expect(dispute.rescanId).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    const stored = await server.db.prisma.feedbackReport.findUniqueOrThrow({ where: { id: receipt.id as string } });
    expect(stored.body).toMatchObject({ surface: 'mcp', agent: 'arl-test-client/1.0', metadata: { kind: 'dispute', scanId: report!.scanId, checkId: check.id } });
    await server.waitForEnd(dispute.rescanId as string);
    expect(toolError(await feedback.callTool({ name: 'dispute_verdict', arguments: { ...args, checkId: 'no-such-check' } }) as CallToolResult).code).toBe('not_found');
    expect(toolError(await feedback.callTool({ name: 'dispute_verdict', arguments: { scanId: report!.scanId, checkId: check.id } }) as CallToolResult).message).toContain('observation');
  });
});

describe('the endpoint', () => {
  const initialize = (origin?: string) =>
    fetch(`${server.leaderboardUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } }),
    });

  test('refuses a foreign Origin with 403 and the error body, accepts its own origin and none', async () => {
    const foreign = await initialize('https://dns-rebinding-check.invalid');
    expect(foreign.status).toBe(403);
    const body = (await foreign.json()) as Record<string, unknown>;
    expect(body).toEqual({ code: 'origin_not_allowed', message: expect.any(String), requestId: foreign.headers.get('x-request-id') });
    const own = await initialize(new URL(server.config.publicUrl).origin);
    expect(own.status).toBe(200);
    const none = await initialize();
    expect(none.status).toBe(200);
    // An older protocol version the SDK supports is negotiated, not refused.
    expect(((await none.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } }).result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'agent-readiness-leaderboard' } });
  });

  test('GET answers 405 with Allow: POST (no session, no server-initiated stream)', async () => {
    const res = await fetch(`${server.leaderboardUrl}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

interface SdkPart { content: { $case: string; value: unknown } }
interface SdkRun {
  legacy: boolean;
  card: { name: string; skills: Array<{ id: string }>; supportedInterfaces: Array<{ url: string; protocolBinding: string }> };
  /** The SDK's SendMessageResult for a message answer: the Message itself. */
  answers: Array<{ role: number; messageId: string; parts: SdkPart[] }>;
}

async function askWithSdk(...texts: string[]): Promise<SdkRun> {
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, 'support', 'a2a-client.cjs'), `${server.config.publicUrl}/.well-known/agent-card.json`, ...texts], { timeout: 120_000 });
  return JSON.parse(stdout.trim()) as SdkRun;
}

const textOf = (run: SdkRun, i: number): string => String(run.answers[i].parts.find((p) => p.content.$case === 'text')!.content.value);

describe('the A2A agent', () => {
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
});

// The discovery documents are generated from the running configuration and the contracts: every URL they carry is
// built from PUBLIC_URL and FEEDBACK_PUBLIC_URL; the server cards agree with the live initialize; the WebMCP script
// registers exactly the MCP server's tools.
const PUBLIC = () => server.config.publicUrl;
const FEEDBACK = () => server.config.feedbackPublicUrl;

describe('discovery documents', () => {
  const get = async (path: string, base = server.leaderboardUrl) => {
    const res = await fetch(`${base}${path}`);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text(), link: res.headers.get('link') };
  };

  test('robots.txt welcomes agents, states Content-Signal and names the sitemap at PUBLIC_URL', async () => {
    const robots = await get('/robots.txt');
    expect(robots).toMatchObject({ status: 200, type: expect.stringContaining('text/plain') });
    expect(robots.text).toContain('User-agent: *\nAllow: /');
    expect(robots.text).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=yes$/m);
    expect(robots.text).toContain(`Sitemap: ${PUBLIC()}/sitemap.xml`);
  });

  test('llms.txt and llms-full.txt describe both hosts, both MCP servers and the feedback tool with configured URLs', async () => {
    const llms = await get('/llms.txt');
    expect(llms.type).toContain('text/markdown');
    expect(llms.text).toMatch(/^# Agent-Readiness Leaderboard\n\n> /);
    for (const needle of [`](${PUBLIC()}/mcp)`, `](${FEEDBACK()}/mcp)`, '`send_feedback_report`', `${FEEDBACK()}/v1/feedback/leaderboard/reports`, `](${PUBLIC()}/openapi.json)`, `](${PUBLIC()}/stats)`, `](${PUBLIC()}/v1/leaderboard/dataset.csv)`, `](${PUBLIC()}/v1/leaderboard/dataset.jsonl)`, 'CC BY 4.0']) expect(llms.text).toContain(needle);
    const full = await get('/llms-full.txt');
    expect(full.text.startsWith(llms.text)).toBe(true);
    expect(full.text).toContain('### POST /v1/feedback/{slug}/reports (sendFeedbackReport)');
    expect(full.text).toContain('### get_scan: Read a scan');
  });

  test('the api-catalog is a linkset of both APIs and both MCP servers', async () => {
    const catalog = await get('/.well-known/api-catalog');
    expect(catalog.type).toContain('application/linkset+json');
    const anchors = (JSON.parse(catalog.text) as { linkset: Array<{ anchor: string }> }).linkset.map((e) => e.anchor);
    expect(anchors).toEqual(expect.arrayContaining([`${PUBLIC()}/`, `${FEEDBACK()}/`, `${PUBLIC()}/mcp`, `${FEEDBACK()}/mcp`]));
    expect((await get('/.well-known/api-catalog', server.feedbackUrl)).text).toBe(catalog.text);
  });

  test('pages carry the discovery Link header; API answers do not', async () => {
    const page = await get('/robots.txt');
    expect(page.link).toContain(`<${PUBLIC()}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(page.link).toContain(`<${PUBLIC()}/openapi.json>; rel="service-desc"`);
    expect(page.link).toContain(`<${PUBLIC()}/llms.txt>; rel="describedby"`);
    expect((await get('/v1/leaderboard/categories')).link).toBeNull();
  });

  test.each([
    ['leaderboard', () => server.leaderboardUrl, ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json', '/mcp/server-card']],
    ['feedback', () => server.feedbackUrl, ['/.well-known/mcp/server-card.json', '/mcp/server-card']],
  ] as const)('the %s server cards agree with the live initialize and list its tools', async (_host, base, paths) => {
    const client = new Client({ name: 'card-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base()}/mcp`)));
    const info = client.getServerVersion()!;
    const tools = (await client.listTools()).tools.map((t) => t.name);
    await client.close();
    for (const path of paths) {
      const res = await get(path, base());
      expect(res.status).toBe(200);
      const card = JSON.parse(res.text) as { name: string; version: string; remotes: Array<{ url: string }>; serverInfo: { name: string }; tools: Array<{ name: string }> };
      expect(card).toMatchObject({ name: info.name, version: info.version, serverInfo: { name: info.name } });
      expect(card.remotes[0].url).toBe(`${_host === 'leaderboard' ? PUBLIC() : FEEDBACK()}/mcp`);
      expect(card.tools.map((t) => t.name)).toEqual(tools);
    }
    expect((await get('/mcp/server-card', base())).type).toContain('application/mcp-server-card+json');
  });

  test('the MCP catalog, ARD manifest and Agent Skills point to the cards and skills that are served', async () => {
    const catalog = JSON.parse((await get('/.well-known/mcp/catalog.json')).text) as { servers: Array<{ url: string; serverCard: string }> };
    expect(catalog.servers).toEqual([expect.objectContaining({ url: `${PUBLIC()}/mcp`, serverCard: `${PUBLIC()}/mcp/server-card` }), expect.objectContaining({ url: `${FEEDBACK()}/mcp`, serverCard: `${FEEDBACK()}/mcp/server-card` })]);
    const ard = JSON.parse((await get('/.well-known/ai-catalog.json')).text) as { specVersion: string; entries: Array<{ identifier: string; displayName: string; type: string; url: string }> };
    expect(ard.specVersion).toBe('1.0');
    expect(ard.entries.length).toBeGreaterThanOrEqual(3);
    for (const entry of ard.entries) expect(entry).toEqual(expect.objectContaining({ identifier: expect.stringMatching(/^urn:air:/), displayName: expect.any(String), type: expect.any(String), url: expect.stringMatching(new RegExp(`^(${PUBLIC()}|${FEEDBACK()})/`)) }));
    const skills = JSON.parse((await get('/.well-known/agent-skills/index.json')).text) as { skills: Array<{ name: string; url: string }> };
    for (const skill of skills.skills) {
      const file = await get(new URL(skill.url).pathname);
      expect(file.status).toBe(200);
      expect(file.text).toMatch(new RegExp(`^---\\nname: ${skill.name}\\ndescription: `));
    }
    expect((await get('/.well-known/agent-skills/no-such-skill/SKILL.md')).status).toBe(404);
  });

  test('the WebMCP script registers the leaderboard MCP server\'s tools', async () => {
    const script = await get('/webmcp.js');
    expect(script.type).toContain('text/javascript');
    expect(script.text).toContain('navigator.modelContext.registerTool(');
    const client = new Client({ name: 'webmcp-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.leaderboardUrl}/mcp`)));
    const tools = (await client.listTools()).tools.map((t) => t.name);
    await client.close();
    const listed = JSON.parse(/var tools = (\[.*\]);/.exec(script.text)![1]) as Array<{ name: string }>;
    expect(listed.map((t) => t.name)).toEqual(tools);
  });

  test('the sitemap is a urlset of the web pages at PUBLIC_URL', async () => {
    const sitemap = await get('/sitemap.xml');
    expect(sitemap.type).toContain('application/xml');
    expect(sitemap.text).toMatch(/<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">[\s\S]*<\/urlset>\n$/);
    expect(sitemap.text).toContain(`<loc>${PUBLIC()}/</loc>`);
    expect(sitemap.text).toContain(`<loc>${PUBLIC()}/stats</loc>`);
    // Every curated company has a page, scanned or not; the community company of this test's scan has none listed.
    expect(sitemap.text).toContain(`<loc>${PUBLIC()}/companies/stripe.com</loc>`);
    expect(sitemap.text).not.toContain(`/companies/${domain}<`);
  });
});

test('every discovery document takes its URLs from PUBLIC_URL and FEEDBACK_PUBLIC_URL, never from where it listens', () => {
  const config = loadConfig({ PORT: '4100', FEEDBACK_PORT: '4101', PUBLIC_URL: 'https://leaderboard.example.org', FEEDBACK_PUBLIC_URL: 'https://feedback.example.org' });
  const facts = serviceFactsFor(config);
  const documents = [llmsTxt(facts), llmsFullTxt(facts), robotsTxt(facts), JSON.stringify(apiCatalog(facts)), JSON.stringify(serverCard(facts.leaderboard, 'https://leaderboard.example.org/')), JSON.stringify(serverCard(facts.feedback, 'https://leaderboard.example.org/'))];
  for (const text of documents) {
    expect(text).not.toMatch(/127\.0\.0\.1|localhost|:410[01]/);
    const urls = text.match(/https?:\/\/[^\s)"'<>\]`]+/g) ?? [];
    expect(urls.length).toBeGreaterThan(0);
    // Any other URL is a reference to a standard (schemas, RFCs), not one of ours.
    for (const url of urls.filter((u) => !/(modelcontextprotocol\.io|rfc-editor\.org|json-schema\.org)/.test(u))) expect(url).toMatch(/^https:\/\/(leaderboard|feedback)\.example\.org/);
  }
});

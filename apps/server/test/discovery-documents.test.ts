// The discovery documents are generated from the running configuration and the contracts: with PUBLIC_URL and
// FEEDBACK_PUBLIC_URL set, every URL they carry is built from those; the server cards agree with the live
// initialize; the WebMCP script registers exactly the MCP server's tools.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from './support/harness';

jest.setTimeout(30_000);

const PUBLIC = 'https://leaderboard.example.org';
const FEEDBACK = 'https://feedback.example.org';
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { PUBLIC_URL: PUBLIC, FEEDBACK_PUBLIC_URL: FEEDBACK } });
});
afterAll(async () => server?.close());

const get = async (path: string, base = server.leaderboardUrl) => {
  const res = await fetch(`${base}${path}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text(), link: res.headers.get('link') };
};

test('robots.txt welcomes agents, states Content-Signal and names the sitemap at PUBLIC_URL', async () => {
  const robots = await get('/robots.txt');
  expect(robots).toMatchObject({ status: 200, type: expect.stringContaining('text/plain') });
  expect(robots.text).toContain('User-agent: *\nAllow: /');
  expect(robots.text).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=yes$/m);
  expect(robots.text).toContain(`Sitemap: ${PUBLIC}/sitemap.xml`);
});

test('llms.txt and llms-full.txt describe both hosts, both MCP servers and the feedback tool with configured URLs', async () => {
  const llms = await get('/llms.txt');
  expect(llms.type).toContain('text/markdown');
  expect(llms.text).toMatch(/^# Agent-Readiness Leaderboard\n\n> /);
  for (const needle of [`](${PUBLIC}/mcp)`, `](${FEEDBACK}/mcp)`, '`send_feedback_report`', `${FEEDBACK}/v1/feedback/leaderboard/reports`, `](${PUBLIC}/openapi.json)`]) expect(llms.text).toContain(needle);
  expect(llms.text).not.toContain(server.leaderboardUrl);
  const full = await get('/llms-full.txt');
  expect(full.text.startsWith(llms.text)).toBe(true);
  expect(full.text).toContain('### POST /v1/feedback/{slug}/reports (sendFeedbackReport)');
  expect(full.text).toContain('### get_scan: Read a scan');
});

test('the api-catalog is a linkset of both APIs and both MCP servers', async () => {
  const catalog = await get('/.well-known/api-catalog');
  expect(catalog.type).toContain('application/linkset+json');
  const anchors = (JSON.parse(catalog.text) as { linkset: Array<{ anchor: string }> }).linkset.map((e) => e.anchor);
  expect(anchors).toEqual(expect.arrayContaining([`${PUBLIC}/`, `${FEEDBACK}/`, `${PUBLIC}/mcp`, `${FEEDBACK}/mcp`]));
  expect((await get('/.well-known/api-catalog', server.feedbackUrl)).text).toBe(catalog.text);
});

test('pages carry the discovery Link header; API answers do not', async () => {
  const page = await get('/robots.txt');
  expect(page.link).toContain(`<${PUBLIC}/.well-known/api-catalog>; rel="api-catalog"`);
  expect(page.link).toContain(`<${PUBLIC}/openapi.json>; rel="service-desc"`);
  expect(page.link).toContain(`<${PUBLIC}/llms.txt>; rel="describedby"`);
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
    expect(card.remotes[0].url).toBe(`${_host === 'leaderboard' ? PUBLIC : FEEDBACK}/mcp`);
    expect(card.tools.map((t) => t.name)).toEqual(tools);
  }
  expect((await get('/mcp/server-card', base())).type).toContain('application/mcp-server-card+json');
});

test('the MCP catalog, ARD manifest and Agent Skills point to the cards and skills that are served', async () => {
  const catalog = JSON.parse((await get('/.well-known/mcp/catalog.json')).text) as { servers: Array<{ url: string; serverCard: string }> };
  expect(catalog.servers).toEqual([expect.objectContaining({ url: `${PUBLIC}/mcp`, serverCard: `${PUBLIC}/mcp/server-card` }), expect.objectContaining({ url: `${FEEDBACK}/mcp`, serverCard: `${FEEDBACK}/mcp/server-card` })]);
  const ard = JSON.parse((await get('/.well-known/ard.json')).text) as { entries: Array<{ identifier: string; displayName: string; type: string; url: string }> };
  expect(ard.entries.length).toBeGreaterThanOrEqual(3);
  for (const entry of ard.entries) expect(entry).toEqual(expect.objectContaining({ identifier: expect.stringMatching(/^urn:air:/), displayName: expect.any(String), type: expect.any(String), url: expect.stringMatching(/^https:/) }));
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
  expect(sitemap.text).toContain(`<loc>${PUBLIC}/</loc>`);
});

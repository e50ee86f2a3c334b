import http from 'node:http';
import { PERSONAS, startSandbox, Sandbox } from '../src';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(sandbox: Sandbox, hostname: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: sandbox.host, port: sandbox.port, path, method: init.method ?? 'GET', headers: { host: `${hostname}:${sandbox.port}`, ...init.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});

describe('sandbox', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());

  it('gives every persona its own registrable hostname', () => {
    const hosts = PERSONAS.map((p) => p.hostname);
    expect(new Set(hosts).size).toBe(PERSONAS.length);
    expect(new Set(PERSONAS.map((p) => p.name)).size).toBe(PERSONAS.length);
  });

  it('builds persona URLs on the loopback port and resolves only persona hostnames', async () => {
    expect(sandbox.urlOf('exemplary')).toBe(`http://exemplary-co.test:${sandbox.port}/`);
    expect(sandbox.urlOf('bare-mcp')).toBe(`http://bare-mcp.test:${sandbox.port}/mcp`);
    await expect(sandbox.lookup!('exemplary-co.test')).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(sandbox.lookup!('unknown.test')).rejects.toThrow(/ENOTFOUND/);
  });

  it('answers 404 for a hostname it does not know', async () => {
    expect((await get(sandbox, 'nobody.test', '/')).status).toBe(404);
  });

  it.each(PERSONAS.filter((p) => p.path === '/' && p.expected.ending === 'finished' && p.name !== 'broken').map((p) => [p.name, p.hostname]))(
    '%s serves an HTML home page',
    async (_name, hostname) => {
      const answer = await get(sandbox, hostname, '/');
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/text\/html/);
    },
  );

  it('exemplary has linked pages for journeys: pricing with an Offer, docs, API docs, signup form, support', async () => {
    const host = 'exemplary-co.test';
    const home = await get(sandbox, host, '/');
    for (const href of ['/pricing', '/docs', '/docs/api', '/signup', '/support']) expect(home.body).toContain(`href="${href}"`);
    const pricing = await get(sandbox, host, '/pricing');
    expect(pricing.body).toMatch(/"@type":"Offer","name":"Pro","price":"49","priceCurrency":"USD"/);
    expect((await get(sandbox, host, '/docs/api')).body).toContain('/openapi.json');
    expect((await get(sandbox, host, '/signup')).body).toMatch(/<form[^>]*>/);
    expect((await get(sandbox, host, '/support')).body).toContain('mailto:support@exemplary-co.test');
    const markdown = await get(sandbox, host, '/', { headers: { accept: 'text/markdown' } });
    expect(markdown.headers['content-type']).toMatch(/text\/markdown/);
    expect(markdown.body.startsWith('# Exemplary Co')).toBe(true);
  });

  it('hostile answers AI agents with a challenge and browsers with a page', async () => {
    const agent = await get(sandbox, 'hostile-corp.test', '/', { headers: { 'user-agent': 'Mozilla/5.0 (compatible; ClaudeBot/1.0)' } });
    expect(agent.status).toBe(403);
    expect(agent.headers['cf-mitigated']).toBe('challenge');
    expect((await get(sandbox, 'hostile-corp.test', '/', { headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);
  });

  it('sign-in wall redirects every page to /login', async () => {
    const answer = await get(sandbox, 'members-only.test', '/pricing');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/login?next=%2Fpricing');
  });

  it('MCP personas answer initialize over Streamable HTTP', async () => {
    for (const name of ['bare-mcp', 'mcp-app'] as const) {
      const persona = PERSONAS.find((p) => p.name === name)!;
      const answer = await get(sandbox, persona.hostname, '/mcp', { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).result.serverInfo.name).toBe(persona.mcp!.serverInfo.name);
    }
  });

  it('the OAuth MCP persona answers 401 pointing at its protected-resource metadata', async () => {
    const answer = await get(sandbox, 'secure-mcp.test', '/mcp', { method: 'POST', headers: MCP_HEADERS, body: INITIALIZE });
    expect(answer.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(String(answer.headers['www-authenticate']))![1];
    const metadata = await get(sandbox, 'secure-mcp.test', new URL(metadataUrl).pathname);
    expect(JSON.parse(metadata.body)).toMatchObject({ resource: `http://secure-mcp.test:${sandbox.port}/mcp`, authorization_servers: [`http://secure-mcp.test:${sandbox.port}`] });
    const authorized = await get(sandbox, 'secure-mcp.test', '/mcp', { method: 'POST', headers: { ...MCP_HEADERS, authorization: 'Bearer sandbox-token' }, body: INITIALIZE });
    expect(authorized.status).toBe(200);
  });

  it('delays every response by the configured latency', async () => {
    const slowSandbox = await startSandbox({ latencyMs: 120 });
    try {
      const started = Date.now();
      await get(slowSandbox, 'exemplary-co.test', '/robots.txt');
      expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    } finally {
      await slowSandbox.close();
    }
  });
});

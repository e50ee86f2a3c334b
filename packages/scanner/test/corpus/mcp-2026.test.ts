import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startSdkSite } from './index';
import type { RunningSite } from './index';
import { startModernMcp } from './modern-mcp';
import type { ModernMcpOptions } from './modern-mcp';

/**
 * MCP 2026-07-28 beside 2025-11-25: each server is judged by the revision it claims (server/discover first, then a
 * 2025-11-25 initialize). The 2026 servers are written from the specification text (see modern-mcp.ts); the
 * 2025-11-25 server is the official SDK's.
 */
const MODERN_SERVERS: Record<string, ModernMcpOptions> = {
  stateless: {},
  dual: { legacy: true },
  'no resultType': { omitResultType: true },
  'no cache hints': { omitCacheHints: true },
  'hands out a session': { issueSessionId: true },
  'ignores the headers': { ignoreHeaderMismatch: true },
};

const NEW_RULES = ['mcp-result-type', 'mcp-cache-hints', 'mcp-request-headers', 'mcp-stateless'];

describe('MCP 2026-07-28 and 2025-11-25 servers, each judged by its revision', () => {
  const servers = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();
  let legacy: RunningSite;
  let legacyResult: ScanResult;

  beforeAll(async () => {
    const names = Object.keys(MODERN_SERVERS);
    const started = await Promise.all(names.map((n) => startModernMcp(MODERN_SERVERS[n])));
    names.forEach((n, i) => servers.set(n, started[i]));
    legacy = await startSdkSite();
    const scanned = await Promise.all([...started.map((s) => scanCorpus(s.mcpUrl!)), scanCorpus(legacy.mcpUrl!)]);
    names.forEach((n, i) => results.set(n, scanned[i]));
    legacyResult = scanned[scanned.length - 1];
  });
  afterAll(async () => {
    await Promise.all([...servers.values(), legacy].map((s) => s.close()));
  });

  test('a stateless 2026-07-28 server (no initialize) passes the handshake by server/discover and every new rule', () => {
    const result = results.get('stateless')!;
    expect(result.ending).toBe('finished');
    expect(result.kind).toBe('mcp_server');
    const init = checkOf(result, 'mcp-initialize');
    expect(init.status).toBe('passed');
    expect(init.detail).toMatch(/MCP 2026-07-28 \(server\/discover lists 2026-07-28\)/);
    expect(checkOf(result, 'mcp-tools-list').status).toBe('passed');
    for (const id of NEW_RULES) expect(checkOf(result, id)).toMatchObject({ status: 'passed', detail: expect.stringContaining('2026-07-28') });
    // transports/streamable-http §Security: Origin validation applies to server/discover too.
    expect(checkOf(result, 'mcp-origin-check').status).toBe('passed');
    // Besides the browser-like fetch of the target, only POSTs: no GET stream was opened.
    expect(servers.get('stateless')!.requests.filter((r) => r.path === '/mcp' && r.method !== 'POST')).toHaveLength(1);
  });

  test('a 2025-11-25 server (official SDK) is judged by 2025-11-25: the 2026 rules do not apply', () => {
    const init = checkOf(legacyResult, 'mcp-initialize');
    expect(init.status).toBe('passed');
    expect(init.detail).toMatch(/MCP 2025-11-25 \(initialize/);
    for (const id of NEW_RULES) expect(checkOf(legacyResult, id)).toMatchObject({ status: 'not_applicable', detail: expect.stringContaining('predates') });
  });

  test('a server speaking both is judged by 2026-07-28, and its 2025-11-25 initialize is confirmed', () => {
    const result = results.get('dual')!;
    const init = checkOf(result, 'mcp-initialize');
    expect(init.status).toBe('passed');
    expect(init.detail).toMatch(/server\/discover lists 2026-07-28, 2025-11-25/);
    expect(init.detail).toMatch(/also speaks 2025-11-25 \(initialize\)/);
    for (const id of NEW_RULES) expect(checkOf(result, id).status).toBe('passed');
  });

  test.each([
    ['no resultType', 'mcp-result-type', /0 of 2 results carry resultType/],
    ['no cache hints', 'mcp-cache-hints', /0 of 2 cacheable results/],
    ['hands out a session', 'mcp-stateless', /Mcp-Session-Id corpus-session-1/],
    ['ignores the headers', 'mcp-request-headers', /was answered/],
  ])('%s: %s fails, and only that rule', (name, id, detail) => {
    const result = results.get(name)!;
    expect(checkOf(result, id)).toMatchObject({ status: 'failed', detail: expect.stringMatching(detail) });
    for (const other of NEW_RULES.filter((r) => r !== id)) expect(checkOf(result, other).status).toBe('passed');
    expect(checkOf(result, 'mcp-initialize').status).toBe('passed');
  });
});

describe('server cards against the live 2026-07-28 server', () => {
  let site: RunningSite;
  let result: ScanResult;
  beforeAll(async () => {
    site = await startModernMcp({
      version: '2.0.0',
      routes: (origin) => ({
        '/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><html><head><title>Weather</title><meta name="description" content="Forecasts for agents"></head><body><h1>Weather</h1><a href="/docs">Docs</a></body></html>' },
        // SEP-1649 shape: the card claims an older version, 2025-06-18 only, and HTTP+SSE.
        '/.well-known/mcp/server-card.json': {
          body: JSON.stringify({ serverInfo: { name: 'modern-corpus-server', version: '1.4.0' }, protocolVersion: '2025-06-18', transport: { type: 'sse', endpoint: `${origin}/mcp` } }),
        },
      }),
    });
    result = await scanCorpus(site.url);
  });
  afterAll(() => site.close());

  test('each contradiction is named, and the name agreeing does not hide them', () => {
    const check = checkOf(result, 'mcp-card-consistent');
    expect(check.status).toBe('warning');
    expect(check.detail).toMatch(/MCP 2026-07-28/);
    expect(check.detail).toMatch(/the card says version 1\.4\.0, the server 2\.0\.0/);
    expect(check.detail).toMatch(/the card claims MCP 2025-06-18, but the server speaks 2026-07-28/);
    expect(check.detail).toMatch(/the card names the sse transport, the server answered over streamable-http/);
  });
});

// Both hosts' POST /mcp speak MCP 2026-07-28 beside 2025-11-25. A 2026-07-28 client (plain fetch JSON-RPC, sent as
// the scanner's own client sends it: MCP-Protocol-Version, Mcp-Method and Mcp-Name headers, the version again in
// params._meta) gets server/discover, a stateless tools/list and tools/call, with resultType and cache hints; the
// official SDK client still negotiates 2025-11-25 and sees the same tools; and our own scanner, pointed at each /mcp,
// finds a 2026-07-28 server and passes it on every MCP check. Private networks are allowed for the scan because the
// hosts listen on loopback.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { scan, type ScanResult } from '@arl/scanner';
import { BODY_LIMIT_BYTES } from '../src/http/contract-app';
import { startTestServer, type TestServer } from './support/harness';
import { realPublicUrls } from './support/ports';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

let server: TestServer;

beforeAll(async () => {
  // PUBLIC_URL names the real address: the scanner follows the server card's URLs.
  const { ports, env } = await realPublicUrls();
  server = await startTestServer({ seed: true, dbName: 'mcp2026', ports, env });
});

afterAll(async () => {
  await server?.close();
});

let nextId = 1;

interface RpcAnswer {
  status: number;
  headers: Headers;
  body: { jsonrpc?: string; id?: unknown; result?: Record<string, unknown>; error?: { code: number; message: string } } | null;
}

/** One 2026-07-28 request, shaped as packages/scanner/src/gather/mcp-modern.ts sends it; `headers` overrides. */
async function modern(base: string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const id = nextId++;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientInfo': { name: 'arl-test-client', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
  });
  const text = await res.text();
  const body = text ? (JSON.parse(text) as RpcAnswer['body']) : null;
  // A JSON-RPC answer names the request it answers (the 403 of a foreign origin is our error body, no JSON-RPC).
  if (body?.jsonrpc !== undefined) expect(body.id).toBe(id);
  return { status: res.status, headers: res.headers, body };
}

async function sdkClient(base: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'arl-test-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
  await client.connect(transport);
  return { client, transport };
}

const hosts = [
  { host: 'leaderboard', base: () => server.leaderboardUrl, serverName: 'agent-readiness-leaderboard', call: { name: 'list_categories', arguments: {} }, bad: { name: 'list_categories', arguments: { nope: 1 } } },
  { host: 'feedback', base: () => server.feedbackUrl, serverName: 'agent-readiness-feedback', call: { name: 'get_feedback_card', arguments: { slug: 'leaderboard' } }, bad: { name: 'get_feedback_card', arguments: {} } },
] as const;

describe.each(hosts)('the $host host, MCP 2026-07-28', ({ base, serverName, call, bad }) => {
  test('server/discover lists 2026-07-28 and 2025-11-25, with identity, capabilities, resultType and cache hints, and no session', async () => {
    const res = await modern(base(), 'server/discover');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const result = res.body!.result!;
    expect(result).toMatchObject({
      resultType: 'complete',
      capabilities: { tools: {} },
      serverInfo: { name: serverName, version: expect.any(String), title: expect.any(String) },
      instructions: expect.any(String),
      cacheScope: 'public',
    });
    expect(result.supportedVersions).toEqual(expect.arrayContaining([MODERN, LEGACY]));
    expect((result.supportedVersions as string[])[0]).toBe(MODERN);
    expect(Number.isInteger(result.ttlMs) && (result.ttlMs as number) > 0).toBe(true);
  });

  test('a server/discover without any version header (a client still choosing) is answered too', async () => {
    const res = await fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover' }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { supportedVersions: string[] } }).result.supportedVersions).toContain(MODERN);
  });

  test('a stateless tools/list (no initialize before it) lists exactly the tools the 2025-11-25 SDK client sees', async () => {
    const res = await modern(base(), 'tools/list');
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const result = res.body!.result!;
    expect(result).toMatchObject({ resultType: 'complete', cacheScope: 'public', ttlMs: expect.any(Number) });
    expect(result.nextCursor).toBeUndefined();
    const { client } = await sdkClient(base());
    try {
      const legacy = await client.listTools();
      expect(legacy.tools.length).toBeGreaterThan(0);
      // One registry: names, descriptions, schemas and annotations are the same on both revisions.
      expect(result.tools).toEqual(JSON.parse(JSON.stringify(legacy.tools)));
    } finally {
      await client.close();
    }
  });

  test('a stateless tools/call runs the tool: structured content, its text, resultType; the SDK client gets the same', async () => {
    const res = await modern(base(), 'tools/call', call);
    expect(res.status).toBe(200);
    const result = res.body!.result! as unknown as CallToolResult & { resultType: string };
    expect(result.resultType).toBe('complete');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeDefined();
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    const { client } = await sdkClient(base());
    try {
      const legacy = (await client.callTool(call)) as CallToolResult;
      expect(legacy.structuredContent).toEqual(result.structuredContent);
    } finally {
      await client.close();
    }
  });

  test('invalid arguments are a tool result with isError and our error body; an unknown tool is a JSON-RPC error', async () => {
    const invalid = await modern(base(), 'tools/call', bad);
    expect(invalid.status).toBe(200);
    const result = invalid.body!.result! as unknown as CallToolResult & { resultType: string };
    expect(result).toMatchObject({ resultType: 'complete', isError: true });
    const error = JSON.parse((result.content[0] as { text: string }).text) as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['code', 'message', 'requestId']);
    expect(error.code).toBe('bad_request');

    const unknown = await modern(base(), 'tools/call', { name: 'no_such_tool', arguments: {} });
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32602, message: expect.stringContaining('no_such_tool') } });
    expect(unknown.body!.result).toBeUndefined();
  });

  test('ping answers an empty complete result; an unknown method is JSON-RPC -32601', async () => {
    expect((await modern(base(), 'ping')).body!.result).toEqual({ resultType: 'complete' });
    const unknown = await modern(base(), 'resources/list');
    expect(unknown.body).toMatchObject({ error: { code: -32601 } });
  });

  test('headers that disagree with the body are refused with 400 and HeaderMismatchError -32020', async () => {
    const cases: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      ['tools/list', {}, { 'mcp-method': 'server/discover' }],
      ['tools/list', {}, { 'mcp-method': '' }],
      ['tools/call', call, { 'mcp-name': 'another_tool' }],
    ];
    for (const [method, params, headers] of cases) {
      const res = await modern(base(), method, params, headers);
      expect({ method, headers, status: res.status, code: res.body?.error?.code, answered: res.body?.result !== undefined }).toEqual({ method, headers, status: 400, code: -32020, answered: false });
    }
    // The version in params._meta must agree with the header.
    const res = await fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': LEGACY } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32020 } });
  });

  test('a batch is refused as a JSON-RPC invalid request; a notification is accepted with 202 and no body', async () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'ping' };
    const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } };
    const batch = await fetch(`${base()}/mcp`, { method: 'POST', headers, body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping', params: meta }]) });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    const notification = await fetch(`${base()}/mcp`, { method: 'POST', headers: { ...headers, 'mcp-method': 'notifications/cancelled' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { ...meta, requestId: 1 } }) });
    expect(notification.status).toBe(202);
    expect(await notification.text()).toBe('');
  });

  test('a 2026-07-28 body over the limit every operation has is refused with 413 before it is read as JSON-RPC', async () => {
    const padding = 'x'.repeat(BODY_LIMIT_BYTES);
    const res = await modern(base(), 'tools/call', { name: call.name, arguments: { ...call.arguments, padding } });
    expect(res.status).toBe(413);
    expect(Object.keys(res.body ?? {}).sort()).toEqual(['code', 'message', 'requestId']);
  });

  test('a foreign web origin is refused with 403 before any 2026-07-28 method runs', async () => {
    const res = await modern(base(), 'server/discover', {}, { origin: 'https://dns-rebinding-check.invalid' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'origin_not_allowed' });
  });

  test('the 2025-11-25 SDK client still initializes and negotiates 2025-11-25', async () => {
    const { client, transport } = await sdkClient(base());
    try {
      expect(transport.protocolVersion).toBe(LEGACY);
      expect(client.getServerVersion()?.name).toBe(serverName);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

describe('our own scanner, scanning both hosts\' /mcp', () => {
  const results: Record<string, ScanResult> = {};

  beforeAll(async () => {
    // One after the other: the machine is shared.
    for (const { host, base } of hosts) results[host] = await scan(`${base()}/mcp`, { fetchPolicy: { allowPrivateNetworks: true } });
  });

  test.each(hosts)('finds a 2026-07-28 server on the $host host with every MCP check passed', ({ host }) => {
    const result = results[host];
    expect(result.ending).toBe('finished');
    const mcpChecks = result.checks.filter((c) => c.id.startsWith('mcp-'));
    // Printed for the report: every MCP check and its status.
    process.stdout.write(`\n${host} /mcp: ${mcpChecks.map((c) => `${c.id}=${c.status}`).join(', ')}\n`);
    const byId = new Map(mcpChecks.map((c) => [c.id, c]));
    expect(byId.get('mcp-initialize')).toMatchObject({ status: 'passed', evidence: { detail: expect.stringContaining(`MCP ${MODERN} (server/discover lists ${MODERN}`) } });
    // Judged by 2026-07-28, and the older revision it lists was confirmed by an initialize.
    expect(byId.get('mcp-initialize')!.evidence.detail).toContain(`also speaks ${LEGACY} (initialize)`);
    // The rules 2026-07-28 introduced apply (they are not_applicable for a 2025-11-25 server) and pass.
    for (const id of ['mcp-result-type', 'mcp-cache-hints', 'mcp-request-headers', 'mcp-stateless']) expect({ id, status: byId.get(id)?.status }).toEqual({ id, status: 'passed' });
    // MCP Apps checks have nothing to judge: the servers offer no ui:// views. Every other MCP check passed.
    const notPassed = mcpChecks.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.status}`);
    expect(notPassed.filter((line) => !/^mcp-apps-[a-z-]+: not_applicable$/.test(line))).toEqual([]);
    expect(mcpChecks.length).toBeGreaterThanOrEqual(14);
  });
});

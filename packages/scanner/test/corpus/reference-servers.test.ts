import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startBasicMcpApp, startServerEverything } from './index';
import type { RunningServer } from './index';

/**
 * The MCP project's own software, as published on npm, scanned on loopback. Expected verdicts come from
 * MCP 2025-11-25 (lifecycle, transports, server/tools) and the MCP Apps extension (SEP-1865), not from the scanner.
 */
describe('reference servers from npm', () => {
  const servers: RunningServer[] = [];
  const results = new Map<string, ScanResult>();

  beforeAll(async () => {
    const started = await Promise.all([startServerEverything('streamableHttp'), startServerEverything('sse'), startBasicMcpApp()]);
    servers.push(...started);
    const [http, sse, app] = await Promise.all(started.map((s) => scanCorpus(s.url)));
    results.set('everything-http', http);
    results.set('everything-sse', sse);
    results.set('basic-app', app);
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('server-everything over Streamable HTTP: a finished MCP server scan whose handshake, tools, names and schemas pass', () => {
    const r = results.get('everything-http')!;
    expect({ kind: r.kind, ending: r.ending, siteName: r.siteName }).toEqual({ kind: 'mcp_server', ending: 'finished', siteName: 'Everything Reference Server' });
    // Lifecycle §Initialization: protocolVersion, capabilities and serverInfo are all present.
    expect(checkOf(r, 'mcp-initialize').status).toBe('passed');
    expect(checkOf(r, 'mcp-tools-list').status).toBe('passed');
    // server/tools §Tool Names: names such as "get-sum" are in the allowed set.
    expect(checkOf(r, 'mcp-tool-names').status).toBe('passed');
    // server/tools §Tool: every inputSchema is a valid JSON Schema 2020-12 object schema; one parameter lacks a description.
    expect(checkOf(r, 'mcp-tool-schemas').status).toMatch(/passed|warning/);
    expect(checkOf(r, 'mcp-safety-lint').status).toBe('passed');
  });

  it('a complete, well-described public MCP server with no draft extras scores at least 75 (B): missing drafts cost nothing', () => {
    // Fairness (README "Scoring"): a missing draft server card no longer zeroes the discovery layer (it scored 46, D).
    for (const key of ['everything-http', 'everything-sse']) {
      const r = results.get(key)!;
      expect({ key, cardStatus: checkOf(r, 'mcp-server-card').status }).toEqual({ key, cardStatus: 'failed' });
      expect(r.layers.find((l) => l.id === 'discovery')!.score).toBeNull();
    }
    // On the current transport (Streamable HTTP) it is a B. Over the deprecated HTTP+SSE transport it pays for the
    // deprecation warning and for accepting a foreign Origin on its stream (2024-11-05 carries the same MUST), so it
    // stays a C at least but never scores above the Streamable HTTP mode.
    const http = results.get('everything-http')!.score ?? 0;
    const sse = results.get('everything-sse')!.score ?? 0;
    expect({ http, atLeastB: http >= 75 }).toMatchObject({ atLeastB: true });
    expect({ sse, atLeastC: sse >= 60, notAboveHttp: sse <= http }).toMatchObject({ atLeastC: true, notAboveHttp: true });
  });

  it('server-everything accepts a foreign Origin, which transports §2.0.1 says MUST get 403', () => {
    const origin = checkOf(results.get('everything-http')!, 'mcp-origin-check');
    expect(origin.status).toBe('failed');
    expect(origin.detail).toMatch(/Origin/);
  });

  it('server-everything over HTTP+SSE: found through the legacy transport, which 2025-03-26 deprecated (a warning, not a fail)', () => {
    const r = results.get('everything-sse')!;
    expect({ kind: r.kind, ending: r.ending }).toEqual({ kind: 'mcp_server', ending: 'finished' });
    expect(checkOf(r, 'mcp-initialize')).toMatchObject({ status: 'warning', detail: expect.stringMatching(/MCP \d{4}-\d{2}-\d{2} \(initialize; server\/discover not answered.*\), sse transport/) });
    expect(checkOf(r, 'mcp-tools-list').status).toBe('passed');
    // The 2024-11-05 HTTP+SSE transport carries the same Origin MUST: the stream opens for a foreign Origin.
    expect(checkOf(r, 'mcp-origin-check')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/stream request/) });
  });

  it('the ext-apps basic example is an MCP App whose ui:// view is served as text/html;profile=mcp-app (SEP-1865)', () => {
    const r = results.get('basic-app')!;
    expect({ kind: r.kind, ending: r.ending }).toEqual({ kind: 'mcp_app', ending: 'finished' });
    expect(checkOf(r, 'mcp-apps-ui-resource').status).toBe('passed');
    expect(checkOf(r, 'mcp-tool-schemas').status).toBe('passed');
    expect(checkOf(r, 'mcp-output-schema').status).toBe('passed');
  });
});

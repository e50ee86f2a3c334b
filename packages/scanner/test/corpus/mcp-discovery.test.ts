import type { ScanResult } from '../../src';
import { DISCOVERY_SITES } from './discovery-sites';
import { checkOf, scanCorpus, startAndScanSites, startSdkSite } from './index';
import type { RunningSite } from './index';

/**
 * A website's MCP server, announced the ways clients and registries publish it: SEP-1649 server cards
 * (serverInfo + transport), SEP-2127 / MCP Registry server.json cards (remotes[], reverse-DNS names), the legacy
 * /.well-known/mcp.json, the MCP Catalog (/.well-known/mcp/catalog.json, cards at <endpoint>/server-card),
 * RFC 9727 api-catalog anchors, RFC 8288 Link headers, llms.txt links, and the conventional /mcp path.
 */
describe('MCP discovery on websites', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();

  beforeAll(() => startAndScanSites(DISCOVERY_SITES, sites, results));
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  const expectedSource: Record<string, RegExp> = {
    'sep-1649 server card': /server card at \/\.well-known\/mcp\/server-card\.json/,
    'registry server.json card': /server card at \/\.well-known\/mcp\/server-card\.json/,
    'legacy /.well-known/mcp.json': /server card at \/\.well-known\/mcp\.json/,
    'mcp catalog': /MCP catalog/,
    'rfc 9727 api-catalog anchor': /api-catalog/,
    'link header': /Link header/,
    'llms.txt link': /llms\.txt/,
    'plain /mcp': /conventional \/mcp path/,
  };

  it.each(Object.keys(DISCOVERY_SITES))('finds the MCP server announced by %s, and says where it was found', (name) => {
    const result = results.get(name)!;
    const site = sites.get(name)!;
    expect(result.kind).toBe('website');
    const init = checkOf(result, 'mcp-initialize');
    expect(init.status).toBe('passed');
    expect(init.detail).toMatch(expectedSource[name]);
    expect(result.checks.find((c) => c.id === 'mcp-initialize')!.evidence.url).toBe(site.mcpUrl);
    expect(checkOf(result, 'mcp-tools-list').status).toBe('passed');
  });

  it('a SEP-1649 card and the legacy mcp.json are valid server cards', () => {
    expect(checkOf(results.get('sep-1649 server card')!, 'mcp-server-card').status).toBe('passed');
    expect(checkOf(results.get('legacy /.well-known/mcp.json')!, 'mcp-server-card').status).toBe('passed');
    expect(checkOf(results.get('mcp catalog')!, 'mcp-server-card').status).toBe('passed');
  });

  it('a registry name is reverse-DNS by design: "io.github.corpus/corpus-server" agrees with serverInfo.name "corpus-server"', () => {
    expect(checkOf(results.get('registry server.json card')!, 'mcp-card-consistent').status).toBe('passed');
    expect(checkOf(results.get('mcp catalog')!, 'mcp-card-consistent').status).toBe('passed');
    expect(checkOf(results.get('sep-1649 server card')!, 'mcp-card-consistent').status).toBe('passed');
  });

  it('the /mcp probe is bounded: one server/discover and one initialize POST on a site that announces nothing', () => {
    const posts = sites.get('plain /mcp')!.requests.filter((r) => r.path === '/mcp' && r.method === 'POST' && r.origin === null);
    // server/discover (MCP 2026-07-28), then initialize, notifications/initialized, tools/list: one session, not a retry loop.
    expect(posts.length).toBeLessThanOrEqual(5);
  });
});

describe('MCP discovery stays quiet where there is nothing', () => {
  let site: RunningSite;
  let result: ScanResult;
  beforeAll(async () => {
    site = await startSdkSite({ mcpPath: null });
    result = await scanCorpus(site.url);
  });
  afterAll(() => site.close());

  it('a site without an MCP server gets "No MCP server was found" after a single probe of /mcp', () => {
    expect(checkOf(result, 'mcp-initialize')).toMatchObject({ status: 'not_applicable', detail: 'No MCP server was found' });
    expect(site.requests.filter((r) => r.path === '/mcp')).toHaveLength(1);
  });
});

describe('discovery limits', () => {
  let elsewhere: RunningSite;
  let linking: RunningSite;
  let withEndpointCard: RunningSite;
  let linkingResult: ScanResult;
  let endpointCardResult: ScanResult;

  beforeAll(async () => {
    elsewhere = await startSdkSite();
    // llms.txt links someone else's MCP server (another host): a hint, not a declaration of this site's server.
    linking = await startSdkSite({
      mcpPath: null,
      routes: () => ({ '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: `# Linking site\n\n- [Their MCP server](${elsewhere.mcpUrl!.replace('127.0.0.1', 'localhost')}): not ours\n` } }),
    });
    // SEP-2127 reserves <streamable-http-url>/server-card for an MCP server's own card.
    withEndpointCard = await startSdkSite({
      routes: (origin) => ({ '/mcp/server-card': { body: JSON.stringify({ name: 'io.github.corpus/corpus-server', version: '1.0.0', remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }] }) } }),
    });
    [linkingResult, endpointCardResult] = await Promise.all([scanCorpus(linking.url), scanCorpus(withEndpointCard.mcpUrl!)]);
  });
  afterAll(() => Promise.all([elsewhere.close(), linking.close(), withEndpointCard.close()]));

  it('an llms.txt link to another site\'s MCP server opens no session there', () => {
    expect(checkOf(linkingResult, 'mcp-initialize')).toMatchObject({ status: 'not_applicable', detail: 'No MCP server was found' });
    expect(elsewhere.requests.filter((r) => r.path === '/mcp')).toHaveLength(0);
  });

  it('an MCP server\'s card at <endpoint>/server-card (SEP-2127) is its server card', () => {
    expect(checkOf(endpointCardResult, 'mcp-server-card').status).toBe('passed');
    expect(checkOf(endpointCardResult, 'mcp-card-consistent').status).toBe('passed');
  });
});

describe('a website whose /mcp answers but fails the handshake', () => {
  let broken: RunningSite;
  let otherRpc: RunningSite;
  let brokenResult: ScanResult;
  let otherRpcResult: ScanResult;
  beforeAll(async () => {
    [broken, otherRpc] = await Promise.all([
      // basic/lifecycle §Version Negotiation: a version the client does not support ends the handshake.
      startSdkSite({ mcp: { protocolVersion: '1999-01-01' } }),
      // JSON-RPC 2.0 §5.1: -32601 "Method not found" is some other JSON-RPC service, not an MCP server.
      startSdkSite({ mcpPath: null, routes: () => ({ '/mcp': { body: JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }) } }) }),
    ]);
    [brokenResult, otherRpcResult] = await Promise.all([scanCorpus(broken.url), scanCorpus(otherRpc.url)]);
  });
  afterAll(() => Promise.all([broken.close(), otherRpc.close()]));

  it('an MCP server at /mcp that refuses the handshake fails mcp-initialize on the website, saying where it was found', () => {
    expect(brokenResult.kind).toBe('website');
    expect(checkOf(brokenResult, 'mcp-initialize')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/conventional \/mcp path/) });
  });

  it('a JSON-RPC service at /mcp that does not know initialize leaves the website without an MCP server', () => {
    expect(checkOf(otherRpcResult, 'mcp-initialize').status).toBe('not_applicable');
  });
});

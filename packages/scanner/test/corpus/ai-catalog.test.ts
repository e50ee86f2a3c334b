import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startSdkSite } from './index';
import type { RunningSite } from './index';
import { A2A_JSONRPC_ENDPOINT } from './sdk-servers';

/**
 * AI Catalog entries followed into the server-card and agent-card checks (AI Catalog §Catalog Entry: a type, and
 * exactly one of url or data; ARD: application/mcp-server-card+json, application/a2a-agent-card+json). Nothing sits at
 * the well-known card locations: only the catalog names them.
 */
describe('AI Catalog entries', () => {
  let site: RunningSite;
  let result: ScanResult;
  beforeAll(async () => {
    site = await startSdkSite({
      mcpPath: '/rpc/weather',
      mcp: { name: 'corpus-server' },
      routes: (origin) => ({
        '/.well-known/ai-catalog.json': {
          headers: { 'content-type': 'application/ai-catalog+json' },
          body: JSON.stringify({
            specVersion: '1.0',
            entries: [
              { identifier: 'urn:air:corpus:mcp:weather', displayName: 'Weather MCP server', type: 'application/mcp-server-card+json', url: `${origin}/cards/weather.json` },
              {
                identifier: 'urn:air:corpus:a2a:planner',
                displayName: 'Planner agent',
                type: 'application/a2a-agent-card+json',
                // A complete 1.0 card (every field a2a.proto marks REQUIRED), so only the embedding is under test here.
                data: {
                  name: 'Planner', description: 'Plans trips.', version: '1.0.0', capabilities: {}, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
                  supportedInterfaces: [{ url: `${origin}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }], skills: [{ id: 'plan', name: 'Plan', description: 'Plans', tags: [] }],
                },
              },
            ],
          }),
        },
        '/cards/weather.json': { body: JSON.stringify({ name: 'io.github.corpus/corpus-server', version: '1.0.0', remotes: [{ type: 'streamable-http', url: `${origin}/rpc/weather` }] }) },
        '/a2a': A2A_JSONRPC_ENDPOINT,
      }),
    });
    result = await scanCorpus(site.url);
  });
  afterAll(() => site.close());

  it('a server card the catalog lists leads to the MCP server and counts as its card', () => {
    expect(checkOf(result, 'mcp-initialize')).toMatchObject({ status: 'passed', detail: expect.stringContaining('found through the AI Catalog at /.well-known/ai-catalog.json (entry urn:air:corpus:mcp:weather)') });
    expect(checkOf(result, 'mcp-server-card')).toMatchObject({ status: 'passed', detail: expect.stringContaining('/rpc/weather') });
    expect(checkOf(result, 'mcp-card-consistent').status).toBe('passed');
  });

  it('an agent card the catalog embeds is judged by the agent-card check', () => {
    expect(checkOf(result, 'a2a-agent-card')).toMatchObject({ status: 'passed', detail: expect.stringContaining('listed in the AI Catalog as urn:air:corpus:a2a:planner') });
  });
});

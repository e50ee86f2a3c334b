import type { ScanResult } from '../../src';
import { ucpBindings } from '../../src/gather/ucp-profile';
import { checkOf, startAndScanSites } from './index';
import type { RunningSite } from './index';
import type { SdkSiteOptions } from './sdk-servers';

/**
 * An MCP server announced only by the site's UCP business profile (/.well-known/ucp), as commerce platforms run one
 * for every shop: a working SDK server at /api/ucp/mcp (not the conventional /mcp, so nothing else finds it), and a
 * profile in each shape real profiles use. Our own fixtures, reproducing:
 * - 2026-01-11: `ucp.services` keyed by service name, transports as keys, each {schema, endpoint} (the UCP
 *   specification's discovery example and its MCP binding documents);
 * - 2026-04-08: each service an array of {version, transport, endpoint} bindings (profiles seen on platform-hosted
 *   shops since the 2026-04-08 release).
 * The same site without a profile finds no server: it was the profile that led the scan there.
 */
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const MCP_PATH = '/api/ucp/mcp';

const SITES: Record<string, SdkSiteOptions> = {
  'ucp 2026-01-11 profile (transports as keys)': {
    mcpPath: MCP_PATH,
    routes: (origin) => ({
      '/.well-known/ucp': json({
        ucp: {
          version: '2026-01-11',
          services: {
            'dev.ucp.shopping': {
              version: '2026-01-11',
              spec: 'https://ucp.dev/specification/overview',
              rest: { schema: 'https://ucp.dev/services/shopping/rest.openapi.json', endpoint: `${origin}/api/ucp` },
              mcp: { schema: 'https://ucp.dev/services/shopping/mcp.openrpc.json', endpoint: `${origin}${MCP_PATH}` },
            },
          },
          capabilities: [{ name: 'dev.ucp.shopping.checkout', version: '2026-01-11' }],
        },
      }),
    }),
  },
  'ucp 2026-04-08 profile (arrays of bindings, relative endpoint)': {
    mcpPath: MCP_PATH,
    routes: () => ({
      '/.well-known/ucp': json({
        ucp: {
          version: '2026-04-08',
          services: {
            'dev.ucp.shopping': [
              { version: '2026-04-08', transport: 'rest', endpoint: '/api/ucp', schema: 'https://ucp.dev/2026-04-08/services/shopping/rest.openapi.json' },
              { version: '2026-04-08', transport: 'mcp', endpoint: MCP_PATH, schema: 'https://ucp.dev/2026-04-08/services/shopping/mcp.openrpc.json' },
            ],
          },
          capabilities: { 'dev.ucp.shopping.checkout': [{ version: '2026-04-08' }] },
        },
      }),
    }),
  },
  'no ucp profile': { mcpPath: MCP_PATH },
};

describe('MCP servers announced by a UCP profile', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();

  beforeAll(() => startAndScanSites(SITES, sites, results));
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  it.each(Object.keys(SITES).filter((name) => name.startsWith('ucp')))('%s: the MCP server is found and judged, and the evidence says where', (name) => {
    const result = results.get(name)!;
    const init = checkOf(result, 'mcp-initialize');
    expect(init.status).toBe('passed');
    expect(init.detail).toMatch(/UCP profile at \/\.well-known\/ucp \(service dev\.ucp\.shopping\)/);
    expect(result.checks.find((c) => c.id === 'mcp-initialize')!.evidence.url).toBe(sites.get(name)!.mcpUrl);
    expect(checkOf(result, 'mcp-tools-list').status).toBe('passed');
    expect(checkOf(result, 'payments-ucp').status).toBe('passed');
  });

  it('the same site without a profile: no MCP server is found (the profile led the scan to it)', () => {
    const result = results.get('no ucp profile')!;
    expect(checkOf(result, 'mcp-initialize').status).toBe('not_applicable');
    expect(sites.get('no ucp profile')!.requests.some((r) => r.path === MCP_PATH)).toBe(false);
  });
});

describe('ucpBindings', () => {
  const doc = (body: unknown, status = 200) => ({ url: 'https://shop.example/.well-known/ucp', finalUrl: null, status, body: JSON.stringify(body) }) as never;

  it('reads both shapes, resolves relative endpoints, keeps only http(s) and known transports, without duplicates', () => {
    expect(ucpBindings(doc({
      version: '2026-04-08',
      services: {
        'dev.ucp.shopping': [
          { transport: 'MCP', endpoint: '/mcp' },
          { transport: 'mcp', endpoint: 'https://shop.example/mcp' },
          { transport: 'grpc', endpoint: 'https://shop.example/grpc' },
          { transport: 'a2a', endpoint: 'javascript:alert(1)' },
        ],
        'com.example.loyalty': { a2a: { endpoint: 'https://agents.example/loyalty' }, embedded: { url: '/embed' } },
      },
    }))).toEqual([
      { service: 'dev.ucp.shopping', transport: 'mcp', endpoint: 'https://shop.example/mcp' },
      { service: 'com.example.loyalty', transport: 'a2a', endpoint: 'https://agents.example/loyalty' },
      { service: 'com.example.loyalty', transport: 'embedded', endpoint: 'https://shop.example/embed' },
    ]);
  });

  it('gives nothing for what is not a profile, and at most 12 bindings for a hostile one', () => {
    expect(ucpBindings(doc({ ucp: { version: '2026-01-11' } }))).toEqual([]);
    expect(ucpBindings(doc({ services: { a: { mcp: { endpoint: 'https://x.example/mcp' } } } }, 404))).toEqual([]);
    expect(ucpBindings({ ...(doc({}) as object), body: 'not json' } as never)).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`s${i}`, [{ transport: 'mcp', endpoint: `https://x.example/${i}` }]]));
    expect(ucpBindings(doc({ ucp: { services: many } }))).toHaveLength(12);
  });
});

import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startSdkSite } from './index';
import type { CannedResponse, RunningSite } from './index';
import { startModernMcp } from './modern-mcp';

/**
 * Client registration by revision: MCP 2026-07-28 (basic/authorization §Client Registration) prefers Client ID
 * Metadata Documents (client_id_metadata_document_supported, draft-ietf-oauth-client-id-metadata-document) and
 * deprecates dynamic registration (RFC 7591); a server on 2025-11-25 is not marked down for offering only the latter.
 */
function routes(cimd: boolean) {
  return (origin: string): Record<string, CannedResponse> => ({
    '/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><html><head><title>Weather</title><meta name="description" content="Forecasts"></head><body><h1>Weather</h1><a href="/login">Sign in</a></body></html>' },
    '/.well-known/mcp/server-card.json': { body: JSON.stringify({ name: 'weather', remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }] }) },
    '/.well-known/oauth-authorization-server': {
      body: JSON.stringify({
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        code_challenge_methods_supported: ['S256'],
        ...(cimd ? { client_id_metadata_document_supported: true } : {}),
      }),
    },
  });
}

describe('client registration judged by the MCP revision', () => {
  const sites: RunningSite[] = [];
  const results = new Map<string, ScanResult>();
  beforeAll(async () => {
    const started = await Promise.all([startModernMcp({ routes: routes(false) }), startModernMcp({ routes: routes(true) }), startSdkSite({ routes: routes(false) })]);
    sites.push(...started);
    const scanned = await Promise.all(started.map((s) => scanCorpus(s.url)));
    ['2026 dcr', '2026 cimd', '2025 dcr'].forEach((name, i) => results.set(name, scanned[i]));
  });
  afterAll(() => Promise.all(sites.map((s) => s.close())));

  it('a 2026-07-28 server offering only dynamic registration gets a warning naming the deprecation', () => {
    expect(checkOf(results.get('2026 dcr')!, 'mcp-initialize').detail).toMatch(/MCP 2026-07-28/);
    expect(checkOf(results.get('2026 dcr')!, 'client-registration')).toMatchObject({ status: 'warning', detail: expect.stringContaining('MCP 2026-07-28 deprecates it in favour of Client ID Metadata Documents') });
  });

  it('advertising client_id_metadata_document_supported passes', () => {
    expect(checkOf(results.get('2026 cimd')!, 'client-registration')).toMatchObject({ status: 'passed', detail: expect.stringContaining('client_id_metadata_document_supported: true') });
  });

  it('a 2025-11-25 server with dynamic registration still passes: it predates the deprecation', () => {
    expect(checkOf(results.get('2025 dcr')!, 'client-registration')).toMatchObject({ status: 'passed', detail: expect.stringContaining('judged by 2025-11-25, which predates the deprecation') });
  });
});

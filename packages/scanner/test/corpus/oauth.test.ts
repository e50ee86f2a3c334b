import type { ScanResult } from '../../src';
import { checkOf, scanCorpus, startOAuthProtectedMcp, startSdkSite } from './index';
import type { OAuthProtectedMcp, RunningServer, RunningSite } from './index';

/**
 * MCP authorization (MCP 2025-11-25 basic/authorization) with a real authorization server, oauth2-mock-server, behind
 * the MCP SDK's auth helpers (requireBearerAuth, mcpAuthMetadataRouter).
 */
describe('OAuth-protected MCP servers', () => {
  const servers: RunningServer[] = [];
  let standard: OAuthProtectedMcp;
  let withoutPointer: OAuthProtectedMcp;
  let foreignResource: OAuthProtectedMcp;
  const results = new Map<string, ScanResult>();

  beforeAll(async () => {
    [standard, withoutPointer, foreignResource] = await Promise.all([
      startOAuthProtectedMcp(),
      startOAuthProtectedMcp({ omitResourceMetadataPointer: true }),
      startOAuthProtectedMcp({ resourceOverride: 'https://other-server.example/mcp' }),
    ]);
    servers.push(standard, withoutPointer, foreignResource);
    const [a, b, c] = await Promise.all([scanCorpus(standard.url), scanCorpus(withoutPointer.url), scanCorpus(foreignResource.url)]);
    results.set('standard', a);
    results.set('without pointer', b);
    results.set('foreign resource', c);
  });
  afterAll(() => Promise.all(servers.map((s) => s.close())));

  it('a 401 pointing at RFC 9728 metadata, an OpenID provider found by discovery, PKCE S256: sign-in required, verdicts kept', () => {
    const r = results.get('standard')!;
    expect({ kind: r.kind, ending: r.ending, score: r.score }).toEqual({ kind: 'mcp_server', ending: 'sign_in_required', score: null });
    expect(checkOf(r, 'protected-resource-metadata').status).toBe('passed');
    // authorization-server discovery §: RFC 8414 first, then OpenID Connect Discovery; the mock only serves the latter.
    expect(checkOf(r, 'oauth-discovery')).toMatchObject({ status: 'passed', detail: expect.stringContaining(standard.issuer) });
    expect(checkOf(r, 'pkce-s256').status).toBe('passed');
    // No registration_endpoint and no client_id_metadata_document_supported in the mock's metadata.
    expect(checkOf(r, 'client-registration').status).toBe('failed');
  });

  it('metadata at the well-known URI without a resource_metadata pointer is fine (protected-resource discovery allows either)', () => {
    expect(checkOf(results.get('without pointer')!, 'protected-resource-metadata').status).toBe('passed');
  });

  it('metadata whose resource names another server fails (RFC 9728 §3.3: it MUST NOT be used)', () => {
    expect(checkOf(results.get('foreign resource')!, 'protected-resource-metadata')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/other-server\.example/) });
  });
});

/** An MCP server whose issuer has a path (/tenant1) and whose only metadata is at OIDC "path appending". */
function tenantSite(issuerIn: (origin: string) => string): Promise<RunningSite> {
  return startSdkSite({
    mcp: {
      guard: (req, res) => {
        const origin = `http://${req.headers.host}`;
        res.writeHead(401, { 'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` }).end();
        return true;
      },
    },
    routes: (origin) => ({
      '/.well-known/oauth-protected-resource/mcp': { body: JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [`${origin}/tenant1`] }) },
      '/tenant1/.well-known/openid-configuration': {
        body: JSON.stringify({ issuer: issuerIn(origin), authorization_endpoint: `${origin}/tenant1/authorize`, token_endpoint: `${origin}/tenant1/token`, code_challenge_methods_supported: ['S256'], client_id_metadata_document_supported: true }),
      },
    }),
  });
}

describe('authorization-server discovery order (basic/authorization §Authorization Server Metadata Discovery)', () => {
  let site: RunningSite;
  let otherIssuer: RunningSite;
  let result: ScanResult;
  let otherIssuerResult: ScanResult;

  beforeAll(async () => {
    [site, otherIssuer] = await Promise.all([tenantSite((origin) => `${origin}/tenant1`), tenantSite((origin) => `${origin}/tenant2`)]);
    [result, otherIssuerResult] = await Promise.all([scanCorpus(site.mcpUrl!), scanCorpus(otherIssuer.mcpUrl!)]);
  });
  afterAll(() => Promise.all([site.close(), otherIssuer.close()]));

  it('tries RFC 8414 path insertion, OIDC path insertion, then OIDC path appending, and finds the last', () => {
    expect(checkOf(result, 'oauth-discovery')).toMatchObject({ status: 'passed', detail: expect.stringContaining('/tenant1') });
    expect(checkOf(result, 'client-registration').status).toBe('passed');
    const tried = site.requests.map((r) => r.path).filter((p) => /openid-configuration|oauth-authorization-server/.test(p));
    expect(tried.indexOf('/.well-known/oauth-authorization-server/tenant1')).toBeLessThan(tried.indexOf('/.well-known/openid-configuration/tenant1'));
    expect(tried.indexOf('/.well-known/openid-configuration/tenant1')).toBeLessThan(tried.indexOf('/tenant1/.well-known/openid-configuration'));
  });

  it('metadata whose issuer is not the issuer it was fetched for fails (RFC 8414 §3.3, OIDC Discovery §4.3: it MUST NOT be used)', () => {
    expect(checkOf(otherIssuerResult, 'oauth-discovery')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/tenant2.*tenant1|RFC 8414 §3\.3/) });
  });
});

import type { Artifacts } from '../../gather/artifacts';
import { blockOf } from '../../gather/block-signals';
import { parseJsonObject } from '../../util/json';
import { MODERN_REVISION } from '../../gather/mcp-modern';
import { ALL_KINDS, defineCheck, docEvidence, isOk, outcome, undecided, unreachable } from '../define';
import { isSignInWall, needsSignIn, signInDocs } from '../signals';

function authServerMetadata(a: Artifacts): Record<string, unknown> | null {
  return isOk(a.authorizationServer) ? parseJsonObject(a.authorizationServer.body) : null;
}

/** Only where something needs signing in: an account-less API (an x402 one, say) owes no OAuth metadata. */
function oauthExpected(a: Artifacts): boolean {
  // A login wall needs sign-in by definition, so its OAuth verdicts are part of a sign_in_required scan's report.
  return Boolean(a.mcp?.auth.required) || (a.kind === 'website' && (needsSignIn(a) || isSignInWall(a.home, a.homeHtml)));
}

/**
 * RFC 9728 §3.3: the metadata's resource must be the protected resource. Like the MCP SDK client, we accept the
 * server's URL or a parent of it on the same origin (e.g. "https://api.example.com/" for "https://api.example.com/mcp").
 */
function resourceMatches(resource: string, endpoint: string): boolean {
  try {
    const r = new URL(resource);
    const e = new URL(endpoint);
    if (r.origin !== e.origin) return false;
    const rPath = r.pathname.endsWith('/') ? r.pathname : `${r.pathname}/`;
    const ePath = e.pathname.endsWith('/') ? e.pathname : `${e.pathname}/`;
    return ePath.startsWith(rPath);
  } catch {
    return false;
  }
}

/**
 * RFC 8414 §3.3 (and OpenID Connect Discovery §4.3): the metadata's issuer must be identical to the issuer identifier
 * the well-known URI was built from. An empty path and "/" are the same URI (RFC 3986 §6.2.3), so only that differs.
 */
function sameIssuer(stated: string, expected: string): boolean {
  const bare = (u: string): string => (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+\/$/i.test(u) ? u.slice(0, -1) : u);
  return bare(stated) === bare(expected);
}

export const oauthDiscovery = defineCheck({
  id: 'oauth-discovery',
  name: 'OAuth authorization server metadata',
  layer: 'access',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'RFC 8414 authorization server metadata (or OpenID Connect discovery) with issuer, authorization_endpoint and token_endpoint, found the way MCP 2025-11-25 clients look: RFC 8414 path insertion, OIDC path insertion, then OIDC path appending. Its issuer must be the issuer it was fetched for (RFC 8414 §3.3).',
  fix: 'Publish /.well-known/oauth-authorization-server with issuer, authorization_endpoint, token_endpoint and code_challenge_methods_supported.',
  evaluate(a) {
    if (!oauthExpected(a)) return undecided(signInDocs(a), 'whether anything here needs signing in') ?? outcome('not_applicable', 'Nothing here requires signing in for an agent');
    const doc = a.authorizationServer;
    const problem = unreachable(doc, 'the authorization server metadata');
    if (problem || !doc) return problem!;
    const meta = authServerMetadata(a);
    if (!meta) return outcome('failed', `No authorization server metadata (HTTP ${doc.status})`, docEvidence(doc));
    const missing = ['issuer', 'authorization_endpoint', 'token_endpoint'].filter((k) => typeof meta[k] !== 'string');
    if (missing.length > 0) return outcome('warning', `Metadata lacks ${missing.join(', ')}`, docEvidence(doc, 'body'));
    const expected = a.authorizationServerIssuer;
    if (expected && !sameIssuer(String(meta.issuer), expected)) {
      return outcome('failed', `The metadata's issuer "${String(meta.issuer)}" is not the issuer it was fetched for (${expected}); RFC 8414 §3.3 says such metadata must not be used`, docEvidence(doc, 'body'));
    }
    return outcome('passed', `Authorization server ${String(meta.issuer)}, metadata at ${doc.finalUrl ?? doc.url}`, docEvidence(doc));
  },
});

export const protectedResourceMetadata = defineCheck({
  id: 'protected-resource-metadata',
  name: 'Protected resource metadata for the MCP server',
  layer: 'access',
  tier: 'required',
  appliesTo: ALL_KINDS,
  description:
    'An MCP server that needs OAuth publishes RFC 9728 metadata naming its authorization servers, found through the 401\'s WWW-Authenticate resource_metadata pointer or at the well-known URI (MCP 2025-11-25 allows either); its resource must be this server (RFC 9728 §3.3).',
  fix: 'On 401, send WWW-Authenticate: Bearer resource_metadata="https://you/.well-known/oauth-protected-resource/mcp" and serve that JSON with resource and authorization_servers.',
  evaluate(a) {
    if (!a.mcp?.auth.required) return outcome('not_applicable', a.mcp ? 'The MCP server is public' : 'No MCP server was found');
    const doc = a.protectedResource;
    const problem = unreachable(doc, 'the protected resource metadata');
    if (problem || !doc) return problem!;
    const meta = isOk(doc) ? parseJsonObject(doc.body) : null;
    const header = a.mcp.auth.wwwAuthenticate ?? '';
    const valid = meta && typeof meta.resource === 'string' && Array.isArray(meta.authorization_servers) && meta.authorization_servers.length > 0;
    if (!valid) return outcome('failed', `No valid protected resource metadata (HTTP ${doc.status})`, { ...docEvidence(doc, 'body'), header: header ? `www-authenticate: ${header}` : undefined });
    if (!resourceMatches(String(meta!.resource), a.mcp.endpoint)) {
      return outcome('failed', `The metadata's resource "${String(meta!.resource)}" is not this server (${a.mcp.endpoint}); RFC 9728 §3.3 says such metadata must not be used`, docEvidence(doc, 'body'));
    }
    const servers = (meta!.authorization_servers as unknown[]).join(', ');
    // MCP 2025-11-25 (basic/authorization, protected resource metadata discovery): the header pointer or the well-known URI, either will do.
    if (!a.mcp.auth.resourceMetadataUrl) return outcome('passed', `Metadata at the well-known URI names ${servers} (the 401 carries no resource_metadata pointer, which is allowed)`, { ...docEvidence(doc), header: `www-authenticate: ${header || '(none)'}` });
    return outcome('passed', `401 points to metadata naming ${servers}`, { ...docEvidence(doc), header: `www-authenticate: ${header}` });
  },
});

export const pkceS256 = defineCheck({
  id: 'pkce-s256',
  name: 'PKCE with S256 is supported',
  layer: 'access',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description: 'Agents are public clients; the authorization server must advertise code_challenge_methods_supported with S256.',
  fix: 'Support PKCE and list "code_challenge_methods_supported": ["S256"] in the authorization server metadata.',
  evaluate(a) {
    const meta = authServerMetadata(a);
    if (!meta) return undecided([a.authorizationServer], 'what the authorization server supports') ?? outcome('not_applicable', 'No authorization server metadata to inspect');
    const methods = meta.code_challenge_methods_supported;
    if (Array.isArray(methods) && methods.includes('S256')) return outcome('passed', 'S256 is advertised', docEvidence(a.authorizationServer));
    return outcome('failed', `code_challenge_methods_supported is ${JSON.stringify(methods ?? null)}`, docEvidence(a.authorizationServer, 'body'));
  },
});

export const clientRegistration = defineCheck({
  id: 'client-registration',
  name: 'Agents can register as OAuth clients',
  layer: 'access',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'Client ID Metadata Documents (client_id_metadata_document_supported, draft-ietf-oauth-client-id-metadata-document; preferred by MCP 2025-11-25 and 2026-07-28 basic/authorization §Client Registration) or dynamic registration (RFC 7591 registration_endpoint) let an agent become a client without a human filing a form. MCP 2026-07-28 deprecates dynamic registration: for a server judged by that revision, registration without CIMD is a warning; servers on earlier revisions are not marked down for it.',
  fix: 'Advertise client_id_metadata_document_supported: true in the authorization server metadata (and keep a registration_endpoint for older clients if you have one).',
  evaluate(a) {
    const meta = authServerMetadata(a);
    if (!meta) return undecided([a.authorizationServer], 'what the authorization server supports') ?? outcome('not_applicable', 'No authorization server metadata to inspect');
    if (meta.client_id_metadata_document_supported === true) return outcome('passed', 'Client ID Metadata Documents are supported (client_id_metadata_document_supported: true)', docEvidence(a.authorizationServer));
    if (typeof meta.registration_endpoint === 'string') {
      const revision = a.mcp?.revisions.judgedBy;
      if (revision === MODERN_REVISION) {
        return outcome('warning', `Only dynamic registration at ${meta.registration_endpoint}: MCP ${MODERN_REVISION} deprecates it in favour of Client ID Metadata Documents`, docEvidence(a.authorizationServer));
      }
      return outcome('passed', `Dynamic registration at ${meta.registration_endpoint}${revision ? ` (the MCP server is judged by ${revision}, which predates the deprecation of dynamic registration)` : ''}`, docEvidence(a.authorizationServer));
    }
    return outcome('failed', 'Neither client_id_metadata_document_supported nor registration_endpoint is advertised', docEvidence(a.authorizationServer, 'body'));
  },
});

export const honestRateLimits = defineCheck({
  id: 'honest-429',
  name: 'Rate limits answer 429 with Retry-After',
  layer: 'access',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description: 'When the scan met a rate limit, the answer was 429 with a Retry-After header agents can honour.',
  fix: 'Send Retry-After (seconds or a date) with every 429 response.',
  evaluate(a) {
    const docs = [a.home, a.robots, a.llmsTxt, a.markdown, a.pricing, ...a.agentViews.map((v) => v.doc), ...Object.values(a.wellKnown)];
    // A WAF's challenge answered with 429 is not the site's rate limit.
    const limited = docs.filter((d) => d?.status === 429 && blockOf(d)?.kind !== 'challenge');
    if (limited.length === 0) return outcome('not_applicable', 'No request of this scan was rate limited');
    const without = limited.find((d) => !d!.headers['retry-after']);
    if (without) return outcome('failed', '429 without Retry-After', docEvidence(without));
    return outcome('passed', `429 with Retry-After: ${limited[0]!.headers['retry-after']}`, { ...docEvidence(limited[0]), header: `retry-after: ${limited[0]!.headers['retry-after']}` });
  },
});

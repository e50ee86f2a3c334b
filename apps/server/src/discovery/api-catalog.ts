// RFC 9727 /.well-known/api-catalog: an RFC 9264 linkset with one entry per API of the service (each host's
// OpenAPI document, reference page and readiness probe) and one per MCP server (its card as service-desc).
import type { HostFacts, ServiceFacts } from './service-facts';

export const LINKSET_MEDIA_TYPE = 'application/linkset+json';
// RFC 9727 §4.2 registers this profile URI for api-catalog linksets.
const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';

export function apiCatalog(facts: ServiceFacts): Record<string, unknown> {
  const api = (host: HostFacts) => ({
    anchor: `${host.base}/`,
    'service-desc': [
      { href: `${host.base}/openapi.json`, type: 'application/json', title: `${host.title} (OpenAPI 3.1, JSON)` },
      { href: `${host.base}/openapi.yaml`, type: 'application/yaml', title: `${host.title} (OpenAPI 3.1, YAML)` },
    ],
    'service-doc': [{ href: `${host.base}/docs`, type: 'text/html', title: `${host.title} API reference` }],
    status: [{ href: `${host.base}/readyz`, type: 'application/json' }],
  });
  const mcp = (host: HostFacts) => ({
    anchor: host.mcp.endpoint,
    'service-desc': [{ href: host.mcp.card, type: 'application/mcp-server-card+json', title: `${host.mcp.identity.title} MCP server card` }],
    'service-doc': [{ href: `${facts.leaderboard.base}/llms.txt`, type: 'text/markdown', title: 'The service for agents (llms.txt)' }],
  });
  return {
    linkset: [
      { anchor: `${facts.leaderboard.base}/.well-known/api-catalog`, item: [facts.leaderboard, facts.feedback].flatMap((h) => [{ href: `${h.base}/` }, { href: h.mcp.endpoint }]), profile: [{ href: API_CATALOG_PROFILE }] },
      api(facts.leaderboard),
      api(facts.feedback),
      mcp(facts.leaderboard),
      mcp(facts.feedback),
    ],
  };
}

/** The RFC 8288 Link header of the home page: where the machine-readable descriptions are. */
export function discoveryLinkHeader(facts: ServiceFacts): string {
  const base = facts.leaderboard.base;
  return [
    `<${base}/.well-known/api-catalog>; rel="api-catalog"; type="${LINKSET_MEDIA_TYPE}"`,
    `<${base}/openapi.json>; rel="service-desc"; type="application/json"`,
    `<${base}/docs>; rel="service-doc"; type="text/html"`,
    `<${base}/llms.txt>; rel="describedby"; type="text/markdown"`,
    `<${facts.leaderboard.mcp.card}>; rel="describedby"; type="application/mcp-server-card+json"`,
  ].join(', ');
}

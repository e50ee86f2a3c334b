/**
 * What changed in the check catalog, newest version first: one entry per check added or changed (ids never change),
 * each citing the source it applies. `npm run catalog` prints it under the table; test/catalog-docs.test.ts keeps the
 * README's copy and the catalog in step.
 */
export interface CatalogChange {
  check: string;
  change: 'added' | 'changed';
  summary: string;
  source: string;
}

export interface CatalogRelease {
  version: string;
  changes: CatalogChange[];
}

const MCP_2026 = 'MCP 2026-07-28';

export const CATALOG_CHANGELOG: readonly CatalogRelease[] = [
  {
    version: '2026.11.26',
    changes: [
      { check: 'mcp-initialize', change: 'changed', summary: 'Revision detection: server/discover with the 2026-07-28 headers first, then the 2025-11-25 initialize; a server is judged by the revision it claims and the evidence names it. A server listing an older revision beside 2026-07-28 whose initialize fails is a warning. Renamed "MCP handshake (server/discover or initialize)".', source: `${MCP_2026} server/discover §Response, basic/versioning; MCP 2025-11-25 basic/lifecycle` },
      { check: 'mcp-result-type', change: 'added', summary: 'Every result of a server judged by 2026-07-28 carries resultType. Not applicable to earlier revisions.', source: `${MCP_2026} server/discover §Response, basic/patterns/mrtr` },
      { check: 'mcp-cache-hints', change: 'added', summary: 'server/discover, tools/list and resources/read results carry ttlMs and cacheScope (2026-07-28 servers only).', source: `${MCP_2026} server/utilities/caching §Cacheable Results` },
      { check: 'mcp-request-headers', change: 'added', summary: 'A request whose Mcp-Method header disagrees with its body is refused with 400 (2026-07-28 servers only).', source: `${MCP_2026} basic/transports/streamable-http §Sending Messages, SEP-2243 (HeaderMismatchError -32020)` },
      { check: 'mcp-stateless', change: 'added', summary: 'No Mcp-Session-Id and no handshake needed before tools/list (2026-07-28 servers only; 2025-11-25 sessions are not judged).', source: `${MCP_2026} basic/transports/streamable-http, SEP-2575, SEP-2567` },
      { check: 'mcp-origin-check', change: 'changed', summary: 'A 2026-07-28 server is probed with server/discover carrying the foreign Origin (it has no initialize).', source: `${MCP_2026} basic/transports/streamable-http §Security` },
      { check: 'mcp-card-consistent', change: 'changed', summary: 'Reports every contradiction between the server card and the live server (version, protocol revisions, transport, tools capability), not only the name; a contradiction makes a pass a warning. Renamed "Server card agrees with the live server".', source: 'SEP-1649, SEP-2127 (MCP server cards)' },
      { check: 'client-registration', change: 'changed', summary: 'Dynamic registration without Client ID Metadata Documents is a warning for servers judged by 2026-07-28, which deprecates it; servers on earlier revisions still pass with it.', source: `${MCP_2026} basic/authorization §Client Registration; draft-ietf-oauth-client-id-metadata-document` },
      { check: 'a2a-agent-card', change: 'changed', summary: 'Judged in the A2A 1.0 shape (supportedInterfaces); leftover 0.3 fields are named with where 1.0 moved them (warning); a signature is verified when its key is embedded, and a bad one fails.', source: 'A2A 1.0 §8.2, §8.4; "What\'s new in A2A v1.0"; RFC 7515, RFC 8785' },
    ],
  },
];

export function changelogMarkdown(): string {
  const lines: string[] = [];
  for (const release of CATALOG_CHANGELOG) {
    lines.push(`Changes in ${release.version}:`, '');
    for (const c of release.changes) lines.push(`- \`${c.check}\` (${c.change}): ${c.summary} Source: ${c.source}.`);
    lines.push('');
  }
  return lines.join('\n');
}

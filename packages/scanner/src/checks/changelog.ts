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
/** Issue 19: what we could not read is never held against the site. */
const UNREAD = 'A document it needs that we could not read (a fetch error, a timeout, a WAF challenge, a bot wall or a rate limit) makes it couldnt_check with the reason, never failed or not applicable.';
const BLOCKS = 'RFC 9110 §15.5.4 (403), §15.6.4 (503), §10.2.3 (Retry-After); RFC 6585 §4 (429)';
const SAMPLE = 'Judged over the page sample (up to SCAN_MAX_PAGES pages: the sitemap, then the home page\'s links, robots.txt obeyed) as a share with the pages named; a sample under 3 pages is at most a warning.';

/** Issue 29: a site's own words count, a WAF's do not. */
const REFUSAL_SOURCE = 'RFC 9309 (robots.txt); RFC 9421, draft-ietf-webbotauth-httpsig-protocol-01 (Web Bot Auth)';
/** Issue 29: the soft-404 control probe (gather/soft-404.ts). */
const SOFT_404 = 'Each scan asks for a random path that cannot exist, the way it asked for each document it found; a document answering like it (same status, same media type, a near-identical body once the paths are removed: equal, or within 5 % of its length with at least 90 % of its words shared) is not there, and the evidence says it is a soft 404. The same holds for every document a check reads.';
const SOFT_404_SOURCE = 'RFC 9110 §15.5.5 (404 Not Found); afdocs#29 (a 200 text/markdown error page)';

/** Issue 29 item 1: shapes met in files real sites publish (test/fixtures/real-shapes/). */
const LLMS_PREAMBLE = 'A line before the H1 (a generator\'s comment line such as All in One SEO\'s or Rank Math\'s, YAML front matter, an HTML comment) no longer hides the title: the file is read as llmstxt.org\'s parser reads it (the first "# " line before the first "##" section), and the preamble makes it at most a warning that names it.';
const LLMS_PREAMBLE_SOURCE = 'llmstxt.org (the llms_txt reference parser, miniparse)';

/** Issue 29 item 4: llms.txt v2 (August 2026). */
const LLMS_V2 = 'llmstxt.org v2, August 2026 (changes.md)';

export const CATALOG_CHANGELOG: readonly CatalogRelease[] = [
  {
    version: '2026.11.28',
    changes: [
      { check: 'mcp-initialize', change: 'changed', summary: 'A website\'s MCP server may be declared by its UCP business profile (/.well-known/ucp): an MCP transport of any service, in the 2026-01-11 shape (transports as keys, {schema, endpoint}) or the 2026-04-08 shape (arrays of {version, transport, endpoint}), is followed like a server card\'s endpoint (wherever it runs; at most 3), and the server is judged by every MCP check. The evidence names the profile and the service. A declared server (a card, a catalog, a UCP profile) that nothing answers for (the connection refused, broken TLS, an address no agent can reach) fails with the document and the endpoint named, and so does every check gated on its session: the declaration leads nowhere, which is the site\'s fault; couldnt_check stays for failures on our side (a timeout, our DNS, our budget, a challenge).', source: 'Universal Commerce Protocol (ucp.dev: Discovery, the business profile at /.well-known/ucp; the MCP binding\'s Discovery section); MCP 2025-11-25 basic/lifecycle (initialization)' },
      { check: 'a2a-agent-card', change: 'changed', summary: 'Verified, not declared: the interface the card names (its first JSON-RPC one; 0.3\'s url) is asked a method that does not exist, a call that can only be refused. A JSON-RPC envelope (a live endpoint) or a 401/403 with WWW-Authenticate (sign-in required) keeps the card\'s verdict and says so; a refused connection, a 404, an HTML page or anything that is not JSON-RPC fails the card, naming the endpoint; no answer for a reason of ours (a timeout, our DNS) keeps the card\'s verdict, said unverified. An interface in a binding we do not speak (gRPC, HTTP+JSON) is not tried, and the evidence says so.', source: 'A2A 1.0 §8.2 (AgentInterface), §9 (JSON-RPC binding); JSON-RPC 2.0 §5.1 (-32601 Method not found)' },
      { check: 'openapi', change: 'changed', summary: 'Verified, not declared: the document\'s first GET operation that takes no required parameter and has no path template is asked once at its first server (servers[0].url relative to the document, variables at their defaults; Swagger 2.0\'s scheme, host and basePath). An answer (or a 401/403) keeps the document\'s verdict and says so; a refused connection, a 404 or 410, a soft 404 or an HTML page fails it, naming the operation and the URL; no answer for a reason of ours leaves the verdict, said unverified. A document with no such operation is not asked.', source: 'OpenAPI 3.1.0 §4.8.1 (OpenAPI Object: servers), §4.8.5 (Server Object); Swagger 2.0 (host, basePath, schemes); RFC 9110 §9.2.1 (safe methods)' },
      { check: 'mcp-server-card', change: 'changed', summary: 'Verified, not declared: a card passes when the server it names answers (a handshake, or an OAuth wall that asks for sign-in); a card whose endpoint refuses the connection, is unreachable or does not speak MCP there (a 404) fails, naming the card and the endpoint; one we could not reach (a timeout, our DNS) keeps its pass, said unverified.', source: 'SEP-2127 (draft), SEP-1649 (MCP server cards); MCP 2025-11-25 basic/transports' },
    ],
  },
  {
    version: '2026.11.27.2',
    changes: [
      { check: 'dns-agent-discovery', change: 'added', summary: 'A TXT record at _agent.<host> naming the agent endpoint and its protocol (AID: v=aid2; u=...; p=mcp|a2a|openapi...), looked up through the host\'s resolver for the exact host: one valid record passes, a legacy aid1 or deprecated record is a warning, an invalid or ambiguous one fails, a failed lookup is couldnt_check; an IP address or a special-use name is not applicable. Emerging: it only adds. DNS-AID\'s SVCB records under _agents are not looked up (Node\'s resolver cannot ask for SVCB).', source: 'AID v2.1 §2, draft-nemethi-dawn-aid-00; draft-mozleywilliams-dnsop-dnsaid-02' },
      { check: 'llms-txt', change: 'changed', summary: 'The llms.txt judged is the one v2 finds: the file the home page names with rel="describedby" (HTML <link> or Link header, same origin), else the most specific llms.txt at or above the scanned path (/project/llms.txt for /project/), else /llms.txt; the evidence names which. A "## Optional" section counts like any section of links: v2 took away its special meaning (we never gave it one).', source: LLMS_V2 },
      { check: 'llms-txt-linked', change: 'changed', summary: 'rel="describedby" is named as the v2 way to point to the llms.txt covering a page; the llms.txt linked to is the one v2 finds, so a site whose only llms.txt is /docs/llms.txt is judged on it.', source: `${LLMS_V2}; RFC 8288 §3` },
      { check: 'markdown-negotiation', change: 'changed', summary: 'A home page that does not negotiate markdown is asked for its markdown twin: the one it links (rel="alternate" type="text/markdown"), else page.html.md and page.md (v2 accepts both). A linked twin that serves markdown passes, a linked one that does not fails, a twin found only at those URLs is a warning. Before, a linked alternate was a warning, unread.', source: `${LLMS_V2}; RFC 9110 §12.5.1` },
      { check: 'webmcp', change: 'changed', summary: 'Tools registered on document.modelContext (the WebMCP draft since May 2026) or navigator.modelContext (the earlier draft, still accepted) are found in every spelling (optional chaining, brackets, registerTool?.()), and the evidence names the surface; the fix names document.modelContext.', source: 'WebMCP index.bs §Extensions to Document, §ModelContext Interface; webmcp#184' },
      { check: 'mcp-server-card', change: 'changed', summary: 'A card at /.well-known/mcp/server-card.json or /.well-known/mcp.json counts alike (SEP-2127 is a draft and implementers disagree), and the evidence says which was found (and when both were); no card at one while the other could not be read is couldnt_check, not failed.', source: 'SEP-2127 (draft), SEP-1649' },
    ],
  },
  {
    version: '2026.11.27',
    changes: [
      { check: 'openapi', change: 'changed', summary: 'Documents served as YAML are read like JSON ones, by content, not by extension. The first readable document is judged by a reference validator (swagger-parser: the Swagger 2.0 and OpenAPI 3.0 / 3.1 JSON Schemas and its semantic checks; a $ref outside the document is never resolved, fetched or read): a document it rejects is a warning naming the first problems, and fails when no operation can be read from it.', source: 'OpenAPI 3.0.3 and 3.1.0 §4.3 (Format: JSON or YAML); Swagger 2.0; @apidevtools/swagger-parser' },
      { check: 'a2a-agent-card', change: 'changed', summary: 'Judged by the fields its declared (or evident) protocol version requires: 1.0 (supportedInterfaces with url, protocolBinding and protocolVersion; defaultInputModes, defaultOutputModes; skills with id, name, description, tags) or 0.3 (url, protocolVersion and the same). Missing fields are a warning naming them, a card naming no endpoint fails, and a 0.3 card says whether it is complete for 0.3.', source: 'A2A 1.0 specification/a2a.proto (fields marked REQUIRED); A2A 0.3 specification/json/a2a.json (AgentCard.required)' },
      { check: 'llms-txt', change: 'changed', summary: `${SOFT_404} ${LLMS_PREAMBLE}`, source: `${SOFT_404_SOURCE}; ${LLMS_PREAMBLE_SOURCE}` },
      { check: 'llms-txt-linked', change: 'changed', summary: `${SOFT_404} A soft-404 llms.txt is no llms.txt to link to (not applicable).`, source: SOFT_404_SOURCE },
      { check: 'llms-full-txt', change: 'changed', summary: SOFT_404, source: SOFT_404_SOURCE },
      { check: 'markdown-negotiation', change: 'changed', summary: `${SOFT_404} A sampled page whose markdown answer is the soft 404 counts as a page without markdown; not judged at the home page of a site that serves its home page at every path.`, source: SOFT_404_SOURCE },
      { check: 'pricing-readable', change: 'changed', summary: `${SOFT_404} A soft-404 pricing page is no pricing page, so it does not make the site a shop.`, source: SOFT_404_SOURCE },
      { check: 'ai-agents-not-blocked', change: 'changed', summary: 'A site that refuses AI agents itself (robots.txt disallows the home page for every AI search and user-fetch agent, and every AI agent\'s request is refused, signed with Web Bot Auth or not) fails with that evidence even when a challenge hides its home page; such a scan is scored and ranked with its score held at 0 instead of ending failed. A challenge without the site\'s own refusal still ends the scan failed and unranked.', source: REFUSAL_SOURCE },
    ],
  },
  {
    version: '2026.11.26',
    changes: [
      { check: 'ai-preferences-by-agent', change: 'added', summary: 'robots.txt, Content-Usage and Content-Signal read together for training crawlers, AI search and user-triggered agents: passes when each family gets an explicit statement and no source allows what another refuses (emerging: it only adds).', source: 'RFC 9309; draft-ietf-aipref-vocab, draft-ietf-aipref-attach; draft-romm-aipref-contentsignals' },
      { check: 'mcp-initialize', change: 'changed', summary: 'Revision detection: server/discover with the 2026-07-28 headers first, then the 2025-11-25 initialize; a server is judged by the revision it claims and the evidence names it. A server listing an older revision beside 2026-07-28 whose initialize fails is a warning. Renamed "MCP handshake (server/discover or initialize)".', source: `${MCP_2026} server/discover §Response, basic/versioning; MCP 2025-11-25 basic/lifecycle` },
      { check: 'mcp-result-type', change: 'added', summary: 'Every result of a server judged by 2026-07-28 carries resultType. Not applicable to earlier revisions.', source: `${MCP_2026} server/discover §Response, basic/patterns/mrtr` },
      { check: 'mcp-cache-hints', change: 'added', summary: 'server/discover, tools/list and resources/read results carry ttlMs and cacheScope (2026-07-28 servers only).', source: `${MCP_2026} server/utilities/caching §Cacheable Results` },
      { check: 'mcp-request-headers', change: 'added', summary: 'A request whose Mcp-Method header disagrees with its body is refused with 400 (2026-07-28 servers only).', source: `${MCP_2026} basic/transports/streamable-http §Sending Messages, SEP-2243 (HeaderMismatchError -32020)` },
      { check: 'mcp-stateless', change: 'added', summary: 'No Mcp-Session-Id and no handshake needed before tools/list (2026-07-28 servers only; 2025-11-25 sessions are not judged).', source: `${MCP_2026} basic/transports/streamable-http, SEP-2575, SEP-2567` },
      { check: 'mcp-origin-check', change: 'changed', summary: 'A 2026-07-28 server is probed with server/discover carrying the foreign Origin (it has no initialize).', source: `${MCP_2026} basic/transports/streamable-http §Security` },
      { check: 'mcp-card-consistent', change: 'changed', summary: 'Reports every contradiction between the server card and the live server (version, protocol revisions, transport, tools capability), not only the name; a contradiction makes a pass a warning. Renamed "Server card agrees with the live server". A card or session we could not read makes it couldnt_check, not not-applicable.', source: 'SEP-1649, SEP-2127 (MCP server cards)' },
      { check: 'client-registration', change: 'changed', summary: 'Dynamic registration without Client ID Metadata Documents is a warning for servers judged by 2026-07-28, which deprecates it; servers on earlier revisions still pass with it. Authorization-server metadata we could not read makes it couldnt_check, not not-applicable.', source: `${MCP_2026} basic/authorization §Client Registration; draft-ietf-oauth-client-id-metadata-document` },
      { check: 'content-without-js', change: 'changed', summary: SAMPLE, source: 'RFC 9309 (robots.txt); sitemaps.org protocol' },
      { check: 'page-metadata', change: 'changed', summary: SAMPLE, source: 'RFC 9309 (robots.txt); sitemaps.org protocol; HTML Living Standard §4.2.2 (title), §4.2.5.1 (meta description)' },
      { check: 'markdown-negotiation', change: 'changed', summary: `${SAMPLE} Replaces the sample of 3 sitemap pages.`, source: 'RFC 9110 §12.5.1 (Accept), §12.5.5 (Vary)' },
      { check: 'webmcp', change: 'changed', summary: 'Passes when any sampled page declares WebMCP tools (a search or checkout page, not only the home page); the evidence gives the share.', source: 'WebMCP (W3C Web Machine Learning CG draft)' },
      { check: 'no-bot-challenge', change: 'changed', summary: 'Recognises AWS WAF, Imperva, Akamai and Vercel challenges besides Cloudflare, DataDome and PerimeterX/HUMAN; says when a site challenges an unsigned request but lets our Web Bot Auth signed one through.', source: 'RFC 9421; draft-ietf-webbotauth-httpsig-protocol-01' },
      { check: 'ai-agents-not-blocked', change: 'changed', summary: 'A rate limit met by an agent view (429, or 503 with Retry-After) is load, not a policy against agents: that view is left out, couldnt_check if none is left.', source: BLOCKS },
      { check: 'honest-429', change: 'changed', summary: 'A WAF challenge answered with 429 (x-vercel-mitigated, cf-mitigated) is not the site\'s rate limit and is not judged.', source: BLOCKS },
      { check: 'sitemap', change: 'changed', summary: UNREAD, source: BLOCKS },
      { check: 'openapi', change: 'changed', summary: UNREAD, source: BLOCKS },
      { check: 'llms-txt-linked', change: 'changed', summary: UNREAD, source: BLOCKS },
      { check: 'api-catalog', change: 'changed', summary: `${UNREAD} Also when whether the site is a product rests on such a document.`, source: BLOCKS },
      { check: 'ard-manifest', change: 'changed', summary: `${UNREAD} Also when whether the site is a product rests on such a document.`, source: BLOCKS },
      { check: 'docs-links', change: 'changed', summary: `${UNREAD} Also when whether the site is a product rests on such a document.`, source: BLOCKS },
      { check: 'pricing-readable', change: 'changed', summary: `${UNREAD} Also when whether the site sells anything rests on such a document.`, source: BLOCKS },
      ...(['payments-x402', 'payments-http-auth', 'payments-acp', 'payments-ucp', 'payments-ap2'] as const).map((check) => ({
        check,
        change: 'changed' as const,
        summary: `${UNREAD} Also when a payment discovery document could not be read: it may hold this very protocol.`,
        source: BLOCKS,
      })),
      { check: 'oauth-discovery', change: 'changed', summary: `${UNREAD} Also when whether anything needs signing in rests on such a document.`, source: BLOCKS },
      { check: 'pkce-s256', change: 'changed', summary: UNREAD, source: BLOCKS },
      { check: 'mcp-tools-list', change: 'changed', summary: `${UNREAD} A website whose MCP discovery documents could not be read is not said to have no MCP server; a WAF in front of an MCP endpoint is "could not reach", not a broken handshake (the same for every check gated on the MCP session).`, source: BLOCKS },
      { check: 'mcp-apps-csp', change: 'changed', summary: UNREAD, source: BLOCKS },
      { check: 'a2a-agent-card', change: 'changed', summary: 'Judged in the A2A 1.0 shape (supportedInterfaces); leftover 0.3 fields are named with where 1.0 moved them (warning); a signature is verified with its embedded key (jwk) or the JWK Set its jku names (by kid), and a bad one fails; a key that cannot be obtained is reported, not failed. Without a well-known card, an agent card the AI Catalog lists (url or embedded data) is judged.', source: 'A2A 1.0 §8.2, §8.4; "What\'s new in A2A v1.0"; RFC 7515, RFC 8785; AI Catalog §Catalog Entry (application/a2a-agent-card+json)' },
      { check: 'mcp-server-card', change: 'changed', summary: 'Server cards an AI Catalog lists (type application/mcp-server-card+json, url or embedded data, at most 3) count as the site\'s server card, and lead to its MCP server when no card of the site\'s own declares one. A document it needs that we could not read makes it couldnt_check, also when whether the site is a product rests on one.', source: 'AI Catalog §Catalog Entry; MCP server-card extension, Discovery §AI Catalog (SEP-2127)' },
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

/**
 * What each check applies, by id: the standard and its section, or, for a rule of our own, the reason we hold it.
 * defineCheck() attaches the entry to its check (CheckDefinition.source); `npm run catalog`, the scanner README and
 * the methodology endpoint print it; test/catalog-docs.test.ts fails for a catalog check without one. Kept in one
 * place so a reviewer reads every citation together. Drafts are named by their draft name; "our own rule" says why.
 */
const MCP_2025 = 'MCP 2025-11-25';
const MCP_2026 = 'MCP 2026-07-28';
const BLOCK_STATUSES = 'RFC 9110 §15.5.4 (403), §15.6.4 (503), §10.2.3 (Retry-After); RFC 6585 §4 (429)';

export const CHECK_SOURCES: Readonly<Record<string, string>> = Object.freeze({
  // Discovery
  'robots-txt': 'RFC 9309 (Robots Exclusion Protocol) §2.2 (syntax), §2.3 (access method: /robots.txt), §2.3.1 (4xx: allow all; 5xx: disallow all)',
  sitemap: 'sitemaps.org protocol 0.9 (XML format, sitemap index); RFC 9309 §2.2.4 (Sitemap records in robots.txt)',
  'llms-txt':
    'llmstxt.org v2, August 2026 (changes.md: §Format of the file; a file covers the pages under its path and the most specific one applies; rel="describedby" names it); the llms_txt reference parser (miniparse) for what counts as the title',
  'llms-txt-linked': 'llmstxt.org v2, August 2026 (rel="describedby" as an HTML <link> or an HTTP Link header points to the llms.txt covering a page); RFC 8288 §3 (Link header field)',
  'llms-full-txt':
    'Our own rule (a bonus): llms-full.txt is a convention of llms.txt generators (Mintlify, VitePress, Fumadocs and nbdev publish one; llmstxt.org names the expanded llms-ctx-full.txt), not part of the llms.txt format',
  'link-headers': 'RFC 8288 §3 (Link header field); RFC 9727 §3 (api-catalog relation); RFC 8631 §4 (service-desc, service-doc); describedby (W3C POWDER, IANA link relations)',
  'api-catalog': 'RFC 9727 (the api-catalog well-known URI and link relation); RFC 9264 (linkset, application/linkset+json)',
  openapi: 'OpenAPI 3.1.0 and 3.0.3 §4 (format: JSON or YAML), Swagger 2.0; RFC 8631 §4 (service-desc); judged by @apidevtools/swagger-parser',
  'mcp-server-card':
    'MCP server cards: SEP-2127 (draft extension, experimental-ext-server-card: <endpoint>/server-card, /.well-known/mcp/catalog.json) and SEP-1649 (/.well-known/mcp.json); /.well-known/mcp/server-card.json as servers publish it (xmcp, the MCP Registry server.json shape). Implementers disagree on the location, so any of them counts; AI Catalog §Catalog Entry (application/mcp-server-card+json)',
  'mcp-card-consistent': `SEP-1649, SEP-2127 (a card describes its live server); ${MCP_2025} basic/lifecycle §Initialization (serverInfo); ${MCP_2026} server/discover §Response`,
  'a2a-agent-card':
    'A2A 1.0 §8.2 (Agent Card), §8.4 (signatures: RFC 7515 JWS over an RFC 8785 JCS canonical card); specification/a2a.proto (fields marked REQUIRED); A2A 0.3 specification/json/a2a.json (AgentCard.required)',
  'agent-skills': 'Agent Skills Discovery RFC v0.2 (cloudflare/agent-skills-discovery-rfc: /.well-known/agent-skills/index.json); Agent Skills SKILL.md format; RFC 8615 (well-known URIs)',
  'ard-manifest': 'Agentic Resource Discovery, AI Catalog draft (Linux Foundation AI Catalog working group): /.well-known/ai-catalog.json, rel="ai-catalog", robots.txt Agentmap; §Catalog Entry',
  'dns-agent-discovery':
    'Agent Identity and Discovery (AID) v2.1 §2 (TXT record at _agent.<host>: v, u, p; §2.3 discovery algorithm, exact host, one valid record), draft-nemethi-dawn-aid-00; draft-mozleywilliams-dnsop-dnsaid-02 (DNS-AID) for the _agents namespace, whose SVCB records are not looked up (see the check)',
  'json-ld': 'schema.org vocabulary; JSON-LD 1.1 (W3C Recommendation); HTML Living Standard §4.12.1.2 (data blocks: script type="application/ld+json")',
  'page-metadata': 'HTML Living Standard §4.2.2 (title), §4.2.5.1 (meta name="description"); sampled per sitemaps.org and RFC 9309',
  // Access
  'ai-search-bots-allowed':
    'RFC 9309 §2.2.1 (user-agent product tokens), §2.2.2 (allow and disallow); the agents\' published tokens (OpenAI, Anthropic, Perplexity). Our own rule: search and user-triggered fetchers act for a person now and are judged apart from training crawlers',
  'ai-training-bot-policy':
    'RFC 9309 §2.2.1; draft-romm-aipref-contentsignals (ai-train). Our own rule: allowing or refusing training is the owner\'s choice; only whether the choice is stated (by name or by signal) is judged',
  'content-signals': 'draft-romm-aipref-contentsignals (Content-Signal in robots.txt: search, ai-input, ai-train); contentsignals.org',
  'content-usage': 'draft-ietf-aipref-vocab (usage categories: train-ai, train-genai, search, ai-use); draft-ietf-aipref-attach (Content-Usage in robots.txt and as an HTTP header field)',
  'ai-preferences-by-agent': 'RFC 9309; draft-ietf-aipref-vocab, draft-ietf-aipref-attach; draft-romm-aipref-contentsignals',
  'ai-agents-not-blocked':
    `Our own rule: an agent fetching for a person should get the page a browser gets. ${BLOCK_STATUSES}; a site's own refusal: RFC 9309 and Web Bot Auth (RFC 9421, draft-ietf-webbotauth-httpsig-protocol-01)`,
  'no-bot-challenge':
    'Our own rule: an agent cannot solve an interstitial challenge, so one stops it; vendor markers (cf-mitigated, Cloudflare, DataDome, PerimeterX/HUMAN, AWS WAF, Imperva, Akamai, Vercel). Signed agents: RFC 9421, draft-ietf-webbotauth-httpsig-protocol-01',
  'content-without-js': 'Our own rule: most AI agents and fetch tools read the HTML as served, without running scripts; the page sample follows sitemaps.org and RFC 9309',
  'public-home-page': 'RFC 9110 §15.5.2 (401), §15.5.4 (403). Our own rule: a home page behind sign-in tells an agent nothing about the product',
  'oauth-discovery':
    `RFC 8414 §3 (metadata location, path insertion), §3.3 (the issuer must be identical); OpenID Connect Discovery 1.0 §4, §4.3; ${MCP_2025} basic/authorization §Authorization Server Metadata Discovery`,
  'protected-resource-metadata': `RFC 9728 §3 (well-known URI), §3.3 (the resource must be this server), §5.1 (WWW-Authenticate resource_metadata); ${MCP_2025} basic/authorization §Authorization Server Location`,
  'pkce-s256': `RFC 7636 §4.2 (S256); RFC 8414 §2 (code_challenge_methods_supported); ${MCP_2025} basic/authorization §Authorization Code Protection`,
  'client-registration': `draft-ietf-oauth-client-id-metadata-document; RFC 7591 (dynamic client registration); ${MCP_2025} and ${MCP_2026} basic/authorization §Client Registration`,
  'honest-404': 'RFC 9110 §15.5.5 (404 Not Found), §15.5.11 (410 Gone); a soft 404 is judged against a control path that cannot exist',
  'honest-429': 'RFC 6585 §4 (429 Too Many Requests); RFC 9110 §10.2.3 (Retry-After)',
  // Usability
  'markdown-negotiation':
    'RFC 9110 §12.5.1 (Accept), §12.5.5 (Vary); RFC 7763 (text/markdown); llmstxt.org v2, August 2026 (markdown twins at page.html.md or page.md, linked with rel="alternate" type="text/markdown")',
  'mcp-initialize': `${MCP_2026} server/discover §Response, basic/versioning; ${MCP_2025} basic/lifecycle §Initialization, basic/transports (Streamable HTTP; HTTP+SSE from 2024-11-05)`,
  'mcp-tools-list': `${MCP_2025} server/tools §Listing Tools, basic/utilities/pagination`,
  'mcp-tool-schemas': `${MCP_2025} basic §JSON Schema Usage (SEP-1613: 2020-12 by default), server/tools §Tool (inputSchema, outputSchema); the JSON Schema meta-schemas (2020-12, 2019-09, draft-07, draft-06)`,
  'mcp-tool-descriptions': `${MCP_2025} server/tools §Tool (description). Our own rule for the length bounds: a name-only or one-word description gives a model nothing to choose by, and a very long one crowds its context`,
  'mcp-tool-annotations': `${MCP_2025} server/tools §Tool Annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint)`,
  'mcp-tool-names': `${MCP_2025} server/tools §Tool Names (1-128 characters of A-Za-z0-9_-., unique)`,
  'mcp-safety-lint':
    `Our own rule, after ${MCP_2025} server/tools §Security Considerations and the tool-poisoning attacks reported against MCP clients; Unicode Technical Report #36 (invisible and bidirectional characters)`,
  'mcp-origin-check': `${MCP_2025} basic/transports §Security Warning (2.0.1: validate Origin, answer 403); ${MCP_2026} basic/transports/streamable-http §Security; the 2024-11-05 HTTP+SSE transport`,
  'mcp-result-type': `${MCP_2026} server/discover §Response, basic/patterns/mrtr`,
  'mcp-cache-hints': `${MCP_2026} server/utilities/caching §Cacheable Results`,
  'mcp-request-headers': `${MCP_2026} basic/transports/streamable-http §Sending Messages, SEP-2243 (HeaderMismatchError -32020)`,
  'mcp-stateless': `${MCP_2026} basic/transports/streamable-http, SEP-2575, SEP-2567`,
  'mcp-output-schema': `${MCP_2025} server/tools §Output Schema, §Structured Content`,
  'mcp-apps-ui-resource': 'MCP Apps (SEP-1865, modelcontextprotocol/ext-apps): _meta.ui.resourceUri, ui:// resources served as text/html;profile=mcp-app',
  'mcp-apps-csp': 'MCP Apps (SEP-1865, modelcontextprotocol/ext-apps): _meta.ui.csp (connectDomains, resourceDomains)',
  'pricing-readable': 'schema.org Offer and AggregateOffer (price, priceCurrency). Our own rule: prices an agent can read without parsing prose',
  'docs-links': 'Our own rule: an agent starting at the home page should reach documentation or an API reference in one hop',
  webmcp:
    'WebMCP (W3C Web Machine Learning CG draft, webmachinelearning/webmcp index.bs): §Extensions to Document (document.modelContext), §ModelContext Interface (registerTool), §Declarative WebMCP (toolname, tooldescription); navigator.modelContext from the draft before May 2026 (webmcp#184 moved it to Document) and its polyfills',
  // Payments
  'payments-x402': 'x402 v2 (Transport: HTTP, the PAYMENT-REQUIRED header); x402 v1 §5.1 (402 body with x402Version and accepts); RFC 9110 §15.5.3 (402 Payment Required)',
  'payments-http-auth': 'draft-ryan-httpauth-payment (the Payment HTTP authentication scheme, Machine Payments Protocol); draft-payment-discovery (x-payment-info); RFC 9110 §11.6.1 (WWW-Authenticate)',
  'payments-acp': 'Agentic Commerce Protocol (agentic-commerce-protocol specification: discovery document and checkout sessions)',
  'payments-ucp': 'Universal Commerce Protocol (ucp.dev: the business profile at /.well-known/ucp)',
  'payments-ap2': 'Agent Payments Protocol (AP2): the A2A extension an agent card declares in capabilities.extensions; A2A 1.0 §8.2',
});

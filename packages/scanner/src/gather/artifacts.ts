import type { OpenApiProbe } from './openapi-endpoint';
import type { A2aEndpointProbe } from './a2a-endpoint';
import type { GuardedFetchErrorCode } from '../fetch/errors';
import type { BlockSignal } from './block-signals';
import type { OpenApiValidation } from './openapi-validation';
import type { SampledPage } from './page-sample';
import type { HtmlSummary } from '../util/html-summary';
import type { TargetKind } from '../types';

/** One fetched piece of evidence. A failed fetch is data (status null + error), never an exception. */
export interface FetchedDoc {
  url: string;
  finalUrl: string | null;
  status: number | null;
  headers: Record<string, string>;
  contentType: string | null;
  body: string;
  error: { code: string; message: string } | null;
  /** Set when the answer is a challenge, a bot wall or a rate limit rather than the document (see block-signals.ts). */
  block?: BlockSignal | null;
  /** Set when the site answers this path as it answers a path that cannot exist (a soft 404, see soft-404.ts): why, in words. */
  softNotFound?: string | null;
  /** What we sent for it (set by DocFetcher): the headers that matter, never a signature, cookie or credential. */
  request?: SentRequest;
}

/** The request a document answered, as the evidence shows it (checks/exchange.ts). */
export interface SentRequest {
  method: string;
  url: string;
  accept: string;
  userAgent: string;
  /** Carried a Web Bot Auth signature (RFC 9421); the signature itself is never recorded. */
  signed: boolean;
}

/** An llms.txt that could cover the target (llms.txt v2): named by rel="describedby", at or above the target's path, or the root one. */
export interface LlmsTxtCandidate {
  doc: FetchedDoc;
  via: 'describedby' | 'path' | 'root';
}

/** The home page's markdown twin (llms.txt v2: page.html.md or page.md), looked for when it does not negotiate markdown. */
export interface MarkdownTwin {
  /** The first candidate that answered 200, null when none did. */
  doc: FetchedDoc | null;
  /** Linked with rel="alternate" type="text/markdown", or found at one of the URL forms v2 accepts. */
  via: 'alternate' | 'url-form';
  tried: FetchedDoc[];
}

/** The DNS TXT lookup for agent discovery at _agent.<host> (AID; see gather/dns-agent-record.ts). */
export interface AgentDnsLookup {
  /** The name asked, e.g. _agent.example.com. */
  name: string;
  /** TXT records, each one's character strings joined (AID v2.1 §2.1); null when the lookup was not made or failed. */
  records: string[] | null;
  /** No such name or no TXT at it (NXDOMAIN, NODATA). */
  absent: boolean;
  /** The lookup failed on our side or the resolver's (timeout, SERVFAIL, refused). */
  error: string | null;
  /** Why it was not looked up at all (an IP address, a special-use name, no resolver for TXT). */
  skipped: string | null;
}

export type AgentFamily = 'training' | 'search' | 'user';

export interface AgentView {
  agent: string;
  family: AgentFamily;
  doc: FetchedDoc;
}

export type WellKnownName =
  | 'apiCatalog'
  | 'mcpServerCard'
  | 'mcpJson'
  | 'agentCard'
  | 'agentSkills'
  | 'oauthAuthorizationServer'
  | 'openidConfiguration'
  | 'oauthProtectedResource'
  | 'acp'
  | 'ucp'
  | 'x402';

/** An AI Catalog (the ARD manifest) and how it was found: a rel="ai-catalog" link, an Agentmap line or the well-known URI. */
export interface ArdSource {
  doc: FetchedDoc;
  via: 'link' | 'agentmap' | 'well-known';
}

/** An artifact an AI Catalog entry points to (url) or carries (data), with the entry's identifier. */
export interface CatalogArtifact {
  identifier: string;
  doc: FetchedDoc;
}

export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface McpUiResource {
  uri: string;
  ok: boolean;
  mimeType: string | null;
  text: string | null;
  meta: Record<string, unknown> | null;
  error: string | null;
}

/** Where a website's MCP server was announced, in words for evidence, and the document that announced it. */
export interface McpDiscovery {
  via: string;
  url: string | null;
}

/** What the endpoint answered to an initialize carrying a foreign Origin (MCP 2025-11-25 transports §2.0.1). */
export interface McpOriginCheck {
  origin: string;
  status: number | null;
  error: string | null;
}

/** The caching and result-type fields of one 2026-07-28 result (server/utilities/caching; every result carries resultType). */
export interface McpResultHints {
  method: string;
  resultType: unknown;
  ttlMs: unknown;
  cacheScope: unknown;
}

/** What a server speaking MCP 2026-07-28 showed over a stateless exchange (see gather/mcp-modern.ts). */
export interface McpModern {
  supportedVersions: string[];
  /** server/discover, each tools/list page, each resources/read, in order. */
  results: McpResultHints[];
  /** Mcp-Session-Id values the server handed out anyway (2026-07-28 removed protocol-level sessions, SEP-2567). */
  sessionIds: string[];
  /** A tools/list whose Mcp-Method header said server/discover: the server MUST reject it with 400 (SEP-2243). */
  headerMismatch: { status: number | null; errorCode: number | null; answered: boolean; fetchFailure: boolean };
}

/** Which MCP revisions the endpoint was seen to speak, and how each was asked. */
export interface McpRevisions {
  /** The revision the checks judge the server by: 2026-07-28 when server/discover lists it, else initialize's. */
  judgedBy: string | null;
  /** server/discover with the 2026-07-28 headers: HTTP status and the versions it listed (null: no usable answer). */
  discover: { status: number | null; supportedVersions: string[] | null };
  /** The 2025-11-25 initialize (official SDK client): null when it was not tried. */
  legacy: { ok: boolean; protocolVersion: string | null; error: string | null } | null;
}

export interface McpArtifact {
  endpoint: string;
  source: 'target' | 'server-card' | 'catalog' | 'ucp' | 'api-catalog' | 'link-header' | 'llms-txt' | 'conventional-path';
  discovery: McpDiscovery;
  transport: 'streamable-http' | 'sse' | null;
  /** The server demanded OAuth before answering. */
  auth: { required: boolean; status: number | null; wwwAuthenticate: string | null; resourceMetadataUrl: string | null };
  initialize: {
    ok: boolean;
    protocolVersion: string | null;
    serverInfo: { name: string; version?: string; title?: string } | null;
    capabilities: Record<string, unknown> | null;
    instructions: string | null;
    error: string | null;
    /** True when no answer came (a timeout, DNS, a refused connection...): see fetchErrorCode for whose fault. */
    fetchFailure: boolean;
    /** The guarded fetch's code for that failure (checks/declared-endpoint.ts tells the site's faults from ours). */
    fetchErrorCode: GuardedFetchErrorCode | null;
    /** The endpoint answered initialize with JSON-RPC (or an event stream): an MCP server, even if the handshake failed. */
    spokeJsonRpc: boolean;
  };
  tools: { ok: boolean; items: McpTool[]; error: string | null } | null;
  uiResources: McpUiResource[];
  /** For sessions that initialized (Streamable HTTP: an initialize POST; HTTP+SSE: the stream GET); null otherwise. */
  originCheck: McpOriginCheck | null;
  revisions: McpRevisions;
  /** Set when the server speaks 2026-07-28 and was judged by it. */
  modern: McpModern | null;
}

export interface Artifacts {
  kind: TargetKind;
  targetUrl: string;
  origin: string;
  /** The target fetched as a browser would. */
  home: FetchedDoc | null;
  homeHtml: HtmlSummary | null;
  agentViews: AgentView[];
  /** With Web Bot Auth on: the home page as our User-Agent gets it signed and unsigned, to tell which one a site challenges. */
  signing?: { signed: FetchedDoc; unsigned: FetchedDoc } | null;
  markdown: FetchedDoc | null;
  /** The sampled pages (page-sample.ts) asked for markdown too, so the verdict is a share. */
  markdownSamples: FetchedDoc[];
  /**
   * Pages sampled besides the home page, up to SCAN_MAX_PAGES in all (sitemap first, then the home page's links,
   * robots.txt obeyed). Undefined when no sample was taken (evidence assembled by hand): checks judge the home page.
   */
  pages?: SampledPage[];
  robots: FetchedDoc | null;
  sitemaps: FetchedDoc[];
  llmsTxt: FetchedDoc | null;
  /** llms.txt v2: the files that could cover the target, most weighty first (gather/llms-txt-v2.ts); undefined when only /llms.txt was read. */
  llmsTxtCandidates?: LlmsTxtCandidate[];
  llmsFullTxt: FetchedDoc | null;
  /** Undefined when not looked for (evidence assembled by hand, or the home page negotiates markdown). */
  markdownTwin?: MarkdownTwin | null;
  /** Undefined when no lookup was attempted (evidence assembled by hand). */
  agentDns?: AgentDnsLookup | null;
  wellKnown: Partial<Record<WellKnownName, FetchedDoc>>;
  openapi: FetchedDoc[];
  /**
   * The reference validator's verdict on the first readable OpenAPI document (gather/openapi-validation.ts). Undefined
   * or empty when none was run (evidence assembled by hand): the document is then judged on its shape alone.
   */
  openapiValidation?: OpenApiValidation[];
  notFoundProbe: FetchedDoc | null;
  pricing: FetchedDoc | null;
  pricingHtml: HtmlSummary | null;
  paymentProbe: FetchedDoc | null;
  /** Resources the site links to (its x402 discovery document, API links, OpenAPI paid paths) probed for a 402, bounded. */
  linkedPaymentProbes: FetchedDoc[];
  /** Same-origin scripts of the home page read for WebMCP registrations, bounded in number and size. */
  scripts: FetchedDoc[];
  /** The ARD manifest found, if any, and every location tried on the way. */
  ard: ArdSource | null;
  ardTried: FetchedDoc[];
  /** A2A agent cards the AI Catalog lists (followed into a2a-agent-card when the well-known card is missing). */
  aiCatalogAgentCards: CatalogArtifact[];
  /** The JWK Set a signed agent card names by jku (A2A 1.0 §8.4), when it names one. */
  agentCardKeys: FetchedDoc | null;
  /** What the judged agent card's interface answered to a method that does not exist (gather/a2a-endpoint.ts). */
  a2aEndpoint: A2aEndpointProbe | null;
  /** What the OpenAPI document's first parameterless GET operation answered (gather/openapi-endpoint.ts). */
  openapiOperation: OpenApiProbe | null;
  mcp: McpArtifact | null;
  /** Server cards found elsewhere than the well-known ones: entries of /.well-known/mcp/catalog.json, <endpoint>/server-card (SEP-2127). */
  mcpExtraCards: FetchedDoc[];
  /** Protected-resource metadata named by the MCP server's 401, when there was one. */
  protectedResource: FetchedDoc | null;
  /** Authorization-server metadata found from the protected-resource metadata, or at the origin. */
  authorizationServer: FetchedDoc | null;
  /** The issuer identifier that metadata was looked up for (RFC 8414 §3.3: its issuer must be identical). */
  authorizationServerIssuer: string | null;
}

export function emptyArtifacts(kind: TargetKind, targetUrl: string): Artifacts {
  return {
    kind,
    targetUrl,
    origin: new URL(targetUrl).origin,
    home: null,
    homeHtml: null,
    agentViews: [],
    markdown: null,
    markdownSamples: [],
    robots: null,
    sitemaps: [],
    llmsTxt: null,
    llmsFullTxt: null,
    wellKnown: {},
    openapi: [],
    openapiValidation: [],
    notFoundProbe: null,
    pricing: null,
    pricingHtml: null,
    paymentProbe: null,
    linkedPaymentProbes: [],
    scripts: [],
    ard: null,
    ardTried: [],
    aiCatalogAgentCards: [],
    agentCardKeys: null,
    a2aEndpoint: null,
    openapiOperation: null,
    mcp: null,
    mcpExtraCards: [],
    protectedResource: null,
    authorizationServer: null,
    authorizationServerIssuer: null,
  };
}

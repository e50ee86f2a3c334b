import { summarizeHtml } from '../util/html-summary';
import { parseJson } from '../util/json';
import type { GuardedFetch } from '../fetch/guarded-fetch';
import type { TxtLookup } from '../fetch/dns-txt';
import { lookupAgentRecord } from './dns-agent-record';
import { fetchLlmsTxtCandidates, fetchMarkdownTwin, servesMarkdown } from './llms-txt-v2';
import type { Artifacts, FetchedDoc, McpArtifact, WellKnownName } from './artifacts';
import type { DocFetcher } from './doc-fetcher';
import { gatherArd } from './ard';
import { fetchAgentCardKeys, judgedAgentCard } from './agent-card';
import { probeA2aEndpoint } from './a2a-endpoint';
import { probeOpenApiOperation } from './openapi-endpoint';
import { MARKDOWN_ACCEPT } from './markdown-samples';
import { fetchPageScripts, probeLinkedPayments, WELL_KNOWN_X402 } from './linked-resources';
import { isDeclaredSource, mcpCandidates, withAiCatalogCards, type McpCandidate } from './mcp-discovery';
import { A2A_AGENT_CARD_TYPES, followCatalogEntries, MCP_SERVER_CARD_TYPE } from './ai-catalog-entries';
import { gatherMcpSession } from './mcp-session';
import { fetchOpenApi, paymentProbeUrl, validateFetchedOpenApi } from './openapi';
import { DEFAULT_MAX_PAGES, pageCandidates, samplePages } from './page-sample';
import { fetchScannerView, markScannerRefusals, scannerViewDifference } from './ua-comparison';

export { mcpEndpointFromCard } from './mcp-discovery';
import { AGENT_VIEWS, agentUserAgent, HTML_ACCEPT, ROBOTS_ACCEPT } from './user-agents';

export interface GatherContext {
  fetcher: DocFetcher;
  fetch: GuardedFetch;
  signal: AbortSignal;
  requestTimeoutMs: number;
  userAgent: string;
  /** Requests carry a Web Bot Auth signature (fetch policy `signer`). */
  signed?: boolean;
  /** Pages sampled at most, the home page included (SCAN_MAX_PAGES). */
  maxPages?: number;
  /** DNS TXT lookups through the fetch policy (fetch/dns-txt.ts); undefined looks nothing up. */
  txt?: TxtLookup;
}

const WELL_KNOWN_PATHS: Record<WellKnownName, string> = {
  apiCatalog: '/.well-known/api-catalog',
  mcpServerCard: '/.well-known/mcp/server-card.json',
  mcpJson: '/.well-known/mcp.json',
  agentCard: '/.well-known/agent-card.json',
  agentSkills: '/.well-known/agent-skills/index.json',
  oauthAuthorizationServer: '/.well-known/oauth-authorization-server',
  openidConfiguration: '/.well-known/openid-configuration',
  oauthProtectedResource: '/.well-known/oauth-protected-resource',
  acp: '/.well-known/acp.json',
  ucp: '/.well-known/ucp',
  x402: WELL_KNOWN_X402,
};

const MCP_WELL_KNOWNS: WellKnownName[] = ['mcpServerCard', 'mcpJson', 'oauthAuthorizationServer', 'openidConfiguration', 'oauthProtectedResource'];

/** Every lane runs at once; lanes only wait on what they truly depend on (robots before its sitemaps, OpenAPI before the 402 probe). */
export async function gatherWebsite(ctx: GatherContext, a: Artifacts): Promise<void> {
  const { fetcher, userAgent } = ctx;
  const target = a.targetUrl;
  const at = (path: string): string => new URL(path, a.origin).href;
  const robotsLane = (async () => {
    a.robots = await fetcher.get(at('/robots.txt'), { headers: { accept: ROBOTS_ACCEPT } });
  })();
  // ARD follows robots.txt (its Agentmap line); the AI Catalog's agent cards and server cards are followed into the
  // a2a-agent-card and MCP checks.
  const ardLane = (async () => {
    await robotsLane;
    await gatherArd(fetcher, a);
    a.aiCatalogAgentCards = await followCatalogEntries(fetcher, a, A2A_AGENT_CARD_TYPES);
  })();
  const wellKnownLane = gatherWellKnowns(ctx, a, Object.keys(WELL_KNOWN_PATHS) as WellKnownName[]);
  let scannerView: FetchedDoc | null = null;
  await Promise.all([
    robotsLane,
    ardLane,
    (async () => {
      await robotsLane;
      // Sitemap lines of robots.txt, then the page sample (robots.txt obeyed), each page asked for markdown too.
      const named = sitemapLines(a.robots).slice(0, 2);
      const candidates = [...new Set([...named, at('/sitemap.xml')])];
      a.sitemaps = await Promise.all(candidates.map((u) => fetcher.get(u, { headers: { accept: 'application/xml,text/xml,*/*;q=0.5' } })));
      const urls = pageCandidates(a, (ctx.maxPages ?? DEFAULT_MAX_PAGES) - 1, userAgent);
      const sample = await samplePages(fetcher, urls, userAgent);
      a.pages = sample.map((s) => s.page);
      a.markdownSamples = sample.map((s) => s.markdown);
    })(),
    (async () => {
      scannerView = await fetchScannerView(fetcher, a);
    })(),
    (async () => {
      if (ctx.signed) a.signing = { signed: await fetchScannerView(fetcher, a), unsigned: await fetchScannerView(fetcher, a, { unsigned: true }) };
    })(),
    fetcher.get(at('/sitemap.xml'), { headers: { accept: 'application/xml,text/xml,*/*;q=0.5' } }),
    // llms.txt v2: the file the home page names with rel="describedby", the most specific one above the target, /llms.txt.
    fetchLlmsTxtCandidates(fetcher, a),
    (async () => {
      a.agentDns = await lookupAgentRecord(ctx.txt, a.targetUrl);
    })(),
    (async () => {
      a.llmsFullTxt = await fetcher.get(at('/llms-full.txt'), { headers: { accept: 'text/markdown,text/plain,*/*;q=0.5' } });
    })(),
    (async () => {
      a.agentViews = await Promise.all(
        AGENT_VIEWS.map(async (view) => ({ ...view, doc: await fetcher.get(target, { headers: { 'user-agent': agentUserAgent(userAgent, view.agent), accept: HTML_ACCEPT } }) })),
      );
    })(),
    (async () => {
      a.markdown = await fetcher.get(target, { headers: { accept: MARKDOWN_ACCEPT } });
      // No markdown for the asking: the markdown twin it links, or at page.html.md / page.md (llms.txt v2).
      if (!servesMarkdown(a.markdown)) await fetchMarkdownTwin(fetcher, a, MARKDOWN_ACCEPT);
    })(),
    wellKnownLane,
    (async () => {
      await Promise.all([wellKnownLane, ardLane]);
      [a.agentCardKeys, a.a2aEndpoint] = await Promise.all([fetchAgentCardKeys(fetcher, a), probeA2aEndpoint(ctx.fetch, judgedAgentCard(a).doc, ctx.signal)]);
    })(),
    (async () => {
      await fetchOpenApi(fetcher, a);
      const validation = validateFetchedOpenApi(a);
      const probe = paymentProbeUrl(a.openapi, a.origin);
      const [payment, operation] = await Promise.all([
        probe ? fetcher.get(probe, { headers: { accept: 'application/json' } }) : Promise.resolve(null),
        probeOpenApiOperation(fetcher, a.openapi),
      ]);
      if (payment) a.paymentProbe = payment;
      a.openapiOperation = operation;
      a.linkedPaymentProbes = await probeLinkedPayments(fetcher, a);
      await validation;
    })(),
    (async () => {
      a.scripts = await fetchPageScripts(fetcher, a);
    })(),
    (async () => {
      a.notFoundProbe = await fetcher.get(at('/.arl-probe-4f1c9e-this-page-does-not-exist'), { headers: { accept: HTML_ACCEPT } });
    })(),
    (async () => {
      const pricingLink = a.homeHtml?.links.find((l) => {
        try {
          const u = new URL(l.href);
          return u.origin === a.origin && (/^\/(pricing|plans)\/?$/i.test(u.pathname) || /^(pricing|plans)$/i.test(l.text));
        } catch {
          return false;
        }
      });
      a.pricing = await fetcher.get(pricingLink?.href ?? at('/pricing'), { headers: { accept: HTML_ACCEPT } });
      if (a.pricing.status === 200 && /html/i.test(a.pricing.contentType ?? '')) a.pricingHtml = summarizeHtml(a.pricing.body, a.pricing.finalUrl ?? a.pricing.url);
    })(),
    (async () => {
      const candidates = await mcpCandidates(fetcher, a);
      const aiCatalogCards = (async () => {
        await ardLane;
        const listed = await followCatalogEntries(fetcher, a, [MCP_SERVER_CARD_TYPE]);
        a.mcpExtraCards.push(...listed.filter((c) => c.doc.status === 200).map((c) => c.doc));
        return listed;
      })();
      // A server the site's own card, catalog or UCP profile declares goes first anyway: only wait for the AI Catalog
      // without one.
      const declared = candidates.some((c) => isDeclaredSource(c.source));
      const ordered = declared ? candidates : withAiCatalogCards(candidates, await aiCatalogCards, a.ard ? new URL(a.ard.doc.finalUrl ?? a.ard.doc.url).pathname : '');
      a.mcp = await firstMcpSession(ctx, ordered);
      await aiCatalogCards;
      if (a.mcp) await gatherOAuthForMcp(ctx, a);
    })(),
  ]);
  await resolveAuthorizationServer(ctx, a);
  const difference = scannerViewDifference(a.home, scannerView);
  if (difference) markScannerRefusals(fetcher.seen, new Set([a.home, ...a.agentViews.map((v) => v.doc)].filter((d): d is FetchedDoc => d !== null)), difference);
}

/** Sessions opened at most, so a site announcing many endpoints cannot make the scan open many connections. */
const MAX_MCP_SESSIONS = 3;

/**
 * The first candidate that completes a handshake (or demands OAuth). A failed handshake still counts when the site
 * declared the endpoint (a server card, a catalog, a UCP profile), or when the endpoint answered in JSON-RPC: that is a broken MCP
 * server, and mcp-initialize should say so. Anything else found nothing.
 */
async function firstMcpSession(ctx: GatherContext, candidates: McpCandidate[]): Promise<McpArtifact | null> {
  let broken: McpArtifact | null = null;
  for (const candidate of candidates.slice(0, MAX_MCP_SESSIONS)) {
    if (ctx.signal.aborted) break;
    const session = await gatherMcpSession(candidate.endpoint, {
      fetch: ctx.fetch,
      signal: ctx.signal,
      timeoutMs: ctx.requestTimeoutMs,
      source: candidate.source,
      discovery: { via: candidate.via, url: candidate.docUrl },
      sseFallback: candidate.source !== 'conventional-path',
    });
    if (session.initialize.ok || session.auth.required) return session;
    if (!broken && (isDeclaredSource(candidate.source) || session.initialize.spokeJsonRpc)) broken = session;
  }
  return broken;
}

/** For a target that is itself an MCP server: the session was opened during kind detection. */
export async function gatherMcpTarget(ctx: GatherContext, a: Artifacts): Promise<void> {
  const endpointCard = async (): Promise<void> => {
    // SEP-2127 reserves <streamable-http-url>/server-card for the server's own card.
    if (!a.mcp || a.mcp.transport === 'sse') return;
    const card = await ctx.fetcher.get(`${a.mcp.endpoint.replace(/\/$/, '')}/server-card`, { headers: { accept: 'application/mcp-server-card+json,application/json;q=0.9,*/*;q=0.5' } });
    if (card.status === 200 && parseJson(card.body) !== undefined) a.mcpExtraCards.push(card);
  };
  const agentDns = async (): Promise<void> => {
    a.agentDns = await lookupAgentRecord(ctx.txt, a.targetUrl);
  };
  await Promise.all([gatherWellKnowns(ctx, a, MCP_WELL_KNOWNS), gatherOAuthForMcp(ctx, a), endpointCard(), agentDns()]);
  await resolveAuthorizationServer(ctx, a);
}

async function gatherWellKnowns(ctx: GatherContext, a: Artifacts, names: WellKnownName[]): Promise<void> {
  await Promise.all(
    names.map(async (name) => {
      a.wellKnown[name] = await ctx.fetcher.get(new URL(WELL_KNOWN_PATHS[name], a.origin).href, { headers: { accept: 'application/json,*/*;q=0.5' } });
    }),
  );
}

async function gatherOAuthForMcp(ctx: GatherContext, a: Artifacts): Promise<void> {
  if (!a.mcp?.auth.required) return;
  const endpoint = new URL(a.mcp.endpoint);
  const candidates = [
    a.mcp.auth.resourceMetadataUrl,
    `${endpoint.origin}/.well-known/oauth-protected-resource${endpoint.pathname === '/' ? '' : endpoint.pathname}`,
    `${endpoint.origin}/.well-known/oauth-protected-resource`,
  ].filter((u): u is string => Boolean(u));
  for (const url of [...new Set(candidates)]) {
    const doc = await ctx.fetcher.get(url, { headers: { accept: 'application/json' } });
    a.protectedResource = doc;
    if (doc.status === 200 && parseJson(doc.body) !== undefined) return;
  }
}

/**
 * MCP 2025-11-25 (basic/authorization §Authorization Server Metadata Discovery): for an issuer with a path, try RFC 8414
 * path insertion, then OpenID Connect path insertion, then OpenID Connect path appending; without a path, RFC 8414
 * then OpenID Connect. The first JSON answer wins.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const u = new URL(issuer);
  const path = u.pathname.replace(/\/$/, '');
  if (!path) return [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  return [`${u.origin}/.well-known/oauth-authorization-server${path}`, `${u.origin}/.well-known/openid-configuration${path}`, `${u.origin}${path}/.well-known/openid-configuration`];
}

async function resolveAuthorizationServer(ctx: GatherContext, a: Artifacts): Promise<void> {
  const prm = a.protectedResource?.status === 200 ? (parseJson(a.protectedResource.body) as { authorization_servers?: unknown } | undefined) : undefined;
  const issuer = Array.isArray(prm?.authorization_servers) && typeof prm.authorization_servers[0] === 'string' ? prm.authorization_servers[0] : null;
  if (issuer) {
    let urls: string[] | null = null;
    try {
      urls = authorizationServerMetadataUrls(issuer);
    } catch {
      // an unparseable issuer falls back to the origin's own metadata
    }
    if (urls) {
      a.authorizationServerIssuer = issuer;
      let first: FetchedDoc | null = null;
      for (const url of urls) {
        const doc = await ctx.fetcher.get(url, { headers: { accept: 'application/json' } });
        first ??= doc;
        if (doc.status === 200 && parseJson(doc.body) !== undefined) {
          a.authorizationServer = doc;
          return;
        }
        // Our side of the wire failed: say so rather than report the next location's 404.
        if (doc.status === null) {
          a.authorizationServer = doc;
          return;
        }
      }
      a.authorizationServer = first;
      return;
    }
  }
  const own = a.wellKnown.oauthAuthorizationServer;
  // Both documents sit at the origin's root, so the issuer they must name is the origin.
  a.authorizationServerIssuer = a.origin;
  a.authorizationServer = own?.status === 200 ? own : (a.wellKnown.openidConfiguration ?? own ?? null);
}

export function sitemapLines(robots: FetchedDoc | null): string[] {
  if (!robots || robots.status !== 200) return [];
  const urls: string[] = [];
  for (const line of robots.body.split(/\r?\n/)) {
    const match = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    if (!match) continue;
    try {
      urls.push(new URL(match[1], robots.finalUrl ?? robots.url).href);
    } catch {
      // ignore malformed lines
    }
  }
  return urls;
}

import { parseJson } from '../util/json';
import { parseLinkHeader } from '../util/link-header';
import { httpUrl, pathOf, sameSite } from '../util/url';
import type { Artifacts, CatalogArtifact, FetchedDoc, McpArtifact } from './artifacts';
import type { DocFetcher } from './doc-fetcher';
import { ucpBindings } from './ucp-profile';

/** One place a website may announce its MCP server, in the order clients and registries look. */
export interface McpCandidate {
  endpoint: string;
  source: McpArtifact['source'];
  /** Evidence wording: "the server card at /.well-known/mcp/server-card.json". */
  via: string;
  /** The document that announced it (null for the conventional path). */
  docUrl: string | null;
}

const JSON_ACCEPT = { accept: 'application/json,*/*;q=0.5' };

/**
 * Sources that declare a server wherever it runs (a server card, an MCP or AI catalog, a UCP profile's MCP
 * transport): a failed handshake with one is a broken server, and one is followed off the site. The looser hints
 * (api-catalog, Link, llms.txt) only count on the site itself.
 */
export const isDeclaredSource = (source: McpCandidate['source']): boolean => source === 'server-card' || source === 'catalog' || source === 'ucp';
/** Bounds: how many catalog entries we follow, and how many llms.txt or api-catalog links we consider. */
const MAX_CATALOG_ENTRIES = 3;
const MAX_LINKS = 3;
const MCP_PATH = /\/(mcp|sse)\/?$/i;

/**
 * The endpoint a server card names. Three shapes are in use: SEP-2127 and the MCP Registry's server.json
 * (`remotes: [{type, url}]`), SEP-1649 (`transport: {type, endpoint}`, the endpoint often relative), and older
 * cards with a top-level `url` or `endpoint`.
 */
export function mcpEndpointFromCard(card: FetchedDoc | null, base: string): string | null {
  if (!card || card.status !== 200) return null;
  const json = parseJson(card.body) as Record<string, unknown> | undefined;
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const remotes = Array.isArray(json.remotes) ? (json.remotes as Array<Record<string, unknown>>) : [];
  const preferred = remotes.find((r) => r?.type === 'streamable-http') ?? remotes[0];
  const transport = json.transport && typeof json.transport === 'object' ? (json.transport as Record<string, unknown>) : null;
  const raw = preferred?.url ?? transport?.endpoint ?? transport?.url ?? json.url ?? json.endpoint;
  return httpUrl(raw, card.finalUrl ?? card.url ?? base);
}

/** The name a card gives its server: `serverInfo.name` (SEP-1649) or the top-level `name` (SEP-2127, server.json). */
export function serverNameFromCard(json: Record<string, unknown>): string | null {
  const info = json.serverInfo && typeof json.serverInfo === 'object' ? (json.serverInfo as Record<string, unknown>) : null;
  const name = info?.name ?? json.name;
  return typeof name === 'string' && name.trim() ? name : null;
}

/**
 * The MCP Catalog (/.well-known/mcp/catalog.json) lists a site's servers; each server's card lives at
 * `<endpoint>/server-card` (SEP-2127). Entries may name the endpoint or the card itself.
 */
async function fromCatalog(fetcher: DocFetcher, a: Artifacts): Promise<{ candidates: McpCandidate[]; cards: FetchedDoc[] }> {
  const catalog = await fetcher.get(new URL('/.well-known/mcp/catalog.json', a.origin).href, { headers: JSON_ACCEPT });
  if (catalog.status !== 200) return { candidates: [], cards: [] };
  const json = parseJson(catalog.body) as Record<string, unknown> | unknown[] | undefined;
  const list = Array.isArray(json) ? json : (['servers', 'entries', 'catalog', 'items'].map((k) => (json as Record<string, unknown> | undefined)?.[k]).find(Array.isArray) as unknown[] | undefined) ?? [];
  const base = catalog.finalUrl ?? catalog.url;
  const entries = list.slice(0, MAX_CATALOG_ENTRIES).map((entry) => {
    if (typeof entry === 'string') return httpUrl(entry, base);
    const e = entry as Record<string, unknown> | null;
    return httpUrl(e?.serverCard ?? e?.cardUrl ?? e?.card ?? e?.url ?? e?.endpoint ?? e?.href, base);
  });
  const candidates: McpCandidate[] = [];
  const cards: FetchedDoc[] = [];
  for (const url of entries) {
    if (!url) continue;
    const cardUrl = /\/server-card(\.json)?$/i.test(pathOf(url)) ? url : `${url.replace(/\/$/, '')}/server-card`;
    const card = await fetcher.get(cardUrl, { headers: { accept: 'application/mcp-server-card+json,application/json;q=0.9,*/*;q=0.5' } });
    const endpoint = mcpEndpointFromCard(card, cardUrl) ?? (cardUrl === url ? null : url);
    if (card.status === 200) cards.push(card);
    if (endpoint) candidates.push({ endpoint, source: 'catalog', via: `the MCP catalog at /.well-known/mcp/catalog.json (card at ${pathOf(cardUrl)})`, docUrl: catalog.finalUrl ?? catalog.url });
  }
  return { candidates, cards };
}

/** RFC 9727 api-catalog: a linkset whose anchors are the APIs; an anchor that is an MCP endpoint is a candidate. */
function fromApiCatalog(doc: FetchedDoc | undefined): McpCandidate[] {
  if (!doc || doc.status !== 200) return [];
  const json = parseJson(doc.body) as { linkset?: unknown } | undefined;
  if (!Array.isArray(json?.linkset)) return [];
  const base = doc.finalUrl ?? doc.url;
  const found: McpCandidate[] = [];
  for (const entry of json.linkset.slice(0, 20) as Array<Record<string, unknown>>) {
    const anchor = httpUrl(entry?.anchor, base);
    if (!anchor) continue;
    const mentionsMcp = MCP_PATH.test(pathOf(anchor)) || /mcp/i.test(JSON.stringify(entry).replace(/"anchor":"[^"]*"/, ''));
    if (mentionsMcp) found.push({ endpoint: anchor, source: 'api-catalog', via: 'an anchor of the RFC 9727 api-catalog', docUrl: base });
  }
  return found.slice(0, MAX_LINKS);
}

/** RFC 8288 Link header on the home page: a relation or media type that names MCP. */
function fromLinkHeader(a: Artifacts): McpCandidate[] {
  const header = a.home?.headers.link ?? '';
  if (!header) return [];
  return parseLinkHeader(header, a.home?.finalUrl ?? a.targetUrl)
    .filter((l) => l.rel.some((r) => /(^|[-/.])mcp([-/.]|$)/i.test(r)) || /mcp/i.test(l.type ?? ''))
    .slice(0, MAX_LINKS)
    .map((l) => ({ endpoint: l.href, source: 'link-header' as const, via: `the home page's Link header (rel="${l.rel.join(' ').slice(0, 60)}")`, docUrl: a.home?.finalUrl ?? a.targetUrl }));
}

/** Markdown links in llms.txt whose target is an MCP-looking path (…/mcp or …/sse). */
function fromLlmsTxt(doc: FetchedDoc | null): McpCandidate[] {
  if (!doc || doc.status !== 200) return [];
  const base = doc.finalUrl ?? doc.url;
  const found: McpCandidate[] = [];
  for (const match of doc.body.slice(0, 200_000).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const url = httpUrl(match[1], base);
    if (url && MCP_PATH.test(pathOf(url))) found.push({ endpoint: url, source: 'llms-txt', via: 'a link in llms.txt', docUrl: base });
    if (found.length >= MAX_LINKS) break;
  }
  return found;
}

/** The MCP transports a UCP business profile declares (gather/ucp-profile.ts), at most MAX_LINKS. */
function fromUcpProfile(doc: FetchedDoc): McpCandidate[] {
  return ucpBindings(doc)
    .filter((b) => b.transport === 'mcp')
    .slice(0, MAX_LINKS)
    .map((b) => ({ endpoint: b.endpoint, source: 'ucp' as const, via: `the UCP profile at /.well-known/ucp (service ${b.service.slice(0, 80)})`, docUrl: doc.finalUrl ?? doc.url }));
}

/**
 * Every announced MCP endpoint of a website, best source first, without duplicates; the conventional /mcp path comes
 * last and only when nothing announced a server.
 */
export async function mcpCandidates(fetcher: DocFetcher, a: Artifacts): Promise<McpCandidate[]> {
  const at = (path: string): string => new URL(path, a.origin).href;
  // The UCP profile is the same request as the well-known lane's (same URL and headers): the fetcher makes it once.
  const [card, legacy, apiCatalog, llmsTxt, catalog, ucp] = await Promise.all([
    fetcher.get(at('/.well-known/mcp/server-card.json'), { headers: JSON_ACCEPT }),
    fetcher.get(at('/.well-known/mcp.json'), { headers: JSON_ACCEPT }),
    fetcher.get(at('/.well-known/api-catalog'), { headers: JSON_ACCEPT }),
    fetcher.get(at('/llms.txt'), { headers: { accept: 'text/markdown,text/plain,*/*;q=0.5' } }),
    fromCatalog(fetcher, a),
    fetcher.get(at('/.well-known/ucp'), { headers: JSON_ACCEPT }),
  ]);
  a.mcpExtraCards = catalog.cards;
  const fromCard = (doc: FetchedDoc, source: McpCandidate['source'], path: string): McpCandidate[] => {
    const endpoint = mcpEndpointFromCard(doc, a.origin);
    return endpoint ? [{ endpoint, source, via: `the server card at ${path}`, docUrl: doc.finalUrl ?? doc.url }] : [];
  };
  const announced = [
    ...fromCard(card, 'server-card', '/.well-known/mcp/server-card.json'),
    ...fromCard(legacy, 'server-card', '/.well-known/mcp.json'),
    ...catalog.candidates,
    ...fromUcpProfile(ucp),
    ...fromApiCatalog(apiCatalog),
    ...fromLinkHeader(a),
    ...fromLlmsTxt(llmsTxt),
  ];
  const seen = new Set<string>();
  // A link to someone else's server never makes us open a session there; a declaration does (isDeclaredSource).
  const unique = announced
    .filter((c) => isDeclaredSource(c.source) || sameSite(c.endpoint, a.origin))
    .filter((c) => (seen.has(c.endpoint) ? false : (seen.add(c.endpoint), true)));
  if (unique.length > 0) return unique;
  return [{ endpoint: at('/mcp'), source: 'conventional-path', via: 'the conventional /mcp path', docUrl: null }];
}

/**
 * Server cards an AI Catalog lists (type application/mcp-server-card+json, followed by gather/ai-catalog-entries.ts)
 * are declared servers like the well-known card's: they come after the site's own cards and catalogs, ahead of the
 * looser hints, and replace the conventional /mcp guess.
 */
export function withAiCatalogCards(candidates: McpCandidate[], listed: CatalogArtifact[], catalogPath: string): McpCandidate[] {
  const fromAi: McpCandidate[] = [];
  for (const { identifier, doc } of listed) {
    const endpoint = doc.status === 200 ? mcpEndpointFromCard(doc, doc.finalUrl ?? doc.url) : null;
    if (endpoint) fromAi.push({ endpoint, source: 'catalog', via: `the AI Catalog at ${catalogPath} (entry ${identifier.slice(0, 80)})`, docUrl: doc.finalUrl ?? doc.url });
  }
  if (fromAi.length === 0) return candidates;
  const announced = candidates.filter((c) => c.source !== 'conventional-path');
  const declaredCount = announced.filter((c) => isDeclaredSource(c.source)).length;
  const merged = [...announced.slice(0, declaredCount), ...fromAi, ...announced.slice(declaredCount)];
  const seen = new Set<string>();
  return merged.filter((c) => (seen.has(c.endpoint) ? false : (seen.add(c.endpoint), true)));
}

import { parseJsonObject } from '../../util/json';
import { parseLinkHeader } from '../../util/link-header';
import { mcpEndpointFromCard, serverNameFromCard } from '../../gather/mcp-discovery';
import type { Artifacts, FetchedDoc } from '../../gather/artifacts';
import { MODERN_REVISION } from '../../gather/mcp-modern';
import { verifyAgentCardSignature } from './agent-card-signature';
import { listMissing, readA2aCard } from './a2a-card-fields';
import { judgedAgentCard } from '../../gather/agent-card';
import { ALL_KINDS, defineCheck, docEvidence, isOk, outcome, undecided, unreachable, WEBSITE } from '../define';
import { unreadMcp } from '../usability/mcp-tools';
import { isDeadDeclaration, isSiteFault } from '../declared-endpoint';
import { hasApiSurface, isProductSite, productDocs, validOpenApi } from '../signals';
import type { CheckOutcome } from '../types';
import { openApiDocumentOf, readableOperations } from '../../util/openapi-document';

const DISCOVERY_RELS = ['api-catalog', 'service-desc', 'service-doc', 'describedby'];

export const linkHeaders = defineCheck({
  id: 'link-headers',
  name: 'Home page sends discovery Link headers',
  layer: 'discovery',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'Link headers (RFC 8288) with rel api-catalog, service-desc, service-doc or describedby point agents to machine-readable descriptions without parsing HTML.',
  fix: 'Add a Link header to the home page, e.g. Link: </.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc", </llms.txt>; rel="describedby".',
  evaluate(a) {
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    const header = a.home!.headers.link ?? '';
    const rels = parseLinkHeader(header, a.targetUrl).flatMap((l) => l.rel);
    const useful = DISCOVERY_RELS.filter((r) => rels.includes(r));
    if (useful.length > 0) return outcome('passed', `Link header announces ${useful.join(', ')}`, { ...docEvidence(a.home), header: `link: ${header}` });
    if (header) return outcome('warning', 'The home page sends a Link header, but with no discovery relation', { ...docEvidence(a.home), header: `link: ${header}` });
    return outcome('failed', 'The home page sends no Link header', docEvidence(a.home));
  },
});

export const apiCatalog = defineCheck({
  id: 'api-catalog',
  name: '/.well-known/api-catalog lists the APIs',
  layer: 'discovery',
  tier: 'emerging',
  appliesTo: WEBSITE,
  description: 'RFC 9727 api-catalog: a linkset (RFC 9264) naming each API with its service-desc and service-doc.',
  fix: 'Serve /.well-known/api-catalog as application/linkset+json: {"linkset":[{"anchor":"https://you/api","service-desc":[{"href":"https://you/openapi.json"}]}]}.',
  evaluate(a) {
    if (!isProductSite(a)) return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product, API or commerce surface was found, so an API catalog is not expected');
    const doc = a.wellKnown.apiCatalog;
    const problem = unreachable(doc, '/.well-known/api-catalog');
    if (problem || !doc) return problem!;
    if (doc.status !== 200) return outcome('failed', `No API catalog (HTTP ${doc.status})`, docEvidence(doc));
    const json = parseJsonObject(doc.body);
    if (!json || !Array.isArray(json.linkset)) return outcome('failed', 'The api-catalog is not a linkset JSON document', docEvidence(doc, 'body'));
    if (!/linkset\+json/i.test(doc.contentType ?? '')) {
      return outcome('warning', `The api-catalog is a linkset, served as ${doc.contentType ?? 'no content type'} instead of application/linkset+json`, { ...docEvidence(doc, 'body'), header: `content-type: ${doc.contentType}` });
    }
    return outcome('passed', `api-catalog lists ${json.linkset.length} API(s)`, docEvidence(doc, 'body'));
  },
});

export const openApi = defineCheck({
  id: 'openapi',
  name: 'OpenAPI description is published',
  layer: 'discovery',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description:
    'A valid OpenAPI (3.x) or Swagger (2.0) document, JSON or YAML (read by content, not by extension), at /openapi.json, /swagger.json or the Link service-desc target. It is judged by a reference validator (swagger-parser: the OpenAPI JSON Schemas and its semantic checks, references inside the document only): a document it rejects is a warning naming the first problems, and fails when no operation can be read from it.',
  fix: 'Publish your API description at /openapi.json (or YAML) and link it with Link: </openapi.json>; rel="service-desc"; check it with a validator (swagger-parser, Redocly) so every $ref resolves and the document matches its OpenAPI version.',
  evaluate(a) {
    if (!hasApiSurface(a)) return undecided(a.openapi, 'whether the site has an API') ?? outcome('not_applicable', 'The site shows no API (no API links, service-desc or api-catalog)');
    const valid = a.openapi.find((d) => isOk(d) && validOpenApi(d) !== null);
    if (valid) return judgedOpenApi(a, valid);
    const unread = undecided(a.openapi, 'whether the site publishes an OpenAPI description');
    if (unread) return unread;
    const answered = a.openapi.filter((d) => d.status !== null);
    if (answered.length === 0) return unreachable(a.openapi[0] ?? null, 'the OpenAPI document')!;
    const invalid = answered.find((d) => d.status === 200);
    if (invalid) return outcome('failed', 'An OpenAPI location answers 200 but the document is not OpenAPI 2.0, 3.0 or 3.1 in JSON or YAML', docEvidence(invalid, 'body'));
    return outcome('failed', `No OpenAPI document at ${answered.map((d) => d.url).join(', ')}`, docEvidence(answered[0]));
  },
});

/**
 * What the document's parameterless GET operation answered (gather/openapi-endpoint.ts), as a verdict when it decides
 * one: no answer for the site's reason, a 404 or 410, a soft 404 or an HTML page fails (the document declares an API
 * that is not there). Otherwise the words to add to the document's verdict: what answered, or why it was not verified
 * (no answer for a reason of ours: a timeout, our DNS, our fetch policy; the document's own verdict stands).
 */
function openApiOperationVerdict(a: Artifacts, doc: FetchedDoc, name: string): CheckOutcome | string {
  const probe = a.openapiOperation;
  if (!probe || probe.docUrl !== (doc.finalUrl ?? doc.url)) return '';
  const answer = probe.doc;
  const asked = `${name} document declares ${probe.operation} at ${answer.url}`;
  if (answer.status === null) {
    if (isSiteFault(answer.error?.code)) return outcome('failed', `${asked}, but nothing answers there: ${answer.error?.message}`, docEvidence(doc, 'body'));
    return `; ${probe.operation} was not verified (${answer.error?.message ?? 'no answer'})`;
  }
  const type = (answer.contentType ?? '').split(';')[0].trim();
  if (answer.status === 404 || answer.status === 410) return outcome('failed', `${asked}, but it is not there (HTTP ${answer.status})`, docEvidence(doc, 'body'));
  if (answer.softNotFound) return outcome('failed', `${asked}, but it is not there: ${answer.softNotFound}`, docEvidence(doc, 'body'));
  if (answer.status < 300 && /html/i.test(type)) return outcome('failed', `${asked}, but it answers an HTML page (HTTP ${answer.status}, ${type}), not the API`, docEvidence(doc, 'body'));
  if (answer.status === 401 || answer.status === 403) return `; ${probe.operation} asks for sign-in (HTTP ${answer.status})`;
  return `; ${probe.operation} answers (HTTP ${answer.status}${type ? `, ${type}` : ''})`;
}

/** A readable document, by what the reference validator said of it (no verdict, e.g. hand-made evidence: not held against it). */
function judgedOpenApi(a: Artifacts, doc: FetchedDoc): CheckOutcome {
  const reading = openApiDocumentOf(doc)!;
  const name = `${reading.version?.startsWith('2') ? 'Swagger' : 'OpenAPI'} ${reading.version}${reading.format === 'yaml' ? ' (YAML)' : ''}`;
  const validation = a.openapiValidation?.find((v) => v.url === doc.url);
  if (!validation || validation.status !== 'invalid') {
    const note = validation?.status === 'not_validated' ? '; the reference validator could not finish on it, so it was not judged against the schema' : '';
    // Verified, not declared: what the document's server answered to its first parameterless GET operation.
    const served = openApiOperationVerdict(a, doc, name);
    if (typeof served !== 'string') return served;
    return outcome('passed', `${name} document found${note}${served}`, docEvidence(doc, 'body'));
  }
  const more = validation.errorCount > validation.errors.length ? ` (and ${validation.errorCount - validation.errors.length} more)` : '';
  const problems = `${validation.errors.join('; ')}${more}`;
  const operations = readableOperations(reading.spec);
  if (operations === 0) return outcome('failed', `${name} document that a reference validator (swagger-parser) rejects, and no operation can be read from it: ${problems}`, docEvidence(doc, 'body'));
  return outcome('warning', `${name} document with ${operations} operation(s), but a reference validator (swagger-parser) rejects it: ${problems}`, docEvidence(doc, 'body'));
}

/** The first readable card: /.well-known/mcp/server-card.json, the legacy /.well-known/mcp.json, then catalog or endpoint cards. */
function serverCard(a: Artifacts): FetchedDoc | null {
  const card = a.wellKnown.mcpServerCard;
  const candidates = [card, a.wellKnown.mcpJson, ...a.mcpExtraCards];
  const readable = candidates.find((d) => isOk(d) && parseJsonObject(d.body));
  if (readable) return readable;
  return card ?? a.wellKnown.mcpJson ?? null;
}

/**
 * Where a card was found, in words: the two well-known locations servers publish it at (SEP-2127 is a draft and
 * implementers disagree: /.well-known/mcp/server-card.json as xmcp and registry-shaped cards use it, /.well-known/mcp.json
 * as SEP-1649 named it), or the path of a catalog entry or endpoint card.
 */
function cardLocation(a: Artifacts, doc: FetchedDoc): string {
  if (doc === a.wellKnown.mcpServerCard) return '/.well-known/mcp/server-card.json';
  if (doc === a.wellKnown.mcpJson) return '/.well-known/mcp.json';
  try {
    const url = new URL(doc.finalUrl ?? doc.url);
    return url.origin === a.origin ? url.pathname : url.href;
  } catch {
    return doc.url;
  }
}

/** A registry name (MCP Registry server.json, SEP-2127) is reverse-DNS by design: "io.github.acme/weather". */
const REVERSE_DNS_NAME = /^[a-z0-9-]+(\.[a-z0-9-]+)+\/[^/]+$/i;
const loose = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const lastSegment = (name: string): string => name.split('/').pop() ?? name;

export const mcpServerCard = defineCheck({
  id: 'mcp-server-card',
  name: 'MCP server card is published',
  layer: 'discovery',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description:
    'A server card at /.well-known/mcp/server-card.json or /.well-known/mcp.json (either counts: SEP-2127 is a draft and implementers disagree; SEP-1649 named the second), at <endpoint>/server-card or in /.well-known/mcp/catalog.json lets clients find and describe the MCP server before connecting. It counts when the server it names answers; the evidence names where the card was found.',
  fix: 'Serve /.well-known/mcp/server-card.json with name, version, description and remotes: [{"type":"streamable-http","url":"https://you/mcp"}].',
  evaluate(a) {
    if (a.kind === 'website' && !isProductSite(a)) return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product or API surface was found, so an MCP server is not expected');
    const doc = serverCard(a);
    const wellKnown = [a.wellKnown.mcpServerCard, a.wellKnown.mcpJson];
    // Either well-known location will do (SEP-2127 is a draft and implementers disagree), so neither one's 404 says
    // "no card" while the other could not be read.
    if (!isOk(doc) || !parseJsonObject(doc.body)) {
      const unread = undecided(wellKnown, 'whether the site publishes an MCP server card');
      if (unread) return unread;
    }
    const problem = unreachable(doc, 'the MCP server card');
    if (problem || !doc) return problem!;
    if (doc.status !== 200) {
      const tried = wellKnown.filter((d): d is FetchedDoc => Boolean(d)).map((d) => `${cardLocation(a, d)} (HTTP ${d.status})`);
      return outcome('failed', `No MCP server card at ${tried.join(' or ') || `${cardLocation(a, doc)} (HTTP ${doc.status})`}`, docEvidence(doc));
    }
    const json = parseJsonObject(doc.body);
    const where = cardLocation(a, doc);
    if (!json) return outcome('failed', `The MCP server card at ${where} is not valid JSON`, docEvidence(doc, 'body'));
    const name = serverNameFromCard(json);
    const endpoint = mcpEndpointFromCard(doc, a.origin);
    const also = wellKnown.filter((d) => d && d !== doc && isOk(d) && parseJsonObject(d.body)).map((d) => cardLocation(a, d!));
    const alsoWords = also.length > 0 ? `; ${also.join(' and ')} has one too` : '';
    if (!name || !endpoint) return outcome('warning', `The server card at ${where} lacks a name (name or serverInfo.name) or an endpoint (remotes[].url or transport.endpoint)${alsoWords}`, docEvidence(doc, 'body'));
    // Verified, not declared: the card counts when its endpoint answers (a handshake, a tools list, or an OAuth wall
    // that says sign-in is needed). One that leads nowhere fails; one we could not reach stands, said unverified.
    const session = a.mcp && a.mcp.source === 'server-card' && a.mcp.endpoint === endpoint ? a.mcp : null;
    if (session && !session.initialize.ok && !session.auth.required) {
      const failed = `The server card at ${where} names "${name}" at ${endpoint}, but`;
      if (isDeadDeclaration(session)) return outcome('failed', `${failed} nothing answers there: ${session.initialize.error}${alsoWords}`, docEvidence(doc, 'body'));
      if (session.initialize.fetchFailure) return outcome('passed', `Server card at ${where} names "${name}" at ${endpoint}; the server was not verified (${session.initialize.error})${alsoWords}`, docEvidence(doc, 'body'));
      return outcome('failed', `${failed} it does not answer MCP there: ${session.initialize.error}${alsoWords}`, docEvidence(doc, 'body'));
    }
    return outcome('passed', `Server card at ${where} names "${name}" at ${endpoint}${alsoWords}`, docEvidence(doc, 'body'));
  },
});

/** Where a card contradicts the live server, beyond its name: version, protocol revisions, transport, tools. */
export function cardContradictions(card: Record<string, unknown>, mcp: NonNullable<Artifacts['mcp']>): string[] {
  const found: string[] = [];
  const info = mcp.initialize.serverInfo;
  const cardInfo = (card.serverInfo && typeof card.serverInfo === 'object' ? card.serverInfo : {}) as Record<string, unknown>;
  // SEP-1649 cards keep the server's version in serverInfo (their top-level version is the card format's); SEP-2127
  // server.json keeps it at the top.
  const cardVersion = card.serverInfo ? (typeof cardInfo.version === 'string' ? cardInfo.version : null) : typeof card.version === 'string' ? card.version : null;
  if (cardVersion && info?.version && cardVersion !== info.version) found.push(`the card says version ${cardVersion}, the server ${info.version}`);
  const declared = [card.protocolVersion, card.supportedProtocolVersions, card.protocolVersions].flat().filter((v): v is string => typeof v === 'string');
  const spoken = new Set([...(mcp.modern?.supportedVersions ?? []), ...(mcp.revisions.legacy?.ok && mcp.revisions.legacy.protocolVersion ? [mcp.revisions.legacy.protocolVersion] : []), ...(mcp.initialize.protocolVersion ? [mcp.initialize.protocolVersion] : [])]);
  if (declared.includes(MODERN_REVISION) && !mcp.modern) found.push(`the card claims MCP ${MODERN_REVISION}, but server/discover did not answer for it`);
  if (declared.length > 0 && mcp.modern && !mcp.revisions.legacy?.ok && !declared.some((v) => spoken.has(v))) found.push(`the card claims MCP ${declared.join(', ')}, but the server speaks ${[...spoken].join(', ')}`);
  const remotes = Array.isArray(card.remotes) ? (card.remotes as Array<{ type?: unknown }>) : [];
  const transportType = (card.transport as { type?: unknown } | undefined)?.type;
  const types = [...remotes.map((r) => r?.type), transportType].filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  if (types.length > 0 && mcp.transport && !types.some((t) => t === mcp.transport || (t === 'streamable_http' && mcp.transport === 'streamable-http') || (t === 'http' && mcp.transport === 'streamable-http'))) {
    found.push(`the card names the ${types.join(', ')} transport, the server answered over ${mcp.transport}`);
  }
  const cardCaps = card.capabilities && typeof card.capabilities === 'object' ? (card.capabilities as Record<string, unknown>) : null;
  if (cardCaps?.tools !== undefined && mcp.initialize.capabilities && mcp.initialize.capabilities.tools === undefined) found.push('the card declares tools, the server\'s capabilities do not');
  return found;
}

export const mcpCardConsistent = defineCheck({
  id: 'mcp-card-consistent',
  name: 'Server card agrees with the live server',
  layer: 'discovery',
  tier: 'emerging',
  appliesTo: ALL_KINDS,
  description:
    'What the server card (SEP-1649/SEP-2127) says must be what the live server says, by the revision it speaks (2026-07-28 server/discover or 2025-11-25 initialize): the name (serverInfo.name), and where the card states them, the version, the protocol revisions, the transport and the tools capability. Each contradiction is named in the evidence.',
  fix: 'Generate the server card from the same configuration as the server, so name, version, revisions and transport stay in sync.',
  evaluate(a) {
    const doc = serverCard(a);
    const card = isOk(doc) ? parseJsonObject(doc.body) : null;
    const info = a.mcp?.initialize.serverInfo;
    if (!card || !info || !a.mcp) return undecided([doc], 'what the server card says') ?? (info ? null : unreadMcp(a)) ?? outcome('not_applicable', 'Needs both a server card and a live server/discover or initialize answer');
    const revision = `MCP ${a.mcp.revisions.judgedBy ?? a.mcp.initialize.protocolVersion ?? '?'}`;
    const contradictions = cardContradictions(card, a.mcp);
    const others = contradictions.length > 0 ? `; but ${contradictions.join('; ')}` : '';
    const verdict = (status: 'passed' | 'warning' | 'failed', detail: string, excerpt = false) =>
      outcome(status === 'passed' && contradictions.length > 0 ? 'warning' : status, `${detail} (${revision})${others}`, docEvidence(doc, excerpt || contradictions.length > 0 ? 'body' : undefined));
    const name = serverNameFromCard(card) ?? '';
    const title = typeof card.title === 'string' ? card.title : typeof (card.serverInfo as { title?: unknown } | undefined)?.title === 'string' ? String((card.serverInfo as { title: string }).title) : null;
    if (name.toLowerCase() === info.name.toLowerCase()) return verdict('passed', `Both name the server "${info.name}"`);
    if (REVERSE_DNS_NAME.test(name)) {
      // The namespace is the publisher's domain; only the server part can agree with serverInfo.
      const names = [info.name, lastSegment(info.name), info.title ?? ''].map(loose).filter(Boolean);
      if (names.includes(loose(lastSegment(name))) || (title !== null && names.includes(loose(title)))) {
        return verdict('passed', `The registry name "${name}" (reverse-DNS by design) matches serverInfo "${info.name}"`);
      }
      return verdict('warning', `The registry name "${name}" and its title do not resemble serverInfo "${info.name}"${info.title ? ` ("${info.title}")` : ''}`, true);
    }
    if (title !== null && info.title && loose(title) === loose(info.title)) return verdict('passed', `Both title the server "${info.title}"`);
    return verdict('failed', `The card says "${name}" but the server says "${info.name}"`, true);
  },
});

/** A2A 0.3 fields that 1.0 moved or renamed ("What's new in A2A v1.0": Agent Card). */
const A2A_03_FIELDS: Record<string, string> = {
  url: 'supportedInterfaces[].url',
  preferredTransport: 'supportedInterfaces[].protocolBinding',
  additionalInterfaces: 'supportedInterfaces',
  protocolVersion: 'supportedInterfaces[].protocolVersion',
  supportsAuthenticatedExtendedCard: 'capabilities.extendedAgentCard',
  security: 'securityRequirements',
};

/**
 * What the card's interface answered (gather/a2a-endpoint.ts), as a verdict when it decides one: nothing answers, or
 * no JSON-RPC there, fails (the card leads nowhere: the site's fault). Otherwise the words to add to the card's
 * verdict: what answered, or why it was not verified (no answer for a reason of ours: the card's verdict stands).
 */
function a2aEndpointVerdict(a: Artifacts, card: FetchedDoc, label: string): CheckOutcome | string {
  const probe = a.a2aEndpoint;
  if (!probe) return '';
  if (!probe.asked) return `; its ${probe.binding.slice(0, 20)} interface was not tried (we speak JSON-RPC only)`;
  const names = `Agent card ${label} names ${probe.url}`;
  if (probe.status === null) {
    if (isSiteFault(probe.errorCode)) return outcome('failed', `${names}, but nothing answers there: ${probe.error}`, docEvidence(card, 'body'));
    return `; its endpoint was not verified (${probe.error})`;
  }
  if (probe.jsonRpc) return '; its JSON-RPC endpoint answers';
  if ((probe.status === 401 || probe.status === 403) && probe.wwwAuthenticate) return '; its endpoint asks for sign-in (WWW-Authenticate)';
  return outcome('failed', `${names}, but it does not answer JSON-RPC there (HTTP ${probe.status}${probe.contentType ? `, ${probe.contentType.split(';')[0]}` : ''})`, docEvidence(card, 'body'));
}

export const a2aAgentCard = defineCheck({
  id: 'a2a-agent-card',
  name: 'A2A agent card is published',
  layer: 'discovery',
  tier: 'emerging',
  appliesTo: WEBSITE,
  description:
    '/.well-known/agent-card.json (or a card the AI Catalog lists) describes an A2A agent (A2A 1.0 §8.2): name, skills, and supportedInterfaces (url, protocolBinding, protocolVersion). Fields A2A 0.3 used and 1.0 moved (url, preferredTransport, additionalInterfaces, protocolVersion, supportsAuthenticatedExtendedCard, security) are flagged; a signature (§8.4, JWS over the JCS-canonical card) is verified when its key is embedded.',
  fix: 'If you run an agent, publish /.well-known/agent-card.json in the A2A 1.0 shape: name, description, version, skills and supportedInterfaces: [{"url": "https://you/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}].',
  evaluate(a) {
    // The well-known card first; else an agent card the AI Catalog lists (ARD entry type application/a2a-agent-card+json).
    const { doc, listedAs } = judgedAgentCard(a);
    const via = listedAs ? ` (listed in the AI Catalog as ${listedAs.slice(0, 80)})` : '';
    // A published, valid card is itself an agent surface, whatever else the host shows.
    const published = isOk(doc) && parseJsonObject(doc.body) !== null;
    if (!published && !isProductSite(a)) return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product surface was found, so an agent card is not expected');
    const problem = unreachable(doc, '/.well-known/agent-card.json');
    if (problem || !doc) return problem!;
    if (doc.status !== 200) return outcome('failed', `No A2A agent card (HTTP ${doc.status})`, docEvidence(doc));
    const json = parseJsonObject(doc.body);
    if (!json) return outcome('failed', 'The agent card is not valid JSON', docEvidence(doc, 'body'));
    const signatures = Array.isArray(json.signatures) ? json.signatures.map((s) => verifyAgentCardSignature(json, s, a.agentCardKeys)) : [];
    const bad = signatures.find((s) => s.status === 'invalid');
    if (bad) return outcome('failed', `The agent card's signature is not valid (A2A 1.0 §8.4): ${bad.detail}`, docEvidence(doc, 'body'));
    const signed = signatures.length === 0 ? '' : `; signature: ${signatures.map((s) => s.detail).join('; ')}`;
    // Judged by the fields its declared (or evident) protocol version requires (a2a-card-fields.ts).
    const reading = readA2aCard(json);
    const name = typeof json.name === 'string' && json.name.trim() ? `"${json.name.slice(0, 80)}"` : '(no name)';
    const lacks = reading.missing.length > 0 ? `; it lacks what ${reading.judgedBy === '1.0' ? 'A2A 1.0' : 'A2A 0.3'} requires: ${listMissing(reading.missing)}` : '';
    if (!reading.reachable) {
      return outcome('failed', `Agent card ${name}${via} names no endpoint an agent can reach (${reading.judgedBy === '1.0' ? 'no supportedInterfaces entry with a url' : 'no url'}; judged as A2A ${reading.judgedBy}: ${reading.why})${lacks}${signed}`, docEvidence(doc, 'body'));
    }
    // Verified, not declared: a card whose endpoint leads nowhere fails, whatever its fields.
    const endpoint = a2aEndpointVerdict(a, doc, `${name}${via}`);
    if (typeof endpoint !== 'string') return endpoint;
    const leftovers = Object.keys(A2A_03_FIELDS).filter((f) => f in json);
    const moved = leftovers.map((f) => `${f} (now ${A2A_03_FIELDS[f]})`).join(', ');
    if (reading.judgedBy === '0.3') {
      const complete = reading.missing.length === 0 ? '; complete for 0.3' : '';
      return outcome('warning', `Agent card ${name}${via} is in the A2A 0.3 shape (${reading.why}): no supportedInterfaces${complete}${lacks}${moved ? `; 0.3 fields: ${moved}` : ''}${endpoint}${signed}`, docEvidence(doc, 'body'));
    }
    const interfaces = Array.isArray(json.supportedInterfaces) ? (json.supportedInterfaces as Array<Record<string, unknown>>) : [];
    const versions = [...new Set(interfaces.map((i) => i?.protocolVersion).filter((v): v is string => typeof v === 'string'))];
    const skills = Array.isArray(json.skills) ? json.skills.length : 0;
    const declared = typeof json.protocolVersion === 'string' ? `${json.protocolVersion.slice(0, 20)} declared` : 'version unstated';
    const summary = `Agent card ${name}${via} (A2A ${versions.join(', ') || declared}) with ${skills} skill(s) and ${interfaces.length} interface(s)`;
    if (reading.missing.length > 0) return outcome('warning', `${summary}${lacks}${moved ? `; leftover A2A 0.3 fields: ${moved}` : ''}${endpoint}${signed}`, docEvidence(doc, 'body'));
    if (leftovers.length > 0) return outcome('warning', `${summary}; leftover A2A 0.3 fields: ${moved}${endpoint}${signed}`, docEvidence(doc, 'body'));
    return outcome('passed', `${summary}${endpoint}${signed}`, docEvidence(doc, 'body'));
  },
});

export const agentSkills = defineCheck({
  id: 'agent-skills',
  name: 'Agent Skills index is published',
  layer: 'discovery',
  tier: 'emerging',
  bonus: true,
  appliesTo: WEBSITE,
  description: '/.well-known/agent-skills/index.json lists skills an agent can install to use the product.',
  fix: 'Publish /.well-known/agent-skills/index.json listing your SKILL.md files.',
  evaluate(a) {
    if (!isProductSite(a)) return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product surface was found');
    const doc = a.wellKnown.agentSkills;
    const problem = unreachable(doc, '/.well-known/agent-skills/index.json');
    if (problem || !doc) return problem!;
    const json = doc.status === 200 ? parseJsonObject(doc.body) : null;
    if (json && Array.isArray(json.skills)) return outcome('passed', `Skills index lists ${json.skills.length} skill(s)`, docEvidence(doc, 'body'));
    return outcome('failed', `No valid skills index (HTTP ${doc.status})`, docEvidence(doc));
  },
});

import type { Artifacts, McpModern } from '../../gather/artifacts';
import { MODERN_REVISION } from '../../gather/mcp-modern';
import type { CheckOutcome } from '../types';
import { ALL_KINDS, defineCheck, outcome } from '../define';
import { mcpGate } from './mcp-tools';

/**
 * Rules MCP 2026-07-28 introduced. A server judged by an older revision (it does not list 2026-07-28 in server/discover)
 * predates them: they do not apply to it, so they never fail a 2025-11-25 server.
 */
function modernGate(a: Artifacts): CheckOutcome | McpModern {
  const gate = mcpGate(a);
  if (gate) return gate.status === 'failed' ? outcome('not_applicable', 'The MCP handshake failed', gate.evidence) : gate;
  const mcp = a.mcp!;
  if (!mcp.modern) return outcome('not_applicable', `The server is judged by MCP ${mcp.revisions.judgedBy ?? 'an earlier revision'}, which predates this ${MODERN_REVISION} rule`, { url: mcp.endpoint });
  return mcp.modern;
}

const isModern = (gate: CheckOutcome | McpModern): gate is McpModern => 'results' in gate;

export const mcpResultType = defineCheck({
  id: 'mcp-result-type',
  name: 'MCP results carry resultType',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'MCP 2026-07-28 (server/discover §Response, basic/patterns/mrtr): every result names its resultType ("complete", or "input_required" for a multi round-trip request), so a client knows whether it got the answer. Judged only for servers that list 2026-07-28.',
  fix: 'Return "resultType": "complete" in every result (server/discover, tools/list, resources/read, tools/call); an official SDK with 2026-07-28 support does this for you.',
  evaluate(a) {
    const gate = modernGate(a);
    if (!isModern(gate)) return gate;
    const missing = gate.results.filter((r) => r.resultType !== 'complete' && r.resultType !== 'input_required');
    const detail = `MCP ${MODERN_REVISION}: ${gate.results.length - missing.length} of ${gate.results.length} results carry resultType${missing.length ? `; missing or unknown in ${missing.map((r) => `${r.method} (${JSON.stringify(r.resultType)})`).join(', ')}` : ''}`;
    if (missing.length === 0) return outcome('passed', detail, { url: a.mcp!.endpoint });
    return outcome(missing.length < gate.results.length ? 'warning' : 'failed', detail, { url: a.mcp!.endpoint });
  },
});

/** server/utilities/caching §Cacheable Results: these methods MUST carry caching hints on a complete result. */
const CACHEABLE = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

export const mcpCacheHints = defineCheck({
  id: 'mcp-cache-hints',
  name: 'MCP list results carry cache hints',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'MCP 2026-07-28 (server/utilities/caching §Cacheable Results): server/discover, tools/list and resources/read results MUST carry ttlMs (milliseconds, an integer) and cacheScope ("public" or "private"), so clients stop re-fetching tool lists. Judged only for servers that list 2026-07-28.',
  fix: 'Add "ttlMs": 300000 and "cacheScope": "public" (or "private" when the answer depends on the caller) to discovery, list and read results.',
  evaluate(a) {
    const gate = modernGate(a);
    if (!isModern(gate)) return gate;
    const cacheable = gate.results.filter((r) => CACHEABLE.has(r.method) && r.resultType !== 'input_required');
    const bad = cacheable.filter((r) => !(Number.isInteger(r.ttlMs) && (r.ttlMs as number) >= 0 && (r.cacheScope === 'public' || r.cacheScope === 'private')));
    const detail = `MCP ${MODERN_REVISION}: ${cacheable.length - bad.length} of ${cacheable.length} cacheable results carry ttlMs and cacheScope${bad.length ? `; not: ${bad.map((r) => `${r.method} (ttlMs ${JSON.stringify(r.ttlMs)}, cacheScope ${JSON.stringify(r.cacheScope)})`).join(', ')}` : ''}`;
    if (bad.length === 0) return outcome('passed', detail, { url: a.mcp!.endpoint });
    return outcome(bad.length < cacheable.length ? 'warning' : 'failed', detail, { url: a.mcp!.endpoint });
  },
});

export const mcpRequestHeaders = defineCheck({
  id: 'mcp-request-headers',
  name: 'MCP server checks the version and method headers',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'MCP 2026-07-28 (basic/transports/streamable-http §Sending Messages, SEP-2243): every request carries MCP-Protocol-Version and Mcp-Method headers mirroring its body, and the server MUST reject a request whose headers disagree with the body (HTTP 400, HeaderMismatchError -32020), because gateways route on them. We send one tools/list labelled Mcp-Method: server/discover. Judged only for servers that list 2026-07-28.',
  fix: 'Compare MCP-Protocol-Version, Mcp-Method and Mcp-Name with the JSON-RPC body on every POST and answer 400 with error -32020 when they differ.',
  evaluate(a) {
    const gate = modernGate(a);
    if (!isModern(gate)) return gate;
    const probe = gate.headerMismatch;
    const url = a.mcp!.endpoint;
    if (probe.fetchFailure || probe.status === null) return outcome('couldnt_check', 'The request with a mismatched Mcp-Method header got no answer', { url });
    if (probe.status === 400) return outcome('passed', `MCP ${MODERN_REVISION}: a tools/list labelled Mcp-Method: server/discover was refused with HTTP 400${probe.errorCode !== null ? ` (JSON-RPC ${probe.errorCode})` : ''}`, { url, status: 400 });
    if (probe.answered) return outcome('failed', `MCP ${MODERN_REVISION}: a tools/list labelled Mcp-Method: server/discover was answered (HTTP ${probe.status}); the headers are not checked against the body`, { url, status: probe.status });
    if (probe.status >= 500) return outcome('couldnt_check', `The request with a mismatched Mcp-Method header got HTTP ${probe.status}`, { url, status: probe.status });
    return outcome('warning', `MCP ${MODERN_REVISION}: the mismatched request was refused with HTTP ${probe.status}; the transport names 400`, { url, status: probe.status });
  },
});

export const mcpStateless = defineCheck({
  id: 'mcp-stateless',
  name: 'MCP server needs no session',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'MCP 2026-07-28 removed the initialize handshake and Mcp-Session-Id (SEP-2575, SEP-2567; basic/transports/streamable-http): each request stands alone, so any instance behind a load balancer can answer it. A server judged by 2026-07-28 must answer tools/list without a prior handshake and must not hand out session ids. Servers on 2025-11-25 may use sessions and are not judged.',
  fix: 'Keep no per-connection state: read the protocol version and client capabilities from each request\'s _meta, and pass state that spans requests as an explicit handle in the parameters.',
  evaluate(a) {
    const gate = modernGate(a);
    if (!isModern(gate)) return gate;
    const url = a.mcp!.endpoint;
    const tools = a.mcp!.tools;
    if (tools && !tools.ok && /session/i.test(tools.error ?? '')) return outcome('failed', `MCP ${MODERN_REVISION}: tools/list without a session was refused: ${tools.error}`, { url });
    if (gate.sessionIds.length > 0) return outcome('failed', `MCP ${MODERN_REVISION}: the server handed out Mcp-Session-Id ${gate.sessionIds[0].slice(0, 40)} on ${gate.sessionIds.length} response(s); the revision has no sessions`, { url });
    return outcome('passed', `MCP ${MODERN_REVISION}: every request was answered on its own, and no Mcp-Session-Id was handed out`, { url });
  },
});

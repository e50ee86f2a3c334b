import { ALL_KINDS, defineCheck, outcome } from '../define';
import { mcpGate } from './mcp-tools';

/**
 * MCP 2025-11-25, basic/transports §2.0.1 (Security Warning): servers MUST validate the Origin header on all incoming
 * connections, and MUST answer 403 when it is present and invalid. It is a security rule, so a server that accepts a
 * foreign origin fails; it is "recommended" rather than "required" because the attack (DNS rebinding) threatens
 * servers on local and private networks most, and a public server reachable by anyone loses less to it.
 */
const cap = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export const mcpOriginCheck = defineCheck({
  id: 'mcp-origin-check',
  name: 'MCP endpoint refuses foreign web origins',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'MCP 2025-11-25 (basic/transports §2.0.1; 2024-11-05 for HTTP+SSE): a server MUST validate the Origin header and answer 403 Forbidden when it is present and not allowed, so a web page cannot drive it through DNS rebinding. MCP 2026-07-28 keeps the rule (basic/transports/streamable-http §Security). We send one initialize (a 2026-07-28 server: one server/discover; HTTP+SSE: one stream request) with Origin: https://dns-rebinding-check.invalid.',
  fix: 'Validate Origin on every request to the MCP endpoint: accept requests without Origin (non-browser clients) and your own web origins, answer 403 to any other. With the TypeScript SDK, pass allowedOrigins (and allowedHosts) with enableDnsRebindingProtection: true to the transport.',
  evaluate(a) {
    const gate = mcpGate(a);
    if (gate) return gate.status === 'failed' ? outcome('not_applicable', 'The MCP handshake failed, so there is nothing to compare against', gate.evidence) : gate;
    const mcp = a.mcp!;
    const probe = mcp.originCheck;
    if (!probe || probe.status === null) return outcome('couldnt_check', `The request with a foreign Origin got no answer${probe?.error ? `: ${probe.error}` : ''}`, { url: mcp.endpoint, status: null });
    const sent = `${mcp.transport === 'sse' ? 'a stream request (HTTP+SSE)' : mcp.modern ? 'a server/discover (MCP 2026-07-28)' : 'an initialize'} with Origin: ${probe.origin}`;
    if (probe.status === 403) return outcome('passed', `${cap(sent)} was refused with 403`, { url: mcp.endpoint, status: 403 });
    if (probe.status >= 500) return outcome('couldnt_check', `${cap(sent)} got HTTP ${probe.status}, which says nothing about Origin validation`, { url: mcp.endpoint, status: probe.status });
    if (probe.status >= 400) {
      return outcome('warning', `${cap(sent)} was refused, but with HTTP ${probe.status}; the spec names 403 Forbidden`, { url: mcp.endpoint, status: probe.status });
    }
    return outcome('failed', `${cap(sent)} was accepted (HTTP ${probe.status}): a web page on any site could drive this server through DNS rebinding`, {
      url: mcp.endpoint,
      status: probe.status,
    });
  },
});

import { ALL_KINDS, defineCheck, outcome } from '../define';
import { mcpGate } from './mcp-tools';

/**
 * MCP 2025-11-25, basic/transports §2.0.1 (Security Warning): servers MUST validate the Origin header on all incoming
 * connections, and MUST answer 403 when it is present and invalid. It is a security rule, so a server that accepts a
 * foreign origin fails; it is "recommended" rather than "required" because the attack (DNS rebinding) threatens
 * servers on local and private networks most, and a public server reachable by anyone loses less to it.
 */
export const mcpOriginCheck = defineCheck({
  id: 'mcp-origin-check',
  name: 'MCP endpoint refuses foreign web origins',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: ALL_KINDS,
  description:
    'MCP 2025-11-25 (basic/transports §2.0.1): a Streamable HTTP server MUST validate the Origin header and answer 403 Forbidden when it is present and not allowed, so a web page cannot drive it through DNS rebinding. We send one initialize with Origin: https://dns-rebinding-check.invalid.',
  fix: 'Validate Origin on every request to the MCP endpoint: accept requests without Origin (non-browser clients) and your own web origins, answer 403 to any other. With the TypeScript SDK, pass allowedOrigins (and allowedHosts) with enableDnsRebindingProtection: true to the transport.',
  evaluate(a) {
    const gate = mcpGate(a);
    if (gate) return gate.status === 'failed' ? outcome('not_applicable', 'The MCP handshake failed, so there is nothing to compare against', gate.evidence) : gate;
    const mcp = a.mcp!;
    if (mcp.transport !== 'streamable-http') return outcome('not_applicable', 'Checked on Streamable HTTP servers only (this one speaks the deprecated HTTP+SSE transport)', { url: mcp.endpoint });
    const probe = mcp.originCheck;
    if (!probe || probe.status === null) return outcome('couldnt_check', `The request with a foreign Origin got no answer${probe?.error ? `: ${probe.error}` : ''}`, { url: mcp.endpoint, status: null });
    const sent = `Origin: ${probe.origin}`;
    if (probe.status === 403) return outcome('passed', `An initialize sent with ${sent} was refused with 403`, { url: mcp.endpoint, status: 403 });
    if (probe.status >= 500) return outcome('couldnt_check', `An initialize sent with ${sent} got HTTP ${probe.status}, which says nothing about Origin validation`, { url: mcp.endpoint, status: probe.status });
    if (probe.status >= 400) {
      return outcome('warning', `An initialize sent with ${sent} was refused, but with HTTP ${probe.status}; the spec names 403 Forbidden`, { url: mcp.endpoint, status: probe.status });
    }
    return outcome('failed', `An initialize sent with ${sent} was accepted (HTTP ${probe.status}): a web page on any site could drive this server through DNS rebinding`, {
      url: mcp.endpoint,
      status: probe.status,
    });
  },
});

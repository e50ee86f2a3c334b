import { DISCOVERY_SITES } from './discovery-sites';
import { startOAuthProtectedMcp } from './oauth-protected-mcp';
import { startBasicMcpApp, startServerEverything } from './reference-servers';
import type { RunningServer } from './processes';
import { startSdkSite } from './sdk-servers';
import { startModernMcp } from './modern-mcp';
import { startA2aAgent, startX402Paywall, startX402V1Paywall } from './payment-and-agent-servers';

/** The servers of the before/after score table in the closing notes. */
export const CORPUS_TABLE_ENTRIES: Array<{ server: string; start: () => Promise<RunningServer> }> = [
  { server: 'server-everything (Streamable HTTP)', start: () => startServerEverything('streamableHttp') },
  { server: 'server-everything (HTTP+SSE)', start: () => startServerEverything('sse') },
  { server: 'server-basic-vanillajs (MCP App)', start: startBasicMcpApp },
  { server: 'SDK server behind oauth2-mock-server', start: () => startOAuthProtectedMcp() },
  { server: 'SDK server answering an unsupported protocol version', start: async () => {
    const site = await startSdkSite({ mcp: { protocolVersion: '1999-01-01' } });
    return { ...site, url: site.mcpUrl! };
  } },
  { server: '@x402/express paywall, the paid URL', start: startX402Paywall },
  { server: '@x402/express paywall, its home page', start: async () => {
    const paywall = await startX402Paywall();
    return { ...paywall, url: `${paywall.origin}/` };
  } },
  { server: 'x402 v1 paywall (spec example)', start: startX402V1Paywall },
  { server: '@a2a-js/sdk agent', start: startA2aAgent },
  { server: 'MCP 2026-07-28 stateless server (from the spec text)', start: async () => {
    const site = await startModernMcp();
    return { ...site, url: site.mcpUrl! };
  } },
  { server: 'MCP server speaking 2026-07-28 and 2025-11-25', start: async () => {
    const site = await startModernMcp({ legacy: true });
    return { ...site, url: site.mcpUrl! };
  } },
  { server: 'MCP 2025-11-25 server (official SDK)', start: async () => {
    const site = await startSdkSite();
    return { ...site, url: site.mcpUrl! };
  } },
  ...Object.entries(DISCOVERY_SITES).map(([name, options]) => ({ server: `website, MCP via ${name}`, start: () => startSdkSite(options) })),
];

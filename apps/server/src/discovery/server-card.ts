// MCP server cards and the MCP catalog. One card per host, in the shape the drafts and registries read: SEP-2127 and
// the MCP Registry's server.json (name, title, description, version, websiteUrl, remotes) plus SEP-1649's
// serverInfo, transport, capabilities and tools. Its identity is the identity the live server answers initialize
// with (the same McpIdentity object), so the card and the handshake cannot disagree.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { toolListing } from '../mcp/endpoint';
import { firstSentence, type HostFacts, type ServiceFacts } from './service-facts';

export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

export function serverCard(host: HostFacts, websiteUrl: string): Record<string, unknown> {
  const { identity, endpoint, tools } = host.mcp;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: identity.name,
    title: identity.title,
    description: firstSentence(host.description),
    version: identity.version,
    websiteUrl,
    remotes: [{ type: 'streamable-http', url: endpoint }],
    serverInfo: { name: identity.name, title: identity.title, version: identity.version },
    protocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
    transport: { type: 'streamable-http', endpoint },
    capabilities: { tools: { listChanged: false } },
    authentication: { required: false },
    instructions: identity.instructions,
    tools: tools.map(toolListing),
  };
}

export function mcpCatalog(facts: ServiceFacts): Record<string, unknown> {
  return {
    servers: [facts.leaderboard, facts.feedback].map((host) => ({
      name: host.mcp.identity.name,
      title: host.mcp.identity.title,
      description: firstSentence(host.description),
      url: host.mcp.endpoint,
      serverCard: host.mcp.card,
    })),
  };
}

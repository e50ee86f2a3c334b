import type { SdkSiteOptions } from './sdk-servers';

const json = (value: unknown, contentType = 'application/json') => ({ headers: { 'content-type': contentType }, body: JSON.stringify(value) });
const page = (head: string, body = '<h1>Corpus site</h1><p>Docs and an API for agents.</p>') => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>Corpus site</title><meta name="description" content="A small site from the scanner corpus.">${head}</head><body>${body}</body></html>`,
});

/**
 * One website per way clients and registries publish an MCP server. Each serves a working SDK server at /mcp (named
 * "corpus-server") and announces it in exactly one way.
 */
export const DISCOVERY_SITES: Record<string, SdkSiteOptions> = {
  /** SEP-1649 server card: serverInfo + transport {type, endpoint} (endpoint may be relative). */
  'sep-1649 server card': {
    routes: () => ({
      '/.well-known/mcp/server-card.json': json({ $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json', version: '1.0', protocolVersion: '2025-11-25', serverInfo: { name: 'corpus-server', title: 'Corpus server', version: '1.0.0' }, transport: { type: 'streamable-http', endpoint: '/mcp' }, capabilities: { tools: { listChanged: false } } }),
    }),
  },
  /** SEP-2127 / registry server.json shape: reverse-DNS name, remotes[]. */
  'registry server.json card': {
    routes: (origin) => ({
      '/.well-known/mcp/server-card.json': json({ $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json', name: 'io.github.corpus/corpus-server', title: 'Corpus server', version: '1.0.0', description: 'Flight search for agents.', remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }] }),
    }),
  },
  /** The legacy /.well-known/mcp.json location (SEP-1649's first draft), in SEP-1649 shape. */
  'legacy /.well-known/mcp.json': {
    routes: () => ({
      '/.well-known/mcp.json': json({ serverInfo: { name: 'corpus-server', version: '1.0.0' }, transport: { type: 'streamable-http', endpoint: '/mcp' } }),
    }),
  },
  /** MCP Catalog: /.well-known/mcp/catalog.json lists endpoints; each card lives at <endpoint>/server-card (SEP-2127). */
  'mcp catalog': {
    routes: (origin) => ({
      '/.well-known/mcp/catalog.json': json({ servers: [{ name: 'io.github.corpus/corpus-server', url: `${origin}/mcp` }] }),
      '/mcp/server-card': json({ name: 'io.github.corpus/corpus-server', version: '1.0.0', remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }] }, 'application/mcp-server-card+json'),
    }),
  },
  /** RFC 9727 api-catalog whose linkset anchor is the MCP endpoint. */
  'rfc 9727 api-catalog anchor': {
    routes: (origin) => ({
      '/.well-known/api-catalog': json({ linkset: [{ anchor: `${origin}/mcp`, 'service-doc': [{ href: `${origin}/docs/mcp`, type: 'text/html' }] }] }, 'application/linkset+json'),
    }),
  },
  /** An RFC 8288 Link header on the home page. */
  'link header': {
    routes: (origin) => ({
      '/': { ...page(''), headers: { 'content-type': 'text/html; charset=utf-8', link: `<${origin}/mcp>; rel="mcp"` } },
    }),
  },
  /** A link in llms.txt (llmstxt.org). */
  'llms.txt link': {
    routes: () => ({
      '/llms.txt': { headers: { 'content-type': 'text/plain' }, body: '# Corpus site\n\n> Flight search for agents.\n\n## MCP\n\n- [MCP server](/mcp): Streamable HTTP endpoint for agents\n' },
    }),
  },
  /** Nothing announces it: only the conventional /mcp path answers initialize. */
  'plain /mcp': {},
};

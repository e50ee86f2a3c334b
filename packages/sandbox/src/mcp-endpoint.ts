import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpEndpoint } from './types';

export function protectedResourceMetadataUrl(origin: string, endpoint: McpEndpoint): string {
  return `${origin}/.well-known/oauth-protected-resource${endpoint.path}`;
}

/** Stateless Streamable HTTP: a fresh server per POST, JSON answers, 405 for the optional GET stream. */
export async function serveMcp(endpoint: McpEndpoint, req: IncomingMessage, res: ServerResponse, body: string, origin: string): Promise<void> {
  if (endpoint.requireBearerToken && req.headers.authorization !== `Bearer ${endpoint.requireBearerToken}`) {
    res.writeHead(401, {
      'content-type': 'application/json',
      'www-authenticate': `Bearer resource_metadata="${protectedResourceMetadataUrl(origin, endpoint)}", scope="mcp:tools"`,
    });
    res.end(JSON.stringify({ error: 'invalid_token', error_description: 'Sign in with OAuth to use this server' }));
    return;
  }
  const requestOrigin = req.headers.origin;
  if (endpoint.validateOrigin && requestOrigin !== undefined && requestOrigin !== origin) {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden origin' }, id: null }));
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST', 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed' }, id: null }));
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
    return;
  }
  const server = new McpServer(endpoint.serverInfo, { instructions: endpoint.instructions });
  endpoint.register(server, origin);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, parsed);
}

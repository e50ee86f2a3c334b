import { z } from 'zod';
import { json } from '../responses';
import type { Persona } from '../types';

/** Everything behind OAuth, announced the standard way (RFC 9728 + RFC 8414), so an agent knows how to sign in. */
export const oauthMcp: Persona = {
  name: 'oauth-mcp',
  hostname: 'secure-mcp.test',
  path: '/mcp',
  expected: { kind: 'mcp_server', ending: 'sign_in_required', grades: [] },
  description: 'An MCP server that answers 401 with WWW-Authenticate resource_metadata, and publishes correct protected-resource and authorization-server metadata.',
  routes: {
    '/.well-known/oauth-protected-resource/mcp': (req) =>
      json({ resource: `${req.origin}/mcp`, authorization_servers: [req.origin], scopes_supported: ['mcp:tools'], bearer_methods_supported: ['header'] }),
    '/.well-known/oauth-protected-resource': (req) => json({ resource: `${req.origin}/mcp`, authorization_servers: [req.origin], scopes_supported: ['mcp:tools'] }),
    '/.well-known/oauth-authorization-server': (req) =>
      json({
        issuer: req.origin,
        authorization_endpoint: `${req.origin}/authorize`,
        token_endpoint: `${req.origin}/token`,
        registration_endpoint: `${req.origin}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        client_id_metadata_document_supported: true,
      }),
  },
  mcp: {
    path: '/mcp',
    serverInfo: { name: 'secure-notes', version: '1.0.0' },
    requireBearerToken: 'sandbox-token',
    register(server) {
      server.registerTool(
        'list_notes',
        { description: 'Lists your notes, newest first.', inputSchema: { limit: z.number().optional().describe('How many notes') }, annotations: { readOnlyHint: true } },
        async () => ({ content: [{ type: 'text', text: '[]' }] }),
      );
    },
  },
};

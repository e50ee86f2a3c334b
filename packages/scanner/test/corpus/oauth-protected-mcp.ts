import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import express from 'express';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { OAuthMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { startOAuthMockServer } from './reference-servers';
import type { RunningServer } from './processes';
import { mcpServerFor } from './sdk-servers';

export interface OAuthProtectedMcp extends RunningServer {
  /** The authorization server's issuer (oauth2-mock-server). */
  issuer: string;
}

export interface OAuthProtectedMcpOptions {
  /** Publish protected-resource metadata whose `resource` names this URL instead of the server (RFC 9728 §3.3 forbids using it). */
  resourceOverride?: string;
  /** Answer 401 without the resource_metadata pointer, leaving clients to the well-known URI (MCP 2025-11-25 allows either). */
  omitResourceMetadataPointer?: boolean;
}

/**
 * An MCP server that requires a bearer token, built with the MCP SDK's own auth helpers (requireBearerAuth,
 * mcpAuthMetadataRouter), whose protected-resource metadata names a real authorization server: oauth2-mock-server.
 */
export async function startOAuthProtectedMcp(options: OAuthProtectedMcpOptions = {}): Promise<OAuthProtectedMcp> {
  const authServer = await startOAuthMockServer();
  try {
    const discovery = await fetch(`${authServer.origin}/.well-known/openid-configuration`);
    const oauthMetadata = OAuthMetadataSchema.parse(await discovery.json());
    const app = express();
    const listening = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
    const mcpUrl = new URL(`${origin}/mcp`);
    app.use(mcpAuthMetadataRouter({ oauthMetadata, resourceServerUrl: options.resourceOverride ? new URL(options.resourceOverride) : mcpUrl, resourceName: 'Corpus protected server' }));
    const bearer = requireBearerAuth({
      verifier: {
        // The mock's introspection endpoint decides; the scanner never sends a token, so this only runs in theory.
        async verifyAccessToken(token: string) {
          const answer = await fetch(`${authServer.origin}/introspect`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token }) });
          const info = (await answer.json()) as { active?: boolean; client_id?: string; scope?: string; exp?: number };
          if (!info.active) throw new Error('inactive token');
          return { token, clientId: info.client_id ?? 'unknown', scopes: (info.scope ?? '').split(' ').filter(Boolean), expiresAt: info.exp };
        },
      },
      ...(options.omitResourceMetadataPointer ? {} : { resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) }),
    });
    app.post('/mcp', bearer, async (req, res) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = mcpServerFor({ name: 'corpus-protected' });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    return {
      url: mcpUrl.href,
      origin,
      issuer: authServer.url,
      close: async () => {
        await new Promise<void>((resolve) => {
          listening.closeAllConnections();
          listening.close(() => resolve());
        });
        await authServer.close();
      },
    };
  } catch (error) {
    await authServer.close();
    throw error;
  }
}

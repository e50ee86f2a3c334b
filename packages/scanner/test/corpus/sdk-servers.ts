import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InitializeRequestSchema, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from './processes';

/** A tool exactly as it goes on the wire: the low-level SDK server does not rewrite or validate it. */
export interface WireTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface SdkMcpOptions {
  name?: string;
  version?: string;
  tools?: WireTool[];
  /** Answer initialize with this protocol version instead of negotiating (a server the client must refuse). */
  protocolVersion?: string;
  /** Origins the SDK's DNS-rebinding protection admits; when set, any other Origin gets 403 (MCP 2025-11-25, transports §2.0.1). */
  allowedOrigins?: string[];
  /** Runs before the MCP transport; returning true means the request was answered (an auth wall, for example). */
  guard?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;
}

export interface CannedResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A live A2A JSON-RPC endpoint as a canned answer: what one answers to a method it does not know (JSON-RPC 2.0 §5.1,
 * -32601; A2A 1.0 speaks JSON-RPC 2.0 over HTTP). Fixtures whose card names an endpoint serve this there, so the card
 * is judged on its fields, not on an endpoint that is missing (the scan verifies it: corpus/a2a-endpoints.test.ts).
 */
export const A2A_JSONRPC_ENDPOINT: CannedResponse = {
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32601, message: 'Method not found' } }),
};

export interface SdkSiteOptions {
  /** Where the MCP endpoint lives; null for a site without one. Default /mcp. */
  mcpPath?: string | null;
  mcp?: SdkMcpOptions;
  /** Exact-path responses, built once the port is known. '/' defaults to a small HTML page. */
  routes?: (origin: string) => Record<string, CannedResponse>;
}

export interface RunningSite extends RunningServer {
  /** The MCP endpoint's URL, when the site has one. */
  mcpUrl: string | null;
  /** Paths the site was asked for, in order (to assert bounded probing). */
  requests: Array<{ method: string; path: string; origin: string | null }>;
}

export const DEFAULT_TOOL: WireTool = {
  name: 'search_flights',
  title: 'Search flights',
  description: 'Searches scheduled flights between two airports on a date and returns the cheapest fares first.',
  inputSchema: {
    type: 'object',
    properties: {
      from: { type: 'string', description: 'IATA code of the departure airport' },
      to: { type: 'string', description: 'IATA code of the arrival airport' },
    },
    required: ['from', 'to'],
  },
  annotations: { readOnlyHint: true, openWorldHint: true },
};

const HOME_PAGE = '<!doctype html><html><head><title>Corpus site</title><meta name="description" content="A small site from the scanner corpus."></head><body><h1>Corpus site</h1><p>Docs and an API for agents.</p></body></html>';

/** A fresh low-level SDK server per request (stateless Streamable HTTP), serving the tools verbatim. */
export function mcpServerFor(options: SdkMcpOptions): Server {
  const server = new Server({ name: options.name ?? 'corpus-server', version: options.version ?? '1.0.0' }, { capabilities: { tools: {} }, instructions: 'A corpus server for scanner tests.' });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (options.tools ?? [DEFAULT_TOOL]) as never }));
  if (options.protocolVersion) {
    const version = options.protocolVersion;
    server.setRequestHandler(InitializeRequestSchema, async () => ({
      protocolVersion: version,
      capabilities: { tools: {} },
      serverInfo: { name: options.name ?? 'corpus-server', version: options.version ?? '1.0.0' },
    }));
  }
  return server;
}

/** One request answered by a fresh SDK server on the stateless Streamable HTTP transport (MCP 2025-11-25). */
export async function serveStatelessSdk(mcp: SdkMcpOptions, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    ...(mcp.allowedOrigins ? { enableDnsRebindingProtection: true, allowedOrigins: mcp.allowedOrigins } : {}),
  });
  const server = mcpServerFor(mcp);
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

/**
 * A small site on the official SDK: an MCP endpoint (Streamable HTTP, stateless) plus whatever discovery documents a
 * test needs, each rule of the spec in its own variant.
 */
export async function startSdkSite(options: SdkSiteOptions = {}): Promise<RunningSite> {
  const mcpPath = options.mcpPath === undefined ? '/mcp' : options.mcpPath;
  const mcp = options.mcp ?? {};
  const requests: RunningSite['requests'] = [];
  let routes: Record<string, CannedResponse> = {};
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push({ method: req.method ?? 'GET', path: url.pathname, origin: (req.headers.origin as string | undefined) ?? null });
      if (mcpPath && url.pathname === mcpPath) {
        if (mcp.guard && (await mcp.guard(req, res))) return;
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        await serveStatelessSdk(mcp, req, res);
        return;
      }
      const canned = routes[url.pathname] ?? (url.pathname === '/' ? { headers: { 'content-type': 'text/html; charset=utf-8' }, body: HOME_PAGE } : undefined);
      if (!canned) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return;
      }
      const headers = { 'content-type': 'application/json', ...canned.headers };
      res.writeHead(canned.status ?? 200, headers).end(req.method === 'HEAD' ? undefined : (canned.body ?? ''));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes = options.routes?.(origin) ?? {};
  return {
    url: `${origin}/`,
    origin,
    mcpUrl: mcpPath ? `${origin}${mcpPath}` : null,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export { LATEST_PROTOCOL_VERSION };

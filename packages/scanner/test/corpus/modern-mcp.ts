import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TOOL, serveStatelessSdk } from './sdk-servers';
import type { CannedResponse, RunningSite, WireTool } from './sdk-servers';

/**
 * An MCP server written from the 2026-07-28 specification text, because the official TypeScript SDK on npm (1.32.2)
 * stops at 2025-11-25. Sections applied (modelcontextprotocol.io/specification/2026-07-28/...):
 *  - basic/transports/streamable-http: one POST per message, no GET stream (405), no Mcp-Session-Id; Origin validated
 *    (403); request metadata headers MCP-Protocol-Version, Mcp-Method and Mcp-Name (SEP-2243) compared with the body,
 *    a mismatch answered 400 with HeaderMismatchError (-32020);
 *  - basic (index) §_meta: io.modelcontextprotocol/protocolVersion and clientCapabilities on every request;
 *  - server/discover §Response: supportedVersions, capabilities, serverInfo, instructions;
 *  - every result carries resultType ("complete"); server/utilities/caching: ttlMs and cacheScope on discover,
 *    list and read results.
 * With `legacy`, requests that do not carry the 2026-07-28 header go to the official SDK's stateless 2025-11-25
 * transport, as a dual-era server routes them (basic/versioning). Each fault switch breaks exactly one rule.
 */
export interface ModernMcpOptions {
  name?: string;
  version?: string;
  tools?: WireTool[];
  /** Also speak 2025-11-25 (initialize through the official SDK) to requests without the 2026-07-28 header. */
  legacy?: boolean;
  omitResultType?: boolean;
  omitCacheHints?: boolean;
  issueSessionId?: boolean;
  ignoreHeaderMismatch?: boolean;
  /** Extra routes (a home page, a server card), built once the port is known. */
  routes?: (origin: string) => Record<string, CannedResponse>;
}

export const MODERN = '2026-07-28';
const HEADER_MISMATCH = -32020;
const UNSUPPORTED_VERSION = -32004;

interface JsonRpcRequest {
  jsonrpc?: string;
  id?: string | number;
  method?: string;
  params?: { _meta?: Record<string, unknown>; name?: unknown; uri?: unknown; cursor?: unknown };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

export async function startModernMcp(options: ModernMcpOptions = {}): Promise<RunningSite> {
  const requests: RunningSite['requests'] = [];
  let routes: Record<string, CannedResponse> = {};
  let origin = '';
  const tools = options.tools ?? [DEFAULT_TOOL];
  const serverInfo = { name: options.name ?? 'modern-corpus-server', version: options.version ?? '2.0.0' };
  const cache = options.omitCacheHints ? {} : { ttlMs: 300000, cacheScope: 'public' };
  const complete = options.omitResultType ? {} : { resultType: 'complete' };

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      requests.push({ method: req.method ?? 'GET', path: url.pathname, origin: (req.headers.origin as string | undefined) ?? null });
      if (url.pathname !== '/mcp') {
        const canned = routes[url.pathname];
        if (!canned) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
        return void res.writeHead(canned.status ?? 200, { 'content-type': 'application/json', ...canned.headers }).end(canned.body ?? '');
      }
      // transports/streamable-http §Security: an Origin that is present and not ours gets 403.
      const requestOrigin = req.headers.origin;
      if (requestOrigin && requestOrigin !== origin) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden origin');
      const version = req.headers['mcp-protocol-version'];
      if (version !== MODERN) {
        if (options.legacy) {
          await serveStatelessSdk({ name: serverInfo.name, version: serverInfo.version, tools }, req, res);
          return;
        }
        // The revision removed the GET stream; anything else without our version is an unsupported version.
        if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
        return void json(res, 400, { jsonrpc: '2.0', id: null, error: { code: UNSUPPORTED_VERSION, message: 'Unsupported protocol version', data: { supported: [MODERN] } } });
      }
      if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
      let message: JsonRpcRequest;
      try {
        message = JSON.parse(await readBody(req)) as JsonRpcRequest;
      } catch {
        return void json(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      const headers: Record<string, string> = options.issueSessionId ? { 'mcp-session-id': 'corpus-session-1' } : {};
      if (message.id === undefined) return void res.writeHead(202, headers).end();
      const meta = message.params?._meta ?? {};
      const name = typeof message.params?.name === 'string' ? message.params.name : typeof message.params?.uri === 'string' ? message.params.uri : undefined;
      const mismatch =
        meta['io.modelcontextprotocol/protocolVersion'] !== version ||
        req.headers['mcp-method'] !== message.method ||
        (name !== undefined && req.headers['mcp-name'] !== name);
      if (mismatch && !options.ignoreHeaderMismatch) {
        return void json(res, 400, { jsonrpc: '2.0', id: message.id, error: { code: HEADER_MISMATCH, message: 'Request headers do not match the body' } }, headers);
      }
      const reply = (result: Record<string, unknown>) => json(res, 200, { jsonrpc: '2.0', id: message.id, result }, headers);
      switch (message.method) {
        case 'server/discover':
          return void reply({
            ...complete,
            supportedVersions: options.legacy ? [MODERN, '2025-11-25'] : [MODERN],
            capabilities: { tools: {} },
            serverInfo,
            instructions: 'A corpus server built from the MCP 2026-07-28 specification text.',
            ...cache,
          });
        case 'tools/list':
          return void reply({ ...complete, tools, ...cache });
        case 'tools/call':
          return void reply({ ...complete, content: [{ type: 'text', text: 'ok' }] });
        default:
          // transports §Protocol Version Header: an unknown method is 404 with -32601.
          return void json(res, 404, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }, headers);
      }
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  routes = options.routes?.(origin) ?? {};
  return {
    url: `${origin}/`,
    origin,
    mcpUrl: `${origin}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

// MCP 2026-07-28 on the same POST /mcp, answered by us: the official SDK on npm stops at 2025-11-25, and the revision
// is small for a server with tools only. It is stateless (no initialize, no Mcp-Session-Id): every request is its
// own POST naming its version in the MCP-Protocol-Version header and in params._meta, with Mcp-Method (and, for a
// tools/call, Mcp-Name) mirroring the body (basic/transports/streamable-http §Sending Messages, SEP-2243). Methods:
// server/discover, tools/list, tools/call, ping. Every result carries resultType; server/discover and tools/list
// carry cache hints (server/utilities/caching). Tools come from the registry the SDK path reads (endpoint.ts), so a
// tool added there is served by both revisions.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import type { McpIdentity, ToolRegistry } from './endpoint';
import { callTool } from './tool-call';

export const MODERN_REVISION = '2026-07-28';

/** JSON-RPC error codes: the standard ones, and the revision's HeaderMismatchError. */
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;

/** How long a client may keep server/discover and tools/list: the tools change only with a new release. */
const LIST_TTL_MS = 300_000;
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';

export interface ModernServer {
  identity: McpIdentity;
  capabilities: Record<string, unknown>;
  /** Every revision this endpoint speaks, newest first (2026-07-28 here, the rest through the SDK). */
  supportedVersions: string[];
  registry: ToolRegistry;
}

interface RpcRequest {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
}

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly status = 200,
  ) {
    super(message);
  }
}

/**
 * Whether a POST /mcp is ours: its MCP-Protocol-Version header names 2026-07-28, or it is a server/discover (a method
 * no earlier revision has, which a client may send before it knows our versions).
 */
export function isModernRequest(req: Request): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (version === MODERN_REVISION) return true;
  const body = req.body as RpcRequest | undefined;
  return version === undefined && !Array.isArray(body) && body?.method === 'server/discover';
}

/** Answers one 2026-07-28 POST (the body is already a JSON-RPC message: endpoint.ts refused anything else). */
export async function answerModern(server: ModernServer, req: Request, res: Response, signal: AbortSignal): Promise<void> {
  const body = req.body as RpcRequest | RpcRequest[];
  // JSON-RPC batches left MCP in 2025-06-18, and a 2026-07-28 client sends requests and notifications only.
  if (Array.isArray(body)) return send(res, 400, rpcError(null, INVALID_REQUEST, 'MCP 2026-07-28 takes one JSON-RPC message per POST, not a batch.'));
  if (typeof body.method !== 'string') return send(res, 400, rpcError(body.id ?? null, INVALID_REQUEST, 'An MCP 2026-07-28 client sends requests and notifications only.'));
  const mismatch = headerMismatch(req, body);
  if (mismatch) return send(res, 400, rpcError(body.id ?? null, HEADER_MISMATCH, mismatch));
  // A notification (no id) gets no answer; none of ours needs acting on (cancellation is the closed connection).
  if (body.id === undefined) return void res.status(202).end();
  try {
    const result = await dispatch(server, body.method, body.params ?? {}, req, res, signal);
    send(res, 200, { jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', ...result } });
  } catch (err) {
    if (err instanceof RpcError) return send(res, err.status, rpcError(body.id, err.code, err.message));
    // Internals go to the log under the request id, never to the caller.
    req.log.error({ err, requestId: req.requestId }, 'MCP 2026-07-28 request failed');
    send(res, 500, rpcError(body.id, INTERNAL_ERROR, `Something went wrong on our side; quote request id ${req.requestId} when reporting it.`));
  }
}

async function dispatch(server: ModernServer, method: string, params: Record<string, unknown>, req: Request, res: Response, signal: AbortSignal): Promise<Record<string, unknown>> {
  const cacheable = { ttlMs: LIST_TTL_MS, cacheScope: 'public' };
  switch (method) {
    case 'server/discover': {
      const { identity } = server;
      return {
        supportedVersions: server.supportedVersions,
        capabilities: server.capabilities,
        serverInfo: { name: identity.name, title: identity.title, version: identity.version },
        instructions: identity.instructions,
        ...cacheable,
      };
    }
    case 'tools/list':
      // One page: the list is short. The same for every caller (no sign-in), so public.
      return { tools: server.registry.listing(), ...cacheable };
    case 'tools/call':
      return (await toolsCall(server, params, req, res, signal)) as Record<string, unknown>;
    case 'ping':
      return {};
    default:
      throw new RpcError(METHOD_NOT_FOUND, `Method ${method} is not served over MCP ${MODERN_REVISION}; this server answers server/discover, tools/list, tools/call and ping.`);
  }
}

function toolsCall(server: ModernServer, params: Record<string, unknown>, req: Request, res: Response, signal: AbortSignal): Promise<CallToolResult> {
  const { name, arguments: args } = params;
  if (typeof name !== 'string') throw new RpcError(INVALID_PARAMS, 'tools/call needs params.name, the name of a tool.');
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) throw new RpcError(INVALID_PARAMS, 'params.arguments of tools/call must be an object.');
  const tool = server.registry.byName(name);
  if (!tool) throw new RpcError(INVALID_PARAMS, `Unknown tool ${name}; tools/list names the tools of this server.`);
  return callTool(tool, (args ?? {}) as Record<string, unknown>, req, res, signal);
}

/**
 * SEP-2243: gateways route on MCP-Protocol-Version, Mcp-Method and Mcp-Name, so a request whose headers are missing
 * or disagree with its body is refused. A server/discover sent without the version header (a client still choosing
 * its revision) is answered; any header it does carry must still agree.
 */
function headerMismatch(req: Request, body: RpcRequest): string | null {
  const header = (name: string): string | undefined => {
    const value = req.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const version = header('mcp-protocol-version');
  const metaVersion = (body.params?._meta as Record<string, unknown> | undefined)?.[META_VERSION];
  const method = header('mcp-method');
  // isModernRequest let in only two kinds: the version header names 2026-07-28, or none and a server/discover.
  const strict = version !== undefined;
  if (strict && metaVersion !== MODERN_REVISION) return `The MCP-Protocol-Version header and params._meta["${META_VERSION}"] must both name ${MODERN_REVISION}.`;
  if ((strict || method !== undefined) && method !== body.method) return 'The Mcp-Method header must repeat the method of the JSON-RPC body.';
  const name = body.method === 'tools/call' ? body.params?.name : undefined;
  if (typeof name === 'string' && header('mcp-name') !== name) return 'The Mcp-Name header must repeat params.name of the tools/call.';
  return null;
}

function rpcError(id: string | number | null, code: number, message: string): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** Written as the SDK writes its answers (not through res.json): a JSON-RPC body, whatever the status. */
function send(res: Response, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.status(status).setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}

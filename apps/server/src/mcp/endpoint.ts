// The /mcp route of a host, speaking two MCP revisions on one endpoint. MCP 2026-07-28 (a request whose
// MCP-Protocol-Version header names it, or a server/discover) is answered by our own small handler (modern.ts),
// because the official SDK on npm stops at 2025-11-25. Every other request goes to the SDK's low-level Server over its
// Streamable HTTP transport, stateless (a fresh server and transport per POST, no session id), answering in JSON; the
// SDK negotiates the older versions. Both read the same tool registry, so a tool is defined once. Tool arguments are
// checked against the tool's input schema; an invalid argument or an error of the operation becomes a tool result
// with isError and the HTTP error's code and message, never a crash (tool-call.ts).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, JSONRPCMessageSchema, ListToolsRequestSchema, McpError, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { ApiError, badRequest } from '../http/errors';
import { answerModern, isModernRequest, MODERN_REVISION, type ModernServer } from './modern';
import type { CheckedTool, Tool } from './tool';
import { callTool } from './tool-call';

export interface McpIdentity {
  /** serverInfo.name, also the name of the server card. */
  name: string;
  title: string;
  version: string;
  /** Shown to the client at initialize. */
  instructions: string;
}

export interface McpEndpointOptions {
  identity: McpIdentity;
  tools: CheckedTool[];
  /** Web origins that may call the endpoint from a browser; requests without Origin (agents, CLIs) are accepted. */
  allowedOrigins: string[];
}

/** The tools/list entry of a tool (also what the server card lists). */
export function toolListing(tool: Tool): Record<string, unknown> {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
}

/** The tools both revisions serve: one list, read by the SDK's handlers and by ours. */
export interface ToolRegistry {
  listing(): Record<string, unknown>[];
  byName(name: string): CheckedTool | undefined;
}

export function toolRegistry(tools: CheckedTool[]): ToolRegistry {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listing = tools.map(toolListing);
  return { listing: () => listing, byName: (name) => byName.get(name) };
}

/** What the server offers, the same at initialize (2025-11-25) and server/discover (2026-07-28). */
const CAPABILITIES = { tools: { listChanged: false } };

export function createMcpEndpoint(options: McpEndpointOptions) {
  const { identity, tools, allowedOrigins } = options;
  const registry = toolRegistry(tools);
  const modern: ModernServer = { identity, capabilities: CAPABILITIES, supportedVersions: [MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS], registry };

  const buildServer = (req: Request, res: Response, signal: AbortSignal): Server => {
    const server = new Server({ name: identity.name, title: identity.title, version: identity.version }, { capabilities: CAPABILITIES, instructions: identity.instructions });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: registry.listing() as never }));
    server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
      const tool = registry.byName(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names the tools of this server.`);
      return callTool(tool, (request.params.arguments ?? {}) as Record<string, unknown>, req, res, signal);
    });
    return server;
  };

  /** The operation handler of POST /mcp. */
  return async ({ req, res }: { req: Request; res: Response }): Promise<{ status: 200; streamed: true }> => {
    const origin = req.headers.origin;
    // MCP basic/transports: a present Origin that is not ours answers 403 (DNS rebinding protection).
    if (origin !== undefined && !allowedOrigins.includes(origin)) {
      throw new ApiError(403, 'origin_not_allowed', `Requests from the web origin ${origin} are not accepted by this MCP endpoint.`);
    }
    refuseNonJsonRpc(req.body);
    const aborted = new AbortController();
    res.on('close', () => aborted.abort());
    if (isModernRequest(req)) {
      await answerModern(modern, req, res, aborted.signal);
      return { status: 200, streamed: true };
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // The check above already answered; the SDK's own check stays on as a second line.
      enableDnsRebindingProtection: true,
      allowedOrigins,
    });
    const server = buildServer(req, res, aborted.signal);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    return { status: 200, streamed: true };
  };
}

/**
 * A body that is JSON but no JSON-RPC message (or an empty batch) is a malformed HTTP request: our 400 body, as for
 * any other operation, not a JSON-RPC error object (which the SDK would answer) nor a 202 for `[]`.
 */
function refuseNonJsonRpc(body: unknown): void {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) throw badRequest('The body is an empty JSON-RPC batch; send at least one JSON-RPC 2.0 message.');
  const bad = messages.findIndex((message) => !JSONRPCMessageSchema.safeParse(message).success);
  if (bad === -1) return;
  const where = Array.isArray(body) ? `Item ${bad} of the batch` : 'The body';
  throw badRequest(`${where} is not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a method, result or error).`);
}

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { GuardedFetch } from '../fetch/guarded-fetch';
import { GuardedFetchError } from '../fetch/errors';
import { CATALOG_VERSION } from '../version';
import type { McpArtifact, McpDiscovery, McpTool, McpUiResource } from './artifacts';
import { probeForeignOrigin } from './mcp-origin-probe';
import { discover, errorText, gatherModern, MODERN_REVISION, readResourceModern, type DiscoverOutcome } from './mcp-modern';

const MAX_TOOL_PAGES = 10;
const MAX_UI_RESOURCES = 5;

interface Observed {
  status: number | null;
  wwwAuthenticate: string | null;
  fetchError: GuardedFetchError | null;
  /** The POST was answered in MCP's own terms (a JSON-RPC message or an event stream), whatever came of it. */
  spokeJsonRpc: boolean;
}

export interface McpSessionOptions {
  fetch: GuardedFetch;
  signal?: AbortSignal;
  timeoutMs: number;
  source: McpArtifact['source'];
  /** How the endpoint was found, for evidence ("the server card at /.well-known/mcp/server-card.json"). */
  discovery?: McpDiscovery;
  /** Try the legacy HTTP+SSE transport when Streamable HTTP fails (default true; the /mcp probe stays at one request). */
  sseFallback?: boolean;
}

/**
 * The scanner judges tool schemas itself (mcp-tool-schemas) and never calls a tool, so the SDK client must not refuse
 * a whole tools/list because one outputSchema is invalid.
 */
const ACCEPT_ANY_SCHEMA: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

interface JsonRpcReply {
  jsonrpc?: unknown;
  error?: { code?: unknown };
}

function isMcpContentType(response: Response): boolean {
  return /text\/event-stream|json/i.test(response.headers.get('content-type') ?? '') || response.status === 202 || response.body === null;
}

async function answeredJsonRpc(response: Response): Promise<boolean> {
  const type = response.headers.get('content-type') ?? '';
  if (/text\/event-stream/i.test(type)) return true;
  if (!/json/i.test(type)) return false;
  try {
    const body = (await response.clone().json()) as JsonRpcReply | JsonRpcReply[];
    const reply = Array.isArray(body) ? body[0] : body;
    // "Method not found" for initialize is some other JSON-RPC service (a blockchain node, say), not an MCP server.
    return reply?.jsonrpc === '2.0' && reply.error?.code !== -32601;
  } catch {
    return false;
  }
}

/** Talks to an MCP endpoint with the official SDK client (Streamable HTTP, then legacy HTTP+SSE) over our guarded fetch. */
export async function gatherMcpSession(endpoint: string, options: McpSessionOptions): Promise<McpArtifact> {
  const artifact: McpArtifact = {
    endpoint,
    source: options.source,
    discovery: options.discovery ?? { via: options.source === 'target' ? 'the scanned URL' : 'a server card', url: null },
    transport: null,
    auth: { required: false, status: null, wwwAuthenticate: null, resourceMetadataUrl: null },
    initialize: { ok: false, protocolVersion: null, serverInfo: null, capabilities: null, instructions: null, error: null, fetchFailure: false, fetchErrorCode: null, spokeJsonRpc: false },
    tools: null,
    uiResources: [],
    originCheck: null,
    revisions: { judgedBy: null, discover: { status: null, supportedVersions: null }, legacy: null },
    modern: null,
  };
  // Revision detection (MCP 2026-07-28 basic/versioning): server/discover with the new headers first; a server listing
  // 2026-07-28 is judged by it, anything else gets the 2025-11-25 initialize of the official SDK client.
  const found = await discover(endpoint, { fetch: options.fetch, signal: options.signal });
  artifact.revisions.discover = { status: found.reply.status, supportedVersions: found.supportedVersions };
  if (found.speaksModern) return gatherModernSession(artifact, found, options);
  // The conventional /mcp probe stays at one request when nothing answers there: a plain 404 is no MCP endpoint of
  // any revision (a 2026-07-28 server answers an unknown method with a JSON-RPC body, transports §Protocol Version Header).
  if (options.sseFallback === false && found.reply.status === 404 && found.reply.message === null) {
    artifact.initialize.error = 'HTTP 404 (no MCP endpoint here)';
    return artifact;
  }
  const observed: Observed = { status: null, wwwAuthenticate: null, fetchError: null, spokeJsonRpc: false };
  // Remember what the endpoint answered, because the SDK reduces a 401 to an error message.
  const watchingFetch: GuardedFetch = async (input, init) => {
    try {
      const response = await options.fetch(input, init);
      if (sameEndpoint(input, endpoint) && (init?.method ?? 'GET').toUpperCase() === 'POST') {
        observed.status = response.status;
        observed.wwwAuthenticate = response.headers.get('www-authenticate');
        if (!observed.spokeJsonRpc) observed.spokeJsonRpc = await answeredJsonRpc(response);
        // An answer in neither of MCP's types ends the SDK's handshake at once; read it through first, so that an
        // answer that never completes (a drip, a stall mid-body) is a fetch failure of ours, not a broken handshake.
        if (!isMcpContentType(response)) await response.clone().arrayBuffer();
      }
      return response;
    } catch (error) {
      if (error instanceof GuardedFetchError) {
        observed.fetchError = error;
        observed.status = null; // this answer never completed: what it began to say is not what the server said
      }
      throw error;
    }
  };
  const requestOptions = { signal: options.signal, timeout: options.timeoutMs };

  let connected = await connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: watchingFetch }), requestOptions);
  if (connected.client) {
    artifact.transport = 'streamable-http';
  } else if (observed.status === 401) {
    recordAuth(artifact, observed, endpoint);
  } else if (options.sseFallback !== false && !observed.spokeJsonRpc && !options.signal?.aborted && (observed.status === null || observed.status === 404 || observed.status === 405 || observed.status === 400)) {
    // Servers built before 2025-03-26 speak HTTP+SSE: a GET opens the stream, POSTs go to the endpoint it announces.
    const sseObserved: Observed = { status: null, wwwAuthenticate: null, fetchError: null, spokeJsonRpc: false };
    const sseFetch: GuardedFetch = async (input, init) => {
      try {
        const response = await options.fetch(input, init);
        if (sameEndpoint(input, endpoint)) {
          sseObserved.status = response.status;
          sseObserved.wwwAuthenticate = response.headers.get('www-authenticate');
        }
        return response;
      } catch (error) {
        if (error instanceof GuardedFetchError) sseObserved.fetchError = error;
        throw error;
      }
    };
    const sse = await connect(new SSEClientTransport(new URL(endpoint), { fetch: sseFetch, eventSourceInit: { fetch: sseFetch } }), requestOptions);
    if (sse.client) {
      connected = sse;
      artifact.transport = 'sse';
    } else if (sseObserved.status === 401) {
      recordAuth(artifact, sseObserved, endpoint);
    }
  }

  const client = connected.client;
  if (!client) {
    if (!artifact.auth.required) {
      artifact.initialize.error = connected.error ?? 'The endpoint did not complete an MCP initialize handshake';
      artifact.initialize.fetchFailure = observed.status === null && observed.fetchError !== null;
      artifact.initialize.fetchErrorCode = artifact.initialize.fetchFailure ? observed.fetchError!.code : null;
      artifact.initialize.spokeJsonRpc = observed.spokeJsonRpc;
      artifact.revisions.legacy = { ok: false, protocolVersion: null, error: artifact.initialize.error };
    }
    return artifact;
  }
  try {
    const serverInfo = client.getServerVersion();
    artifact.initialize = {
      ok: true,
      protocolVersion: connected.protocolVersion,
      serverInfo: serverInfo ? { name: serverInfo.name, version: serverInfo.version, title: (serverInfo as { title?: string }).title } : null,
      capabilities: (client.getServerCapabilities() as Record<string, unknown> | undefined) ?? null,
      instructions: client.getInstructions() ?? null,
      error: null,
      fetchFailure: false,
      fetchErrorCode: null,
      spokeJsonRpc: true,
    };
    artifact.revisions.legacy = { ok: true, protocolVersion: artifact.initialize.protocolVersion, error: null };
    artifact.revisions.judgedBy = artifact.initialize.protocolVersion;
    const [tools, originCheck] = await Promise.all([
      listTools(client, requestOptions),
      probeForeignOrigin(endpoint, { fetch: options.fetch, signal: options.signal, protocolVersion: artifact.initialize.protocolVersion, transport: artifact.transport ?? 'streamable-http' }),
    ]);
    artifact.tools = tools;
    artifact.originCheck = originCheck;
    artifact.uiResources = await readUiResources(client, artifact.tools.items, requestOptions);
  } finally {
    await client.close().catch(() => undefined);
  }
  return artifact;
}

/** A server listing 2026-07-28 in server/discover: a stateless exchange, and the 2025-11-25 initialize only to confirm a claimed older revision. */
async function gatherModernSession(artifact: McpArtifact, found: DiscoverOutcome, options: McpSessionOptions): Promise<McpArtifact> {
  const endpoint = artifact.endpoint;
  const client = { fetch: options.fetch, signal: options.signal };
  const result = found.reply.message?.result ?? {};
  const info = result.serverInfo as { name?: unknown; version?: unknown; title?: unknown } | undefined;
  artifact.transport = 'streamable-http';
  artifact.revisions.judgedBy = MODERN_REVISION;
  artifact.initialize = {
    ok: true,
    protocolVersion: MODERN_REVISION,
    serverInfo: info && typeof info.name === 'string' ? { name: info.name, version: typeof info.version === 'string' ? info.version : undefined, title: typeof info.title === 'string' ? info.title : undefined } : null,
    capabilities: (result.capabilities as Record<string, unknown> | undefined) ?? null,
    instructions: typeof result.instructions === 'string' ? result.instructions : null,
    error: null,
    fetchFailure: false,
    fetchErrorCode: null,
    spokeJsonRpc: true,
  };
  const claimsOlder = found.supportedVersions?.some((v) => v !== MODERN_REVISION) ?? false;
  const [session, originCheck, legacy] = await Promise.all([
    gatherModern(endpoint, found, client),
    probeForeignOrigin(endpoint, { fetch: options.fetch, signal: options.signal, protocolVersion: MODERN_REVISION, transport: 'streamable-http' }),
    claimsOlder ? confirmLegacy(endpoint, options) : Promise.resolve(null),
  ]);
  artifact.modern = session.modern;
  artifact.tools = session.tools;
  artifact.originCheck = originCheck;
  artifact.revisions.legacy = legacy;
  const uris = [...new Set(session.tools.items.map(uiResourceUriOf).filter((u): u is string => u !== null))].slice(0, MAX_UI_RESOURCES);
  artifact.uiResources = await Promise.all(
    uris.map(async (uri): Promise<McpUiResource> => {
      if (!uri.startsWith('ui://')) return { uri, ok: false, mimeType: null, text: null, meta: null, error: 'The resource URI does not use the ui:// scheme' };
      const { reply, hints } = await readResourceModern(endpoint, uri, client);
      session.modern.results.push(hints);
      const contents = reply.message?.result?.contents;
      const content = (Array.isArray(contents) ? contents[0] : undefined) as { mimeType?: string; text?: string; _meta?: Record<string, unknown> } | undefined;
      const error = reply.error ?? errorText(reply) ?? (content ? null : 'resources/read returned no contents');
      return { uri, ok: Boolean(content), mimeType: content?.mimeType ?? null, text: content?.text ?? null, meta: content?._meta ?? null, error: content ? null : error };
    }),
  );
  return artifact;
}

/** One 2025-11-25 initialize with the SDK client, closed at once: does the server really speak the older revision it lists? */
async function confirmLegacy(endpoint: string, options: McpSessionOptions): Promise<NonNullable<McpArtifact['revisions']['legacy']>> {
  const connected = await connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch: options.fetch }), { signal: options.signal, timeout: options.timeoutMs });
  if (!connected.client) return { ok: false, protocolVersion: null, error: connected.error };
  await connected.client.close().catch(() => undefined);
  return { ok: true, protocolVersion: connected.protocolVersion, error: null };
}

async function connect(transport: Transport, requestOptions: { signal?: AbortSignal; timeout: number }): Promise<{ client: Client | null; transport: Transport; error: string | null; protocolVersion: string | null }> {
  // The client hands the negotiated version to the transport; HTTP+SSE keeps no copy, so note it on the way.
  let protocolVersion: string | null = null;
  const setter = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (version: string) => {
    protocolVersion = version;
    setter?.(version);
  };
  const client = new Client({ name: 'AgentReadinessScanner', version: CATALOG_VERSION }, { capabilities: {}, jsonSchemaValidator: ACCEPT_ANY_SCHEMA });
  // The SDK reports background stream problems here; they are not scan failures.
  client.onerror = () => undefined;
  try {
    await client.connect(transport, requestOptions);
    return { client, transport, error: null, protocolVersion };
  } catch (error) {
    await client.close().catch(() => undefined);
    return { client: null, transport, error: error instanceof Error ? error.message : String(error), protocolVersion: null };
  }
}

async function listTools(client: Client, requestOptions: { signal?: AbortSignal; timeout: number }): Promise<NonNullable<McpArtifact['tools']>> {
  const items: McpTool[] = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, requestOptions);
      items.push(...(result.tools as McpTool[]));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return { ok: true, items, error: null };
  } catch (error) {
    return { ok: false, items, error: error instanceof Error ? error.message : String(error) };
  }
}

export function uiResourceUriOf(tool: McpTool): string | null {
  const meta = tool._meta ?? {};
  const ui = meta.ui as { resourceUri?: unknown } | undefined;
  const uri = ui?.resourceUri ?? meta['ui/resourceUri'];
  return typeof uri === 'string' ? uri : null;
}

async function readUiResources(client: Client, tools: McpTool[], requestOptions: { signal?: AbortSignal; timeout: number }): Promise<McpUiResource[]> {
  const uris = [...new Set(tools.map(uiResourceUriOf).filter((u): u is string => u !== null))].slice(0, MAX_UI_RESOURCES);
  return Promise.all(
    uris.map(async (uri): Promise<McpUiResource> => {
      if (!uri.startsWith('ui://')) return { uri, ok: false, mimeType: null, text: null, meta: null, error: 'The resource URI does not use the ui:// scheme' };
      try {
        const result = await client.readResource({ uri }, requestOptions);
        const content = result.contents[0] as { mimeType?: string; text?: string; _meta?: Record<string, unknown> } | undefined;
        return { uri, ok: Boolean(content), mimeType: content?.mimeType ?? null, text: content?.text ?? null, meta: content?._meta ?? null, error: content ? null : 'resources/read returned no contents' };
      } catch (error) {
        return { uri, ok: false, mimeType: null, text: null, meta: null, error: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

function recordAuth(artifact: McpArtifact, observed: Observed, endpoint: string): void {
  const header = observed.wwwAuthenticate;
  const match = header ? /resource_metadata="?([^",\s]+)"?/i.exec(header) : null;
  let resourceMetadataUrl: string | null = null;
  if (match) {
    try {
      resourceMetadataUrl = new URL(match[1], endpoint).href;
    } catch {
      resourceMetadataUrl = null;
    }
  }
  artifact.auth = { required: true, status: observed.status, wwwAuthenticate: header, resourceMetadataUrl };
}

function sameEndpoint(input: string | URL | Request, endpoint: string): boolean {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  try {
    const a = new URL(href);
    const b = new URL(endpoint);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

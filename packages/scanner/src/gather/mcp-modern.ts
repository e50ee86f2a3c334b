import type { GuardedFetch } from '../fetch/guarded-fetch';
import { GuardedFetchError } from '../fetch/errors';
import { CATALOG_VERSION } from '../version';
import type { McpModern, McpResultHints, McpTool } from './artifacts';

/**
 * MCP 2026-07-28 is stateless (SEP-2575, SEP-2567): no initialize, no Mcp-Session-Id, no GET stream. Every request is
 * its own POST carrying its protocol version twice, in the MCP-Protocol-Version header and in params._meta
 * (basic/transports/streamable-http §Sending Messages), plus the Mcp-Method / Mcp-Name mirror headers (SEP-2243). The
 * official TypeScript SDK on npm (1.32.2) stops at 2025-11-25, so this small client speaks the new revision by hand.
 */
export const MODERN_REVISION = '2026-07-28';
export const LEGACY_REVISION = '2025-11-25';
/** JSON-RPC code of a header that is missing or disagrees with the body (2026-07-28 schema, HeaderMismatchError). */
export const HEADER_MISMATCH_CODE = -32020;

const MAX_TOOL_PAGES = 10;

export interface RpcReply {
  status: number | null;
  headers: Headers | null;
  message: { result?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } } | null;
  error: string | null;
  /** The failure was on our side of the wire (timeout, DNS...), so nothing may be concluded about the server. */
  fetchFailure: boolean;
}

export interface ModernClientOptions {
  fetch: GuardedFetch;
  signal?: AbortSignal;
}

let nextId = 1;

/** The request as the 2026-07-28 transport wants it; `override` lets a probe send deliberately wrong headers. */
export async function postModern(endpoint: string, method: string, params: Record<string, unknown>, options: ModernClientOptions & { override?: Record<string, string> }): Promise<RpcReply> {
  const id = nextId++;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
    'io.modelcontextprotocol/clientInfo': { name: 'AgentReadinessScanner', version: CATALOG_VERSION },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const name = typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : null;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN_REVISION,
    'mcp-method': method,
    ...(name !== null ? { 'mcp-name': name } : {}),
    ...options.override,
  };
  try {
    const response = await options.fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
      signal: options.signal,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, message: parseReply(text, response.headers.get('content-type') ?? '', id), error: null, fetchFailure: false };
  } catch (error) {
    return { status: null, headers: null, message: null, error: error instanceof Error ? error.message : String(error), fetchFailure: error instanceof GuardedFetchError };
  }
}

/** A JSON body, or the event of an SSE stream scoped to the request that carries its response (by id). */
function parseReply(text: string, contentType: string, id: number): RpcReply['message'] {
  const candidates: unknown[] = [];
  if (/text\/event-stream/i.test(contentType)) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) candidates.push(tryJson(data));
    }
  } else {
    const body = tryJson(text);
    candidates.push(...(Array.isArray(body) ? body : [body]));
  }
  const reply = candidates.find((c) => isRecord(c) && c.id === id && ('result' in c || 'error' in c)) ?? candidates.find((c) => isRecord(c) && ('result' in c || 'error' in c));
  return isRecord(reply) ? (reply as RpcReply['message']) : null;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hintsOf(method: string, reply: RpcReply): McpResultHints {
  const result = reply.message?.result ?? {};
  return { method, resultType: result.resultType ?? null, ttlMs: result.ttlMs ?? null, cacheScope: result.cacheScope ?? null };
}

function sessionIdOf(reply: RpcReply): string | null {
  return reply.headers?.get('mcp-session-id') ?? null;
}

/** What server/discover answered: a 2026-07-28 server lists the revision in supportedVersions (server/discover §Response). */
export interface DiscoverOutcome {
  reply: RpcReply;
  supportedVersions: string[] | null;
  speaksModern: boolean;
}

export async function discover(endpoint: string, options: ModernClientOptions): Promise<DiscoverOutcome> {
  const reply = await postModern(endpoint, 'server/discover', {}, options);
  const versions = reply.message?.result?.supportedVersions;
  const supportedVersions = Array.isArray(versions) ? versions.filter((v): v is string => typeof v === 'string') : null;
  return { reply, supportedVersions, speaksModern: supportedVersions?.includes(MODERN_REVISION) ?? false };
}

/**
 * The rest of a stateless session after server/discover: tools/list (paginated), one request whose Mcp-Method header
 * disagrees with its body (the server MUST reject it, SEP-2243), and the session ids the server tried to hand out.
 */
export async function gatherModern(endpoint: string, found: DiscoverOutcome, options: ModernClientOptions): Promise<{ modern: McpModern; tools: { ok: boolean; items: McpTool[]; error: string | null } }> {
  const results: McpResultHints[] = [hintsOf('server/discover', found.reply)];
  const sessionIds: string[] = [];
  const discoverSession = sessionIdOf(found.reply);
  if (discoverSession) sessionIds.push(discoverSession);
  const items: McpTool[] = [];
  let toolsError: string | null = null;
  let cursor: string | undefined;
  const [, mismatch] = await Promise.all([
    (async () => {
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const reply = await postModern(endpoint, 'tools/list', cursor ? { cursor } : {}, options);
        const session = sessionIdOf(reply);
        if (session) sessionIds.push(session);
        const result = reply.message?.result;
        if (!result || !Array.isArray(result.tools)) {
          toolsError = reply.error ?? errorText(reply) ?? `tools/list answered HTTP ${reply.status} without a result`;
          return;
        }
        results.push(hintsOf('tools/list', reply));
        items.push(...(result.tools as McpTool[]));
        cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
        if (!cursor) return;
      }
    })(),
    postModern(endpoint, 'tools/list', {}, { ...options, override: { 'mcp-method': 'server/discover' } }),
  ]);
  const mismatchCode = mismatch.message?.error?.code;
  return {
    modern: {
      supportedVersions: found.supportedVersions ?? [],
      results,
      sessionIds,
      headerMismatch: {
        status: mismatch.status,
        errorCode: typeof mismatchCode === 'number' ? mismatchCode : null,
        answered: Boolean(mismatch.message?.result),
        fetchFailure: mismatch.fetchFailure,
      },
    },
    tools: { ok: toolsError === null, items, error: toolsError },
  };
}

export function errorText(reply: RpcReply): string | null {
  const error = reply.message?.error;
  if (!error) return null;
  return `JSON-RPC error ${String(error.code)}: ${typeof error.message === 'string' ? error.message.slice(0, 200) : 'no message'}`;
}

/** resources/read for an MCP Apps view, the stateless way. */
export async function readResourceModern(endpoint: string, uri: string, options: ModernClientOptions): Promise<{ reply: RpcReply; hints: McpResultHints }> {
  const reply = await postModern(endpoint, 'resources/read', { uri }, options);
  return { reply, hints: hintsOf('resources/read', reply) };
}

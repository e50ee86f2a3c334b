import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { GuardedFetch } from '../fetch/guarded-fetch';
import { CATALOG_VERSION } from '../version';
import type { McpOriginCheck } from './artifacts';
import { MODERN_REVISION, postModern } from './mcp-modern';

/** A browser origin no real page has (.invalid is reserved by RFC 6761), so no server can mean to allow it. */
export const FOREIGN_ORIGIN = 'https://dns-rebinding-check.invalid';

/**
 * MCP 2025-11-25 (basic/transports §2.0.1): servers MUST validate Origin, and answer 403 when it is present and
 * invalid, or a web page can reach a local or intranet server through DNS rebinding. We send one initialize as a
 * page on a foreign origin would (for HTTP+SSE, the GET that opens the stream), and record what came back. A session
 * it opened is closed right away.
 */
export async function probeForeignOrigin(endpoint: string, options: { fetch: GuardedFetch; signal?: AbortSignal; protocolVersion: string | null; transport: 'streamable-http' | 'sse' }): Promise<McpOriginCheck> {
  // The 2024-11-05 HTTP+SSE transport carries the same MUST; its connections start with the GET that opens the stream.
  if (options.transport === 'sse') return probeSseStream(endpoint, options);
  // A 2026-07-28 server has no initialize: ask server/discover as that page would (transports/streamable-http §Security).
  if (options.protocolVersion === MODERN_REVISION) {
    const reply = await postModern(endpoint, 'server/discover', {}, { fetch: options.fetch, signal: options.signal, override: { origin: FOREIGN_ORIGIN } });
    return { origin: FOREIGN_ORIGIN, status: reply.status, error: reply.status === null ? reply.error : null };
  }
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'AgentReadinessScanner', version: CATALOG_VERSION } },
  });
  try {
    const response = await options.fetch(endpoint, {
      method: 'POST',
      headers: { origin: FOREIGN_ORIGIN, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
      signal: options.signal,
    });
    await response.body?.cancel().catch(() => undefined);
    const session = response.headers.get('mcp-session-id');
    if (response.ok && session) {
      await options
        .fetch(endpoint, { method: 'DELETE', headers: { origin: FOREIGN_ORIGIN, 'mcp-session-id': session }, signal: options.signal })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
    }
    return { origin: FOREIGN_ORIGIN, status: response.status, error: null };
  } catch (error) {
    return { origin: FOREIGN_ORIGIN, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

async function probeSseStream(endpoint: string, options: { fetch: GuardedFetch; signal?: AbortSignal }): Promise<McpOriginCheck> {
  try {
    const response = await options.fetch(endpoint, { method: 'GET', headers: { origin: FOREIGN_ORIGIN, accept: 'text/event-stream' }, signal: options.signal });
    // Closing the stream ends the session the server opened for it.
    await response.body?.cancel().catch(() => undefined);
    return { origin: FOREIGN_ORIGIN, status: response.status, error: null };
  } catch (error) {
    return { origin: FOREIGN_ORIGIN, status: null, error: error instanceof Error ? error.message : String(error) };
  }
}

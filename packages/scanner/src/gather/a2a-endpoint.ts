// Verified, not declared (issue 39): the agent card's JSON-RPC interface is asked something that can only be refused,
// a method that does not exist. A live A2A endpoint answers with a JSON-RPC envelope (A2A 1.0 §9: JSON-RPC 2.0 over
// HTTP; an unknown method is error -32601), an endpoint behind sign-in answers 401/403 with WWW-Authenticate, and
// a card that points at nothing gets a refused connection, a 404 or an HTML page. Nothing is changed by the probe.
// It goes through the scan's guarded fetch like every request (private addresses, sizes, time and the request budget).
import { isGuardedFetchError, type GuardedFetchErrorCode } from '../fetch/errors';
import type { GuardedFetch } from '../fetch/guarded-fetch';
import { parseJsonObject } from '../util/json';
import { httpUrl } from '../util/url';
import type { FetchedDoc } from './artifacts';

export interface A2aEndpointProbe {
  /** The interface the card names (its first JSON-RPC one, else its first). */
  url: string;
  /** Its protocolBinding as the card spells it (`JSONRPC`, `GRPC`, `HTTP+JSON`); A2A 0.3's preferredTransport. */
  binding: string;
  /** Whether we asked it (we speak JSON-RPC only); false leaves the verdict to the card alone. */
  asked: boolean;
  status: number | null;
  contentType: string | null;
  /** The answer is a JSON-RPC 2.0 envelope (a result or an error object): a live endpoint. */
  jsonRpc: boolean;
  wwwAuthenticate: string | null;
  /** Why no answer came, and whose fault that is (checks/declared-endpoint.ts). */
  error: string | null;
  errorCode: GuardedFetchErrorCode | null;
}

const PROBE = JSON.stringify({ jsonrpc: '2.0', id: 'agent-readiness-probe', method: 'agent-readiness/no-such-method', params: {} });
const isJsonRpc = (binding: string): boolean => /^json-?rpc$/i.test(binding.trim());

/** The interface a card names: 1.0's supportedInterfaces (a JSON-RPC one first), else 0.3's url and preferredTransport. */
export function a2aInterfaceOf(card: Record<string, unknown>, base: string): { url: string; binding: string } | null {
  const interfaces = Array.isArray(card.supportedInterfaces) ? (card.supportedInterfaces as unknown[]) : [];
  const named = interfaces
    .map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>) : {}))
    .map((i) => ({ url: httpUrl(i.url, base), binding: typeof i.protocolBinding === 'string' ? i.protocolBinding : 'JSONRPC' }))
    .filter((i): i is { url: string; binding: string } => i.url !== null);
  const chosen = named.find((i) => isJsonRpc(i.binding)) ?? named[0];
  if (chosen) return chosen;
  const url = httpUrl(card.url, base);
  // A2A 0.3: preferredTransport defaults to JSONRPC.
  return url ? { url, binding: typeof card.preferredTransport === 'string' ? card.preferredTransport : 'JSONRPC' } : null;
}

/** Asks the card's interface a method that does not exist; null when the card is not readable or names none. */
export async function probeA2aEndpoint(fetch: GuardedFetch, doc: FetchedDoc | undefined, signal: AbortSignal): Promise<A2aEndpointProbe | null> {
  if (!doc || doc.status !== 200) return null;
  const card = parseJsonObject(doc.body);
  const named = card ? a2aInterfaceOf(card, doc.finalUrl ?? doc.url) : null;
  if (!named) return null;
  const probe: A2aEndpointProbe = { ...named, asked: isJsonRpc(named.binding), status: null, contentType: null, jsonRpc: false, wwwAuthenticate: null, error: null, errorCode: null };
  if (!probe.asked) return probe;
  try {
    const response = await fetch(named.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: PROBE, signal });
    probe.status = response.status;
    probe.contentType = response.headers.get('content-type');
    probe.wwwAuthenticate = response.headers.get('www-authenticate');
    const answer = parseJsonObject(await response.text());
    probe.jsonRpc = answer?.jsonrpc === '2.0' && (typeof answer.error === 'object' || 'result' in answer);
  } catch (err) {
    probe.error = err instanceof Error ? err.message : String(err);
    probe.errorCode = isGuardedFetchError(err) ? err.code : 'network';
  }
  return probe;
}

// One delivery attempt: a signed POST through the scanner's guarded fetch (the scans' SSRF policy: public addresses
// on web ports only unless private networks are allowed, DNS pinned, checked again at every attempt), no redirect
// followed, a bounded time, and at most a few kilobytes of the answer read. The outcome is in our own words: a
// receiver's text never becomes ours (it could be anything, including someone else's secrets).
import { createGuardedFetch, isGuardedFetchError, type FetchPolicy } from '@arl/scanner';
import { Webhook } from 'standardwebhooks';

export interface SendRequest {
  url: string;
  /** The `webhook-id`: the delivery's id, the same on every attempt. */
  id: string;
  /** The exact JSON body that is signed. */
  body: string;
  secret: string;
  now: Date;
}

export type SendOutcome =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string };

/** Bytes of the receiver's answer read at most (then the connection is dropped); the answer is never stored. */
export const MAX_ANSWER_BYTES = 64 * 1024;

export function signatureHeaders(request: Pick<SendRequest, 'id' | 'body' | 'secret' | 'now'>): Record<string, string> {
  const timestamp = Math.floor(request.now.getTime() / 1000);
  return {
    'webhook-id': request.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': new Webhook(request.secret).sign(request.id, new Date(timestamp * 1000), request.body),
  };
}

export async function sendWebhook(
  request: SendRequest,
  options: { policy: Partial<FetchPolicy>; timeoutMs: number; signal?: AbortSignal },
): Promise<SendOutcome> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const guardedFetch = createGuardedFetch({
    ...options.policy,
    requestTimeoutMs: options.timeoutMs,
    maxResponseBytes: MAX_ANSWER_BYTES,
    maxRedirects: 0,
    signal,
  });
  try {
    const response = await guardedFetch(request.url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json', ...signatureHeaders(request) },
      body: request.body,
    });
    // Drain a little of the answer so a keep-alive connection is left clean, never more than the bound.
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    const redirect = response.status >= 300 && response.status < 400 ? ' (redirects are not followed)' : '';
    return { ok: false, status: response.status, error: `The URL answered HTTP ${response.status}${redirect}.` };
  } catch (err) {
    if (options.signal?.aborted) throw err; // our own shutdown or lost lease: not the receiver's failure
    // A 2xx with an oversized answer still acknowledged the delivery; only the answer was not read.
    if (isGuardedFetchError(err) && err.code === 'too_large' && err.status !== undefined && err.status >= 200 && err.status < 300) {
      return { ok: true, status: err.status };
    }
    return { ok: false, status: isGuardedFetchError(err) ? err.status ?? null : null, error: describeFailure(err, options.timeoutMs) };
  }
}

function describeFailure(err: unknown, timeoutMs: number): string {
  if (!isGuardedFetchError(err)) return 'The request could not be sent.';
  switch (err.code) {
    case 'blocked_address':
      return 'The URL resolves to an address deliveries may not reach (private, loopback or link-local, or a port other than 80, 443, 8080, 8443).';
    case 'dns':
      return 'The host name could not be resolved (DNS).';
    case 'refused':
      return 'The connection was refused.';
    case 'tls':
      return 'The TLS handshake failed.';
    case 'timeout':
    case 'aborted':
      return `No answer within ${Math.round(timeoutMs / 100) / 10} s.`;
    case 'too_large':
      return 'The answer was too large.';
    case 'bad_scheme':
    case 'invalid_url':
      return 'The URL is not a valid http(s) URL.';
    default:
      return 'The connection failed.';
  }
}

import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
import { classifyNetworkError, GuardedFetchError } from './errors';
import { parseHttpUrl } from './check-scannable-url';
import { HostLimiter } from './host-limiter';
import { FetchPolicy, resolveFetchPolicy, ResolvedFetchPolicy } from './policy';
import { resolvePublicAddress, ResolvedAddress } from './resolve';
import { isIpLiteral, isLoopbackAddress, isPublicAddress, stripBrackets } from './address-policy';

export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A guarded fetch that keeps its connections open between requests, until close(). */
export type ReusingGuardedFetch = GuardedFetch & {
  /** Closes every kept connection (idle or not); requests made after it open connections again. Idempotent. */
  close(): void;
};

/** How long a kept connection may sit idle before it is closed (a scan's requests to one host come in bursts). */
const IDLE_CONNECTION_MS = 5_000;

/**
 * A request header of ours, never sent: a request carrying it goes out without a Web Bot Auth signature, so the scan
 * can tell a site that challenges unsigned requests from one that challenges ours.
 */
export const UNSIGNED_HEADER = 'x-arl-unsigned';

interface OutgoingRequest {
  url: string;
  method: string;
  headers: Headers;
  body: Buffer | null;
  redirect: NonNullable<RequestInit['redirect']>;
  signal: AbortSignal | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * The only way the scanner talks to the network. Every hop is re-validated and connected to the address we
 * checked (DNS pinning), so neither a redirect nor a rebinding DNS answer can reach a private network.
 */
/** Tests only: route a vetted public address to a local server, to prove redirects and rebinding are re-checked. */
export interface GuardedFetchTestHooks {
  dial?: (vetted: ResolvedAddress) => ResolvedAddress;
}

export function createGuardedFetch(
  policyInput?: Partial<FetchPolicy> & { signal?: AbortSignal; reuseConnections?: false },
  testHooks?: GuardedFetchTestHooks,
): GuardedFetch;
/**
 * With `reuseConnections`, requests to one origin share kept-alive connections (issue 30: a scan's ~50 requests each
 * opened a TCP connection and a TLS handshake, three round trips apiece). The caller closes them with close() when
 * the scan ends; the scan's signal closes them too.
 */
export function createGuardedFetch(
  policyInput: Partial<FetchPolicy> & { signal?: AbortSignal; reuseConnections: true },
  testHooks?: GuardedFetchTestHooks,
): ReusingGuardedFetch;
export function createGuardedFetch(
  policyInput: Partial<FetchPolicy> & { signal?: AbortSignal; reuseConnections?: boolean } = {},
  testHooks: GuardedFetchTestHooks = {},
): GuardedFetch | ReusingGuardedFetch {
  const { signal: scanSignal, reuseConnections, ...rest } = policyInput;
  const policy = resolveFetchPolicy(rest);
  const agents = reuseConnections ? new ConnectionPools() : null;
  if (agents && scanSignal) {
    if (scanSignal.aborted) agents.close();
    else scanSignal.addEventListener('abort', () => agents.close(), { once: true });
  }
  const limiter = new HostLimiter(policy.perHostConcurrency);
  const secureContext = policy.extraCaPem ? trustingContext(policy.extraCaPem) : undefined;
  // One answer per hostname per scan: later requests reuse the address we already vetted.
  const dnsCache = new Map<string, Promise<ResolvedAddress>>();

  const resolve = (hostname: string, url: string): Promise<ResolvedAddress> => {
    let pending = dnsCache.get(hostname);
    if (!pending) {
      pending = resolvePublicAddress(hostname, policy, url);
      dnsCache.set(hostname, pending);
      pending.catch(() => dnsCache.delete(hostname));
    }
    return pending;
  };

  const guardedFetch: GuardedFetch = async function guardedFetch(input, init) {
    const request = await normalizeRequest(input, init);
    const signals = [scanSignal, request.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    let { url, method, body } = request;
    const headers = new Headers(request.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', policy.userAgent);
    if (!headers.has('accept')) headers.set('accept', '*/*');
    if (!headers.has('accept-encoding')) headers.set('accept-encoding', 'gzip, deflate, br');
    const unsigned = headers.has(UNSIGNED_HEADER);
    headers.delete(UNSIGNED_HEADER);

    for (let hop = 0; ; hop++) {
      throwIfAborted(signal, url);
      const parsed = parseHttpUrl(url);
      if (!parsed.ok) throw new GuardedFetchError(parsed.code, parsed.reason, url);
      const vetted = await resolve(parsed.url.hostname, url);
      const port = Number(parsed.url.port || (parsed.url.protocol === 'https:' ? 443 : 80));
      if (policy.loopbackOnly && !isLoopbackAddress(vetted.address)) throw new GuardedFetchError('blocked_address', `${vetted.address} is not a loopback address (loopback only)`, url);
      if (policy.publicPorts && !policy.publicPorts.includes(port) && isPublicAddress(vetted.address)) {
        throw new GuardedFetchError('blocked_address', `Port ${port} of a public host is not fetched (only ${policy.publicPorts.join(', ')})`, url);
      }
      const address = testHooks.dial ? testHooks.dial(vetted) : vetted;
      // Each hop is signed for its own authority; the signature covers nothing a redirect could carry elsewhere.
      if (policy.signer && !unsigned) {
        for (const [name, value] of Object.entries(await policy.signer.headersFor(method, parsed.url))) headers.set(name, value);
      }
      const agent = agents?.for(parsed.url.protocol, address) ?? false;
      const response = await requestOnce(parsed.url, address, method, headers, body, policy, limiter, signal, secureContext, agent);
      if (!REDIRECT_STATUSES.has(response.status) || request.redirect === 'manual') {
        return withUrl(response, url, hop > 0);
      }
      await response.body?.cancel().catch(() => undefined);
      if (request.redirect === 'error') throw new GuardedFetchError('too_many_redirects', `Redirect refused for ${url}`, url);
      if (hop >= policy.maxRedirects) {
        throw new GuardedFetchError('too_many_redirects', `More than ${policy.maxRedirects} redirects starting at ${request.url}`, url);
      }
      const location = response.headers.get('location');
      if (!location) return withUrl(response, url, hop > 0);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new GuardedFetchError('invalid_url', `Redirect to an invalid location "${location}"`, url);
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = null;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      if (next.origin !== new URL(url).origin) {
        headers.delete('authorization');
        headers.delete('cookie');
      }
      url = next.href;
    }
  };
  if (!agents) return guardedFetch;
  return Object.assign(guardedFetch, { close: () => agents.close() });
}

/**
 * Kept-alive connections, one agent per address dialled: a connection is only ever reused for the address it was
 * opened to, which was vetted (and pinned by the lookup below) when it was opened. Within an agent, Node keys its
 * connections by host, port and TLS server name, so a connection opened for one name never serves another.
 */
class ConnectionPools {
  private readonly agents = new Map<string, http.Agent>();
  private closed = false;

  for(protocol: string, address: ResolvedAddress): http.Agent | false {
    if (this.closed) return false;
    const key = `${protocol}//${address.family}/${address.address}`;
    let agent = this.agents.get(key);
    if (!agent) {
      // `timeout`: an idle kept connection is closed after it (Node's agent destroys a free socket that times out).
      const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' as const };
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }

  close(): void {
    this.closed = true;
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/**
 * A TLS context trusting Node's bundled roots and `extraCaPem`, built once per distinct PEM: parsing ~150 roots for
 * every connection would cost more than the handshake (a scan opens a connection per host, more without reuse).
 */
const trustingContexts = new Map<string, tls.SecureContext>();
function trustingContext(extraCaPem: string): tls.SecureContext {
  let context = trustingContexts.get(extraCaPem);
  if (!context) {
    context = tls.createSecureContext({ ca: [...tls.rootCertificates, extraCaPem] });
    trustingContexts.set(extraCaPem, context);
  }
  return context;
}

async function normalizeRequest(input: string | URL | Request, init: RequestInit = {}): Promise<OutgoingRequest> {
  let url: string;
  let method = 'GET';
  let headers = new Headers();
  let body: Buffer | null = null;
  let redirect: NonNullable<RequestInit['redirect']> = 'follow';
  let signal: AbortSignal | undefined;
  if (typeof input === 'string' || input instanceof URL) {
    url = String(input);
  } else {
    url = input.url;
    method = input.method;
    headers = new Headers(input.headers);
    redirect = input.redirect;
    signal = input.signal;
    if (input.body) body = Buffer.from(await input.arrayBuffer());
  }
  if (init.method) method = init.method.toUpperCase();
  if (init.headers) headers = new Headers(init.headers);
  if (init.redirect) redirect = init.redirect;
  if (init.signal) signal = init.signal;
  if (init.body !== undefined && init.body !== null) body = await bodyToBuffer(init.body);
  return { url, method, headers, body, redirect, signal };
}

async function bodyToBuffer(body: NonNullable<RequestInit['body']>): Promise<Buffer> {
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(await new Response(body).arrayBuffer());
}

function throwIfAborted(signal: AbortSignal | undefined, url: string): void {
  if (signal?.aborted) throw abortError(signal, url);
}

function abortError(signal: AbortSignal, url: string): GuardedFetchError {
  const reason: unknown = signal.reason;
  if (reason instanceof GuardedFetchError) return reason;
  return new GuardedFetchError('aborted', `Request to ${url} was aborted`, url, { cause: reason });
}

function withUrl(response: Response, url: string, redirected: boolean): Response {
  Object.defineProperty(response, 'url', { value: url });
  Object.defineProperty(response, 'redirected', { value: redirected });
  return response;
}

async function requestOnce(
  url: URL,
  address: ResolvedAddress,
  method: string,
  headers: Headers,
  body: Buffer | null,
  policy: ResolvedFetchPolicy,
  limiter: HostLimiter,
  signal: AbortSignal | undefined,
  secureContext: tls.SecureContext | undefined,
  agent: http.Agent | false,
): Promise<Response> {
  const href = url.href;
  let release: () => void;
  try {
    release = await limiter.acquire(url.host, signal);
  } catch {
    throw abortError(signal!, href);
  }
  return new Promise<Response>((resolvePromise, rejectPromise) => {
    let settled = false;
    let streamController: ReadableStreamDefaultController<Uint8Array> | null = null;
    let finished = false;
    let source: Readable | null = null;

    const finish = (): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      release();
    };
    const fail = (error: GuardedFetchError): void => {
      if (!settled) {
        settled = true;
        rejectPromise(error);
      } else if (streamController) {
        try {
          streamController.error(error);
        } catch {
          // the stream was already closed or cancelled
        }
      }
      finish();
      req.destroy();
      source?.destroy();
    };
    const onAbort = (): void => fail(abortError(signal!, href));
    const timer = setTimeout(
      () => fail(new GuardedFetchError('timeout', `No complete answer from ${url.host} within ${policy.requestTimeoutMs} ms`, href)),
      policy.requestTimeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });

    const outgoing: Record<string, string> = {};
    headers.forEach((value, key) => {
      outgoing[key] = value;
    });
    if (body) outgoing['content-length'] = String(body.length);
    const transport = url.protocol === 'https:' ? https : http;
    const hostname = stripBrackets(url.hostname);
    const req = transport.request({
      protocol: url.protocol,
      hostname,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: outgoing,
      // false: a connection of its own, closed after the answer; an agent: a kept connection to this address.
      agent,
      servername: isIpLiteral(hostname) ? undefined : hostname,
      // Only with policy.extraCaPem: the bundled roots plus those authorities; verification itself is unchanged.
      ...(secureContext && url.protocol === 'https:' ? { secureContext } : {}),
      // Connect to the address we vetted, never to a second DNS answer.
      lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, [{ address: address.address, family: address.family }]);
        else callback(null, address.address, address.family);
      }) as never,
    });
    req.on('error', (error) => {
      // A kept connection the server closed while it sat idle (its keep-alive timeout ran out first) fails the next
      // request before any answer. That is our reuse, not the site: an idempotent request goes again, once, on a
      // connection of its own.
      if (!settled && !finished && agent !== false && req.reusedSocket && STALE_CONNECTION_CODES.has((error as NodeJS.ErrnoException).code ?? '')
        && IDEMPOTENT_METHODS.has(method) && !signal?.aborted) {
        settled = true;
        finish();
        req.destroy();
        resolvePromise(requestOnce(url, address, method, headers, body, policy, limiter, signal, secureContext, false));
        return;
      }
      fail(classifyNetworkError(error, href));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 599) {
        fail(new GuardedFetchError('network', `Invalid HTTP status ${status} from ${url.host}`, href));
        return;
      }
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        try {
          responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        } catch {
          // a header value Fetch cannot represent; skip it rather than fail the page
        }
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxResponseBytes) {
        fail(new GuardedFetchError('too_large', `${href} declares ${declared} bytes, more than the ${policy.maxResponseBytes} byte cap`, href, { status }));
        return;
      }
      settled = true;
      if (NULL_BODY_STATUSES.has(status) || method === 'HEAD') {
        res.resume();
        finish();
        resolvePromise(makeResponse(null, status, res.statusMessage, responseHeaders));
        return;
      }
      source = decoded(res, responseHeaders);
      let received = 0;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          streamController = controller;
          source!.on('data', (chunk: Buffer) => {
            if (finished) return;
            received += chunk.length;
            if (received > policy.maxResponseBytes) {
              fail(new GuardedFetchError('too_large', `${href} sent more than the ${policy.maxResponseBytes} byte cap`, href));
              return;
            }
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            if ((controller.desiredSize ?? 1) <= 0) source!.pause();
          });
          source!.on('end', () => {
            if (finished) return;
            finish();
            controller.close();
          });
          source!.on('error', (error) => fail(classifyNetworkError(error, href)));
        },
        pull() {
          source!.resume();
        },
        cancel() {
          finish();
          req.destroy();
          source?.destroy();
        },
      });
      resolvePromise(makeResponse(stream, status, res.statusMessage, responseHeaders));
    });
    req.end(body ?? undefined);
  });
}

function decoded(res: http.IncomingMessage, headers: Headers): Readable {
  const encoding = (headers.get('content-encoding') ?? '').trim().toLowerCase();
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null = null;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = zlib.createGunzip();
  else if (encoding === 'deflate') decoder = zlib.createInflate();
  else if (encoding === 'br') decoder = zlib.createBrotliDecompress();
  if (!decoder) return res;
  // The size cap counts decoded bytes, so a compression bomb stops at the cap too.
  headers.delete('content-encoding');
  headers.delete('content-length');
  res.on('error', (error) => decoder!.destroy(error));
  return res.pipe(decoder);
}

function makeResponse(body: ReadableStream<Uint8Array> | null, status: number, statusText: string | undefined, headers: Headers): Response {
  try {
    return new Response(body, { status, statusText: statusText ?? '', headers });
  } catch {
    return new Response(body, { status, headers });
  }
}

// Serves repeated reads from the bytes of an earlier identical response. An entry is stored only after its request
// went the whole way (request validation, handler, response validation) and answered 200, and it is tagged with
// the data version it was computed from, so a hit is byte-for-byte what the full path would answer now. Hits are
// answered before Express (the host's hot path); misses go through the app and are recorded on the way out.
// Every way in (the listener's hits, the direct reads, the Express JSON writer, the pages' in-process reads) passes a
// URL, and the cache keys it one way: canonicalRequestKey, so `?q=Fern+Journal`, `?q=Fern%20Journal` and reordered
// parameters are one entry, and a request the full path would answer differently is never one.
import type * as http from 'node:http';
import type { Logger } from 'pino';
import { canonicalRequestKey } from './canonical-query';
import { pickRequestId } from './request-id';

export interface ResponseCacheSource {
  /** Identifies the data the responses depend on; null while no fresh data is loaded (nothing is served then). */
  currentVersion(): object | null;
  /** Whether GETs of this path may be cached at all. */
  cacheable(pathname: string): boolean;
}

/** A request's key once computed (by the listener's lookup), for the store of its answer (direct path, JSON writer). */
const KEY = Symbol('response cache key');
type Target = string | (http.IncomingMessage & { originalUrl?: string; [KEY]?: string | null });

function keyOf(target: Target): string | null {
  if (typeof target === 'string') return canonicalRequestKey(target);
  if (target[KEY] === undefined) target[KEY] = canonicalRequestKey(target.originalUrl ?? target.url ?? '/');
  return target[KEY];
}

interface Entry {
  version: object;
  /** An answer's JSON bytes, or a rendered page (see page). */
  body: Buffer | string;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  /** URLs answered once since they were last stored or forgotten (see admit). */
  private readonly seenOnce = new Set<string>();
  /** Reads answered from the cache, and answers stored for later (the benchmark checks its misses are misses). */
  readonly counts = { hits: 0, stored: 0 };

  constructor(
    private readonly source: ResponseCacheSource,
    private readonly logger: Logger,
    private readonly maxEntries = 2000,
  ) {}

  /** Answers a GET from the cache; false when the request must go through the app. */
  serveHit(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    if (req.method !== 'GET' || !req.url) return false;
    const entry = this.current(req.url, req);
    if (!entry || typeof entry.body === 'string') return false;
    const requestId = pickRequestId(req.headers['x-request-id']);
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': entry.body.length,
      'X-Request-Id': requestId,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
    res.end(entry.body);
    this.counts.hits++;
    this.logger.debug({ requestId, url: req.url }, 'answered from the response cache');
    return true;
  }

  /** The stored bytes of a GET of this path and query, if still current (the pages' in-process reads use it). */
  lookup(url: string): Buffer | undefined {
    const entry = this.current(url, url);
    if (!entry || typeof entry.body === 'string') return undefined;
    this.counts.hits++;
    return entry.body;
  }

  /**
   * A page of `url` rendered in `format` (the leaderboard page, web/handlers.ts), kept under the same key behind
   * its format and a space, which no request target has, until the version it was rendered from is retired.
   */
  page(format: string, url: string): string | undefined {
    const key = canonicalRequestKey(url);
    const entry = key === null ? undefined : this.entries.get(`${format} ${key}`);
    return entry && typeof entry.body === 'string' && entry.version === this.source.currentVersion() ? entry.body : undefined;
  }

  /** Keeps a rendered page; `version` is the one taken before rendering, so a change during the render retires it. */
  storePage(format: string, url: string, version: object | null, body: string): void {
    const key = canonicalRequestKey(url);
    if (key !== null && version) this.remember(`${format} ${key}`, version, body);
  }

  /**
   * The current entry of a URL. Most URLs come written canonically (one parameter, or a client's encoding in order),
   * and a key is its own key, so the URL as sent is tried first and the canonical form computed only on a miss.
   */
  private current(url: string, target: Target): Entry | undefined {
    let entry = this.entries.get(url);
    if (!entry) {
      const key = keyOf(target);
      if (key === null || key === url) return undefined;
      entry = this.entries.get(key);
    }
    return entry && entry.version === this.source.currentVersion() ? entry : undefined;
  }

  /** Whether GETs of this path may be stored at all. */
  cacheable(pathname: string): boolean {
    return this.source.cacheable(pathname);
  }

  /** The data version answers are computed from now (null: nothing may be stored). */
  currentVersion(): object | null {
    return this.source.currentVersion();
  }

  /** Stores the validated 200 answer of a GET (a request or its URL) computed from `version` (every way in stores here). */
  store(target: Target, version: object, body: Buffer): void {
    const key = keyOf(target);
    if (key !== null) this.remember(key, version, body);
  }

  /**
   * Admission: an answer is stored the second time its URL is answered, not the first. A URL read once (a search
   * typed once, a crawler's walk) would only push out entries that are read again, and every stored answer lives
   * long enough to reach the old generation of the heap, where a stream of them costs full garbage collections.
   */
  private admit(key: string): boolean {
    if (this.entries.has(key) || this.seenOnce.delete(key)) return true;
    if (this.seenOnce.size >= this.maxEntries * 4) this.seenOnce.clear();
    this.seenOnce.add(key);
    return false;
  }

  private remember(key: string, version: object, body: Buffer | string): void {
    if (!this.admit(key)) return;
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest insertions: cheap, and every entry dies with its version anyway.
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (this.entries.size < this.maxEntries * 0.9) break;
      }
    }
    this.entries.set(key, { version, body });
    this.counts.stored++;
  }
}

import { GuardedFetch, UNSIGNED_HEADER } from '../fetch/guarded-fetch';
import { DEFAULT_USER_AGENT } from '../version';
import { GuardedFetchError } from '../fetch/errors';
import type { FetchedDoc } from './artifacts';
import { detectBlock } from './block-signals';

export interface DocRequest {
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
}

/** Fetches each (URL, headers) once per scan and turns every outcome, including failures, into a FetchedDoc. */
export class DocFetcher {
  private readonly cache = new Map<string, Promise<FetchedDoc>>();
  /** How each document was asked for, so a control probe can ask for a path that cannot exist the same way (soft-404.ts). */
  private readonly requests = new WeakMap<FetchedDoc, DocRequest>();
  readonly seen: FetchedDoc[] = [];

  /**
   * `sent`: what the guarded fetch adds to a request that names none, so each document can record what was sent (its
   * User-Agent, and whether requests are signed) for the evidence; the defaults are the scanner's own.
   */
  constructor(
    private readonly fetch: GuardedFetch,
    private readonly sent: { userAgent?: string; signed?: boolean } = {},
  ) {}

  get(url: string, request: DocRequest = {}): Promise<FetchedDoc> {
    const headers = request.headers ?? {};
    const key = `${request.method ?? 'GET'} ${url} ${JSON.stringify(Object.entries(headers).sort())}`;
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.load(url, request.method ?? 'GET', headers);
      this.cache.set(key, pending);
    }
    return pending;
  }

  private async load(url: string, method: string, headers: Record<string, string>): Promise<FetchedDoc> {
    const first = await this.attempt(url, method, headers);
    // A dropped connection is often a blip: one retry keeps flaky networks from turning into couldnt_check.
    const doc = first.status === null && first.error?.code === 'network' ? await this.attempt(url, method, headers) : first;
    doc.request = this.describe(url, method, headers);
    this.seen.push(doc);
    this.requests.set(doc, { method: method as DocRequest['method'], headers });
    return doc;
  }

  /** The headers that matter of what went out (the guarded fetch fills Accept and User-Agent the same way). */
  private describe(url: string, method: string, headers: Record<string, string>): NonNullable<FetchedDoc['request']> {
    const named = (name: string): string | undefined => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return {
      method,
      url,
      accept: named('accept') ?? '*/*',
      userAgent: named('user-agent') ?? this.sent.userAgent ?? DEFAULT_USER_AGENT,
      signed: Boolean(this.sent.signed) && named(UNSIGNED_HEADER) === undefined,
    };
  }

  /** The request a document answered; undefined for a document this fetcher did not fetch. */
  requestOf(doc: FetchedDoc): DocRequest | undefined {
    return this.requests.get(doc);
  }

  private async attempt(url: string, method: string, headers: Record<string, string>): Promise<FetchedDoc> {
    let doc: FetchedDoc;
    try {
      const response = await this.fetch(url, { method, headers });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        responseHeaders[key] = value;
      });
      let body = '';
      let error: FetchedDoc['error'] = null;
      try {
        // An event stream never ends; its headers are all the evidence we need.
        if (/text\/event-stream/i.test(responseHeaders['content-type'] ?? '')) await response.body?.cancel();
        else body = new TextDecoder('utf-8', { fatal: false }).decode(await response.arrayBuffer());
      } catch (bodyError) {
        error = describe(bodyError);
      }
      doc = {
        url,
        finalUrl: response.url || url,
        status: response.status,
        headers: responseHeaders,
        contentType: responseHeaders['content-type'] ?? null,
        body,
        error,
        block: detectBlock(response.status, responseHeaders, body),
      };
    } catch (fetchError) {
      // A server that declared an oversized body did answer: keep its status so checks can blame the site, not us.
      const status = fetchError instanceof GuardedFetchError && fetchError.status !== undefined ? fetchError.status : null;
      doc = { url, finalUrl: status === null ? null : url, status, headers: {}, contentType: null, body: '', error: describe(fetchError) };
    }
    return doc;
  }
}

function describe(error: unknown): { code: string; message: string } {
  if (error instanceof GuardedFetchError) return { code: error.code, message: error.message };
  return { code: 'network', message: error instanceof Error ? error.message : String(error) };
}

import { isGuardedFetchError, type GuardedFetch } from '@arl/scanner';
import { parsePage } from './parse-page';
import type { PageView } from './page-view';

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/markdown;q=0.8,text/plain;q=0.7,application/json;q=0.6,*/*;q=0.1';

export interface ReadPageOptions {
  /** Bytes read from the body at most; the rest is dropped (the page is still read). */
  maxBytes: number;
  signal: AbortSignal;
  userAgent: string;
}

/** Fetches one page through the guarded fetch and parses it. A failed fetch is a page with access `error`, never a throw (except aborts). */
export async function readPage(fetch: GuardedFetch, url: string, options: ReadPageOptions): Promise<PageView> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: ACCEPT, 'user-agent': options.userAgent }, signal: options.signal, redirect: 'follow' });
  } catch (err) {
    if (options.signal.aborted) throw options.signal.reason;
    const fetchError = isGuardedFetchError(err) ? { code: err.code, message: err.message } : { code: 'network', message: (err as Error).message };
    return { ...errorPage(url, isGuardedFetchError(err) ? `${err.code}: ${err.message}` : `fetch failed: ${(err as Error).message}`), fetchError };
  }
  let body: { text: string; bytes: number };
  try {
    body = await readCapped(response, options.maxBytes);
  } catch (err) {
    if (options.signal.aborted) throw options.signal.reason;
    return errorPage(url, `body unreadable: ${(err as Error).message}`, response.status);
  }
  return parsePage({ url, finalUrl: response.url || url, status: response.status, headers: response.headers, body: body.text, bytes: body.bytes });
}

async function readCapped(response: Response, maxBytes: number): Promise<{ text: string; bytes: number }> {
  if (!response.body) return { text: '', bytes: 0 };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - bytes;
    chunks.push(value.byteLength > room ? value.subarray(0, room) : value);
    bytes += Math.min(value.byteLength, room);
    if (bytes >= maxBytes) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

function errorPage(url: string, reason: string, status: number | null = null): PageView {
  return {
    url, finalUrl: url, status, contentType: '', access: 'error', accessReason: reason.slice(0, 300),
    title: '', description: '', headings: [], text: '', links: [], forms: [], jsonLd: [], scriptOnly: false, bytes: 0,
  };
}

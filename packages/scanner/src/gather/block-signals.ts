import { GuardedFetchError } from '../fetch/errors';
import type { GuardedFetch } from '../fetch/guarded-fetch';
import { findChallengeMarkers } from '../util/html-summary';
import type { FetchedDoc } from './artifacts';

/**
 * A response that is a bot wall, a challenge or a rate limit rather than the document asked for. Checks that read such
 * a document say couldnt_check with this reason: a WAF in front of a site is not the site lacking llms.txt.
 */
export interface BlockSignal {
  /** A challenge or bot wall (a WAF's doing), or a rate limit (the site's own answer to load, judged by honest-429). */
  kind: 'challenge' | 'rate_limit' | 'refusal';
  /** A human phrase naming what we met, e.g. "a Cloudflare challenge (cf-mitigated: challenge)". */
  reason: string;
}

/** Markers that are an interstitial's own title (html-summary.ts names them so). */
const INTERSTITIAL_TITLES = new Set(['"Just a moment..." title', '"Attention Required! | Cloudflare"', '"Checking if the site connection is secure"', '"Vercel Security Checkpoint"']);

/** Statuses WAFs and rate limiters answer with; a plain one (no marker, no Retry-After) is only a block at 429. */
const BLOCK_STATUSES = new Set([403, 429, 503]);

/** Headers the bot-management products set on a challenge or a denial, at any status. */
const HEADER_MARKERS: Array<{ header: string; value: RegExp; name: string }> = [
  { header: 'cf-mitigated', value: /challenge/i, name: 'a Cloudflare challenge' },
  { header: 'x-vercel-mitigated', value: /challenge|deny/i, name: 'a Vercel challenge' },
  { header: 'x-amzn-waf-action', value: /challenge|captcha|block/i, name: 'an AWS WAF challenge' },
];

/** Headers that only say which product answered, so they count on a blocking status only. */
const VENDOR_HEADERS: Array<{ header: string; value: RegExp; name: string }> = [
  { header: 'x-datadome', value: /./, name: 'DataDome' },
  { header: 'x-dd-b', value: /./, name: 'DataDome' },
  { header: 'x-iinfo', value: /./, name: 'Imperva' },
  { header: 'x-cdn', value: /imperva|incapsula/i, name: 'Imperva' },
  { header: 'server', value: /AkamaiGHost/i, name: 'Akamai' },
  { header: 'x-px-block', value: /./, name: 'PerimeterX/HUMAN' },
];

/** Words of a human-verification wall, read only on a blocking status (a page may well talk about captchas). */
const BOT_WALL_TEXT = /verify (that )?you are (a )?human|are you a robot|unusual traffic from your (computer )?network|complete the security check|press (&amp;|&) hold|enable javascript and cookies to continue/i;

export function detectBlock(status: number | null, headers: Record<string, string>, body: string): BlockSignal | null {
  if (status === null) return null;
  for (const marker of HEADER_MARKERS) {
    const value = headers[marker.header];
    if (value && marker.value.test(value)) return { kind: 'challenge', reason: `${marker.name} (${marker.header}: ${value}, HTTP ${status})` };
  }
  const markers = findChallengeMarkers(body);
  const retryAfter = headers['retry-after'];
  if (BLOCK_STATUSES.has(status)) {
    if (markers.length > 0) return { kind: 'challenge', reason: `a bot challenge (HTTP ${status}, ${markers.join(', ')})` };
    const vendor = VENDOR_HEADERS.find((v) => v.value.test(headers[v.header] ?? '') && headers[v.header] !== undefined);
    if (vendor) return { kind: 'challenge', reason: `a ${vendor.name} block (HTTP ${status}, ${vendor.header}: ${headers[vendor.header]})` };
    if (retryAfter) return { kind: 'rate_limit', reason: `a rate limit (HTTP ${status}, Retry-After: ${retryAfter})` };
    if (status === 429) return { kind: 'rate_limit', reason: 'a rate limit (HTTP 429)' };
    if (BOT_WALL_TEXT.test(body.slice(0, 64 * 1024))) return { kind: 'challenge', reason: `a bot wall (HTTP ${status}: "${BOT_WALL_TEXT.exec(body)![0]}")` };
    return null;
  }
  // A 200 challenge interstitial: its own title and another marker. A page that merely writes about challenges (a
  // methodology page naming _cf_chl_opt and /cdn-cgi/challenge-platform/) has the words but not the title.
  if (markers.length >= 2 && markers.some((m) => INTERSTITIAL_TITLES.has(m))) return { kind: 'challenge', reason: `a bot challenge page (HTTP ${status}, ${markers.join(', ')})` };
  return null;
}

/** The block recorded on a document (the fetch layer's, or a User-Agent comparison's), else the one its answer shows. */
export function blockOf(doc: FetchedDoc): BlockSignal | null {
  if (doc.block) return doc.block;
  return detectBlock(doc.status, doc.headers, doc.body);
}

/**
 * For clients that only see errors (the MCP SDK): an answer that is a block becomes a 'blocked' fetch error, so a
 * WAF in front of an MCP endpoint reads as "could not reach", never as a broken handshake. Only suspect answers (a
 * blocking status or a challenge header) are read ahead; everything else streams through untouched.
 */
export function failOnBlocks(fetch: GuardedFetch): GuardedFetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    const suspect = BLOCK_STATUSES.has(response.status) || HEADER_MARKERS.some((m) => headers[m.header] !== undefined);
    if (!suspect) return response;
    const body = await response.text();
    const block = detectBlock(response.status, headers, body);
    if (block) throw new GuardedFetchError('blocked', `${response.url} answered with ${block.reason}`, response.url, { status: response.status });
    const replay = new Response(NULL_BODY.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(replay, 'url', { value: response.url });
    return replay;
  };
}

const NULL_BODY = new Set([101, 204, 205, 304]);

import type { FetchedDoc } from '../gather/artifacts';
import type { EvidenceExchange } from '../types';

/**
 * The exchange behind a verdict (issue 29 item 6): what we sent (method, URL, Accept, User-Agent, whether it carried
 * a Web Bot Auth signature) and what came back (status, content type, length, the first bytes), so a site owner can
 * see when something between us (a CDN, a WAF, a proxy) changed the answer. Never a cookie, an authorization header,
 * a signature or a key: the request side records four facts we chose ourselves, the response side no header but the
 * content type. Sizes are bounded, control and bidirectional-override characters dropped.
 */
export const FIRST_BYTES = 200;
const URL_MAX = 512;
const HEADER_MAX = 200;
/** The words an exchange takes at most in a detail (exchangeInWords), so a report can keep it whole. */
export const EXCHANGE_WORDS_MAX = 920;

/** C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates. */
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** The exchange a fetched document records, when the fetcher noted what it sent. */
export function exchangeOf(doc: FetchedDoc | null | undefined): EvidenceExchange | undefined {
  if (!doc?.request) return undefined;
  const { method, url, accept, userAgent, signed } = doc.request;
  return {
    request: { method, url: clip(url, URL_MAX), accept: clip(clean(accept), HEADER_MAX), userAgent: clip(clean(userAgent), HEADER_MAX), signed },
    response:
      doc.status === null
        ? null
        : {
            status: doc.status,
            finalUrl: doc.finalUrl && doc.finalUrl !== doc.url ? clip(doc.finalUrl, URL_MAX) : null,
            contentType: doc.contentType ? clip(clean(doc.contentType), HEADER_MAX) : null,
            bytes: Buffer.byteLength(doc.body, 'utf8'),
            firstBytes: firstBytes(doc.body),
          },
    error: doc.error ? clip(clean(doc.error.message), HEADER_MAX) : null,
  };
}

/** The first FIRST_BYTES bytes of a body (UTF-8), never half a character, with unsafe characters dropped. */
export function firstBytes(body: string): string {
  const bytes = Buffer.from(body, 'utf8');
  let head = bytes.subarray(0, FIRST_BYTES).toString('utf8');
  // A cut inside a multi-byte character decodes to U+FFFD at the end: that half character is not the site's text.
  if (bytes.length > FIRST_BYTES) head = head.replace(/\uFFFD+$/, '');
  return clean(head);
}

/**
 * An exchange in one readable line, read back from stored evidence (so it checks the shape it is given):
 * `Sent: GET https://x/llms.txt (Accept: text/markdown; User-Agent: …; unsigned). Got: HTTP 200 text/markdown, 1234 bytes, first bytes "# Title\n> …".`
 * Each part is bounded, so the line stays under EXCHANGE_WORDS_MAX whatever the stored values.
 */
export function exchangeInWords(value: unknown): string | null {
  const x = value as Partial<EvidenceExchange> | null | undefined;
  const req = x?.request as Partial<EvidenceExchange['request']> | undefined;
  if (!req || typeof req.method !== 'string' || typeof req.url !== 'string') return null;
  const part = (v: unknown, max: number): string => clip(clean(typeof v === 'string' ? v : ''), max);
  const sent = `Sent: ${part(req.method, 10)} ${part(req.url, 150)} (Accept: ${part(req.accept, 60) || 'none'}; User-Agent: ${part(req.userAgent, 170) || 'none'}; ${req.signed === true ? 'signed with Web Bot Auth' : 'unsigned'}).`;
  const res = x?.response as Partial<NonNullable<EvidenceExchange['response']>> | null | undefined;
  let got: string;
  if (res && typeof res.status === 'number' && Number.isInteger(res.status)) {
    const type = part(res.contentType, 60);
    const moved = part(res.finalUrl, 100);
    const bytes = typeof res.bytes === 'number' && Number.isInteger(res.bytes) ? `, ${res.bytes} bytes` : '';
    const head = typeof res.firstBytes === 'string' && res.firstBytes ? `, first bytes ${quoted(clean(res.firstBytes))}` : '';
    got = ` Got: HTTP ${res.status} ${type || 'without a content type'}${bytes}${moved ? `, after redirects to ${moved}` : ''}${head}.`;
  } else {
    got = ` Got no answer: ${part(x?.error, HEADER_MAX) || 'the request failed'}.`;
  }
  return clip(`${sent}${got}`, EXCHANGE_WORDS_MAX);
}

/** A body's first bytes between quotes, newlines and quotes escaped so the line stays one line. */
function quoted(text: string): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
  return `"${clip(escaped, 230)}"`;
}

function clean(text: string): string {
  return text.replace(UNSAFE, '');
}

/** At most `max` code points, "…" marking a cut. */
function clip(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

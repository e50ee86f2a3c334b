// A check's stored evidence as the report shows it: bounded in size and never carrying credentials. The scanner
// already keeps excerpts short and never records request headers; this is the last gate before the public API,
// so it holds whatever a future check might store.
import type { LeaderboardSchemas } from '@arl/contract';
import { exchangeInWords } from '@arl/scanner';

export type CheckEvidence = LeaderboardSchemas['CheckEvidence'];

export const EXCERPT_MAX = 500;
export const DETAIL_MAX = 1000;
const URL_MAX = 2048;

// Headers that carry credentials or session state: never shown, whatever their value.
const SECRET_HEADER = /^\s*(?:set-cookie|cookie|authorization|proxy-authorization|x-api-key|api-key|x-auth-token)\s*:/i;
// The same inside free text (an excerpt of a page or a detail sentence).
const SECRET_LINE = /\b(set-cookie|cookie|authorization|proxy-authorization|x-api-key|api-key|x-auth-token)(\s*:\s*)[^\r\n]*/gi;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;

/** Cut to `max` code points (the unit JSON Schema's maxLength counts), marking the cut with an ellipsis. */
export function bounded(text: string, max: number): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}

function redact(text: string): string {
  return text.replace(SECRET_LINE, '$1$2[redacted]').replace(BEARER, '$1 [redacted]');
}

function text(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const clean = bounded(redact(value), max);
  return clean.trim().length > 0 ? clean : null;
}

function publicUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0) return null;
  try {
    const url = new URL(value);
    url.username = '';
    url.password = '';
    const href = url.href;
    return href.length <= URL_MAX ? href : null;
  } catch {
    return null;
  }
}

export function toReportEvidence(stored: unknown): CheckEvidence {
  const e = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const status = typeof e.status === 'number' && Number.isInteger(e.status) && e.status >= 100 && e.status <= 599 ? e.status : null;
  const header = typeof e.header === 'string' && !SECRET_HEADER.test(e.header) ? text(e.header, EXCERPT_MAX) : null;
  return {
    url: publicUrl(e.url),
    status,
    header,
    excerpt: text(e.excerpt, EXCERPT_MAX),
    detail: withExchange(text(e.detail, DETAIL_MAX) ?? 'No detail was recorded for this check.', e.exchange),
  };
}

/**
 * The HTTP exchange the verdict rests on (what we sent, what came back; the scanner's `exchange`), in words after the
 * finding: CheckEvidence has no field for it, and the detail is the free text a site owner reads. The finding is
 * shortened first, so the exchange stays whole; both are redacted like every other string here.
 */
function withExchange(finding: string, exchange: unknown): string {
  const words = exchangeInWords(exchange);
  if (!words) return finding;
  const tail = bounded(redact(words), DETAIL_MAX - 2);
  return `${bounded(finding, Math.max(1, DETAIL_MAX - Array.from(tail).length - 1))} ${tail}`;
}

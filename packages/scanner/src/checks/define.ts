import { pointsFor } from '../scoring/weights';
import type { FetchedDoc } from '../gather/artifacts';
import { blockOf } from '../gather/block-signals';
import type { CheckLabel, CheckStatus, CheckTier, Evidence, LayerId, TargetKind } from '../types';
import type { CheckDefinition, CheckOutcome } from './types';
import { CHECK_SOURCES } from './sources';
import { exchangeOf } from './exchange';

export const WEBSITE: readonly TargetKind[] = ['website'];
export const ALL_KINDS: readonly TargetKind[] = ['website', 'mcp_server', 'mcp_app'];

export function defineCheck(spec: {
  id: string;
  name: string;
  layer: LayerId;
  tier: CheckTier;
  label?: CheckLabel;
  bonus?: boolean;
  appliesTo: readonly TargetKind[];
  description: string;
  fix: string;
  evaluate: CheckDefinition['evaluate'];
}): CheckDefinition {
  const bonus = spec.bonus ?? false;
  return {
    ...spec,
    label: spec.label !== undefined ? spec.label : spec.tier === 'emerging' ? 'emerging' : null,
    bonus,
    points: pointsFor(spec.tier, bonus),
    // Every check cites what it applies (checks/sources.ts); test/catalog-docs.test.ts fails for one without.
    source: CHECK_SOURCES[spec.id] ?? '',
  };
}

export function outcome(status: CheckStatus, detail: string, extra: Partial<Evidence> & { fix?: string | null } = {}): CheckOutcome {
  const { fix, ...evidence } = extra;
  return { status, evidence: { detail, ...evidence }, ...(fix !== undefined ? { fix } : {}) };
}

export function docEvidence(doc: FetchedDoc | null | undefined, excerptFrom?: 'body'): Partial<Evidence> {
  if (!doc) return {};
  const evidence: Partial<Evidence> = { url: doc.finalUrl ?? doc.url, status: doc.status, ...exchangeField(doc) };
  if (excerptFrom === 'body' && doc.body) evidence.excerpt = excerpt(doc.body);
  return evidence;
}

/** The exchange behind a document, as an evidence field (absent when the fetcher did not note the request). */
export function exchangeField(doc: FetchedDoc | null | undefined): Pick<Evidence, 'exchange'> {
  const exchange = exchangeOf(doc);
  return exchange ? { exchange } : {};
}

/** A markdown link or image, inline form: [text](url "title"). */
const MARKDOWN_LINK = /!?\[[^\]\n]*\]\([^)\s]*(?:\s+"[^"\n]*")?\)/g;

/**
 * At most `max` UTF-16 units of the text, followed by "…" when it was shortened. The cut never falls inside a
 * surrogate pair (half an emoji is not text) nor inside a markdown link (half a URL sends a reader elsewhere): it moves
 * back to before the link. A link that starts the text and is longer than the excerpt is dropped rather than cut.
 */
export function excerpt(text: string, max = 240): string {
  const clean = text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '\uFFFD');
  if (clean.length <= max) return clean;
  let end = max;
  for (const match of clean.matchAll(MARKDOWN_LINK)) {
    const start = match.index ?? 0;
    if (start >= end) break;
    if (start + match[0].length > end) {
      end = start;
      break;
    }
  }
  const code = clean.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end--;
  return `${clean.slice(0, end)}…`;
}

/**
 * A document no check can judge on its content: a fetch that failed on our side is never the site's fault (couldnt_check);
 * endless redirects and a soft 404 are the site's doing (failed).
 */
export function unreachable(doc: FetchedDoc | null | undefined, what: string): CheckOutcome | null {
  if (!doc) return outcome('couldnt_check', `${what} was not fetched`);
  // Endless redirects are the site's doing, unlike timeouts or DNS trouble on our side.
  const exchange = exchangeField(doc);
  if (doc.error?.code === 'too_many_redirects') return outcome('failed', `${what} redirects endlessly`, { url: doc.url, status: null, ...exchange });
  if (doc.status === null) return outcome('couldnt_check', `Could not fetch ${what}: ${doc.error?.message ?? 'unknown error'}`, { url: doc.url, status: null, ...exchange });
  if (doc.error && doc.error.code !== 'too_large') {
    return outcome('couldnt_check', `Reading ${what} failed: ${doc.error.message}`, { url: doc.finalUrl ?? doc.url, status: doc.status, ...exchange });
  }
  // A challenge or a rate limit stood in front of the document: the site may well have it.
  const block = blockOf(doc);
  if (block) return outcome('couldnt_check', `Couldn't check ${what}: we met ${block.reason}`, { url: doc.finalUrl ?? doc.url, status: doc.status, ...(doc.body ? { excerpt: excerpt(doc.body) } : {}), ...exchange });
  // The site answers this path as it answers one that cannot exist: the document is not there (gather/soft-404.ts).
  if (doc.softNotFound) return outcome('failed', `${what} is not there: ${doc.softNotFound}`, { url: doc.finalUrl ?? doc.url, status: doc.status, ...(doc.body ? { excerpt: excerpt(doc.body) } : {}), ...exchange });
  return null;
}

/** When whether a check applies rests on documents we could not read, "does not apply" would be a guess too. */
export function undecided(docs: ReadonlyArray<FetchedDoc | null | undefined>, question: string): CheckOutcome | null {
  for (const doc of docs) {
    const problem = doc ? unreachable(doc, doc.url) : null;
    if (problem?.status !== 'couldnt_check') continue;
    const { detail, ...where } = problem.evidence;
    return outcome('couldnt_check', `Couldn't tell ${question}: ${detail}`, where);
  }
  return null;
}

export function isOk(doc: FetchedDoc | null | undefined): doc is FetchedDoc {
  return Boolean(doc && doc.status !== null && doc.status >= 200 && doc.status < 300 && !doc.error && !blockOf(doc) && !doc.softNotFound);
}

export function looksLikeHtml(doc: FetchedDoc): boolean {
  return /html/i.test(doc.contentType ?? '') || /^\s*(<!doctype html|<html|<head|<body)/i.test(doc.body);
}

export function looksBinary(text: string): boolean {
  if (text.length === 0) return false;
  const sample = text.slice(0, 4096);
  let odd = 0;
  for (const ch of sample) {
    const code = ch.charCodeAt(0);
    if (code === 0xfffd || (code < 32 && code !== 9 && code !== 10 && code !== 13)) odd++;
  }
  return odd / sample.length > 0.05;
}

import type { Artifacts, FetchedDoc } from './artifacts';
import { blockOf } from './block-signals';
import type { DocFetcher } from './doc-fetcher';
import { UNSIGNED_HEADER } from '../fetch/guarded-fetch';
import { HTML_ACCEPT } from './user-agents';

/** Statuses a site uses to turn a client away; only these become "couldn't check" when the site singles out our agent. */
const REFUSALS = new Set([401, 403, 406, 429, 451, 503]);

/** The home page as our scanner's own User-Agent gets it (the documents of the scan are fetched with that agent too). */
export function fetchScannerView(fetcher: DocFetcher, a: Artifacts, options: { unsigned?: boolean } = {}): Promise<FetchedDoc> {
  return fetcher.get(a.targetUrl, { headers: { accept: HTML_ACCEPT, ...(options.unsigned ? { [UNSIGNED_HEADER]: '1' } : {}) } });
}

/** A sentence for evidence when signing changed how the site answered us; null when it made no difference. */
export function signingDifference(a: Artifacts): string | null {
  if (!a.signing) return null;
  const signed = a.signing.signed.status === null ? null : blockOf(a.signing.signed);
  const unsigned = a.signing.unsigned.status === null ? null : blockOf(a.signing.unsigned);
  if (unsigned && !signed && a.signing.signed.status !== null) return `An unsigned request met ${unsigned.reason}; the same request signed with Web Bot Auth got HTTP ${a.signing.signed.status}.`;
  if (signed && unsigned) return `Our requests met ${signed.reason}, signed with Web Bot Auth or not.`;
  if (signed) return `Our request signed with Web Bot Auth met ${signed.reason}; unsigned it got HTTP ${a.signing.unsigned.status}.`;
  return null;
}

/** How our agent's home page differs materially from a browser's, in words for evidence; null when it does not. */
export function scannerViewDifference(browser: FetchedDoc | null, ours: FetchedDoc | null): string | null {
  if (!browser || !ours || browser.status === null || ours.status === null || browser.status >= 400) return null;
  const block = blockOf(ours);
  if (block) return `the site answers our scanner's User-Agent with ${block.reason} where a browser's gets HTTP ${browser.status}`;
  if (ours.status >= 400) return `the site answers our scanner's User-Agent with HTTP ${ours.status} where a browser's gets ${browser.status}`;
  const words = (doc: FetchedDoc): number => doc.body.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]*>/gi, ' ').split(/\s+/).filter(Boolean).length;
  const theirs = words(browser);
  const mine = words(ours);
  if (theirs >= 50 && mine < theirs * 0.3) return `the home page our scanner's User-Agent gets has ${mine} words where a browser's has ${theirs}`;
  return null;
}

/**
 * When the site singles out our agent, a refusal of any other document fetched with it says nothing about that
 * document: it is marked as blocked, so checks reading it say couldnt_check with the reason.
 */
export function markScannerRefusals(docs: readonly FetchedDoc[], spared: ReadonlySet<FetchedDoc>, difference: string): void {
  for (const doc of docs) {
    if (spared.has(doc) || doc.status === null || !REFUSALS.has(doc.status) || blockOf(doc)) continue;
    doc.block = { kind: 'refusal', reason: `HTTP ${doc.status}, and ${difference}` };
  }
}

import { parseJsonObject } from '../util/json';
import { httpUrl } from '../util/url';
import type { Artifacts, FetchedDoc } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

const readable = (doc: FetchedDoc | null | undefined): doc is FetchedDoc =>
  Boolean(doc && doc.status !== null && doc.status >= 200 && doc.status < 300 && !doc.error && parseJsonObject(doc.body));

/**
 * The agent card the scan judges: the well-known one (A2A 1.0 §8.2) when it is readable JSON, else the first agent
 * card the AI Catalog lists; `listedAs` names that catalog entry.
 */
export function judgedAgentCard(a: Artifacts): { doc: FetchedDoc | undefined; listedAs: string | null } {
  const wellKnown = a.wellKnown.agentCard;
  if (readable(wellKnown)) return { doc: wellKnown, listedAs: null };
  const listed = a.aiCatalogAgentCards.find((c) => readable(c.doc));
  return listed ? { doc: listed.doc, listedAs: listed.identifier } : { doc: wellKnown, listedAs: null };
}

/** The protected header of a JWS, or null. */
export function jwsHeader(signature: unknown): Record<string, unknown> | null {
  const value = (signature as { protected?: unknown } | null)?.protected;
  if (typeof value !== 'string') return null;
  try {
    return parseJsonObject(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * A2A 1.0 §8.4: a card signature's key may be named by `jku`, a JWK Set URL (RFC 7515 §4.1.2). One such set is
 * fetched (the first signature that names one), through the guarded fetch like everything else.
 */
export async function fetchAgentCardKeys(fetcher: DocFetcher, a: Artifacts): Promise<FetchedDoc | null> {
  const { doc } = judgedAgentCard(a);
  const card = readable(doc) ? parseJsonObject(doc.body) : null;
  const signatures = Array.isArray(card?.signatures) ? (card.signatures as unknown[]) : [];
  for (const signature of signatures.slice(0, 3)) {
    const header = jwsHeader(signature);
    if (!header || header.jwk) continue;
    const jku = httpUrl(header.jku, doc!.finalUrl ?? doc!.url);
    if (jku) return fetcher.get(jku, { headers: { accept: 'application/jwk-set+json,application/json;q=0.9' } });
  }
  return null;
}

import { randomBytes } from 'node:crypto';
import type { Artifacts, FetchedDoc } from './artifacts';
import { blockOf } from './block-signals';
import type { DocFetcher } from './doc-fetcher';

/**
 * Soft 404s (issue 29): many sites answer a path that does not exist with 200 and an error page, even a 200
 * text/markdown one (afdocs#29 counted such a page as working markdown negotiation; on the Majestic top 10,000 a third
 * of the /llms.txt answers with 200 were soft 404s). So each scan asks, the way it asked for each document it found,
 * for a random path that cannot exist (the control), and a document that answers like the control is not there.
 *
 * Like the control means: the same status, the same media type, and a near-identical body. Near-identical: both
 * bodies (their first COMPARED_CHARS characters) with every spelling of the requested path (URL, path, file name, and
 * the control's random token) replaced by one placeholder and whitespace runs collapsed, are equal, or are within
 * LENGTH_TOLERANCE of each other's length and share at least SIMILARITY of their words (Sørensen–Dice over the
 * multiset of words). The path is removed because error pages echo it ("No page at /llms.txt"); the tolerance keeps a
 * request id or a timestamp in the page from hiding the match, the length bound keeps a real document that merely
 * shares the site's template from being taken for one.
 */
export const SIMILARITY = 0.9;
export const LENGTH_TOLERANCE = 0.05;
export const COMPARED_CHARS = 64 * 1024;
/** Control requests at most per scan: one per kind of request (directory, extension, headers) that found something. */
export const MAX_CONTROLS = 8;

const PLACEHOLDER = '\u0000path\u0000';

/** 16 hex digits: no site has that path, and none can prepare for it. */
export function controlToken(): string {
  return randomBytes(8).toString('hex');
}

/** Where the control for a document goes: the same kind of place (the root or /.well-known/) with the same extension. */
export function controlPath(url: string, token: string): string {
  const { pathname } = new URL(url);
  const dir = pathname.startsWith('/.well-known/') ? '/.well-known/' : '/';
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(pathname.slice(pathname.lastIndexOf('/') + 1))?.[1];
  return `${dir}arl-control-${token}${ext ? `.${ext}` : ''}`;
}

export interface Likeness {
  alike: boolean;
  /** 0..1, 1 for equal bodies once the paths are removed. */
  similarity: number;
}

/** Whether a document answered exactly as the site answers for nothing (see the module comment). */
export function likeness(doc: FetchedDoc, control: FetchedDoc, token: string): Likeness {
  if (doc.status !== control.status || mediaType(doc) !== mediaType(control)) return { alike: false, similarity: 0 };
  const ours = normalize(doc.body, spellings(doc));
  const theirs = normalize(control.body, [...spellings(control), token]);
  if (ours === theirs) return { alike: true, similarity: 1 };
  const longer = Math.max(ours.length, theirs.length);
  if (Math.abs(ours.length - theirs.length) > LENGTH_TOLERANCE * longer) return { alike: false, similarity: 0 };
  const similarity = wordDice(ours, theirs);
  return { alike: similarity >= SIMILARITY, similarity };
}

/**
 * Asks for the controls the found documents need (at most MAX_CONTROLS, in parallel) and marks each document that
 * answers like its control with `softNotFound`, the reason in words: checks then say it is not there (checks/define.ts).
 */
export async function judgeSoftNotFound(fetcher: DocFetcher, a: Artifacts, token = controlToken()): Promise<void> {
  const servesHome = servesHomeForUnknownPaths(a);
  const controls = new Map<string, Promise<FetchedDoc>>();
  const keyOf = (path: string, headers: Record<string, string> = {}): string => `${path} ${JSON.stringify(Object.entries(headers).sort())}`;
  // honest-404's made-up page was asked for as a page is: it is the control of pages (the pricing page), one request less.
  const probeRequest = a.notFoundProbe ? fetcher.requestOf(a.notFoundProbe) : undefined;
  if (a.notFoundProbe && probeRequest) controls.set(keyOf(controlPath(a.notFoundProbe.url, token), probeRequest.headers), Promise.resolve(a.notFoundProbe));
  const judged: Array<Promise<void>> = [];
  let asked = 0;
  for (const doc of candidates(a, fetcher)) {
    const request = fetcher.requestOf(doc)!;
    // Where the site hands its home page to any path, the home page asked for markdown looks like the control without
    // being an error page: documents at the target itself are not judged then.
    if (servesHome && sameUrl(doc.url, a.targetUrl)) continue;
    const path = controlPath(doc.url, token);
    const key = keyOf(path, request.headers);
    let control = controls.get(key);
    if (!control) {
      if (asked >= MAX_CONTROLS) continue;
      asked++;
      control = fetcher.get(new URL(path, doc.url).href, request);
      controls.set(key, control);
    }
    judged.push(control.then((answer) => judge(doc, answer, token)));
  }
  await Promise.all(judged);
}

function judge(doc: FetchedDoc, control: FetchedDoc, token: string): void {
  if (control.status === null || control.error || blockOf(control)) return;
  // A site that sends unknown paths to this very document (a redirect to /llms.txt, to the home page) does have it.
  if (control.finalUrl && doc.finalUrl && sameUrl(control.finalUrl, doc.finalUrl) && control.finalUrl !== control.url) return;
  const { alike, similarity } = likeness(doc, control, token);
  if (!alike) return;
  const requested = new URL(doc.url).pathname;
  const path = new URL(control.url).pathname;
  doc.softNotFound = `the site answers ${requested} as it answers ${path}, a path that cannot exist (HTTP ${doc.status} ${mediaType(doc) || 'without a content type'}, ${Math.round(similarity * 100)} % alike once the paths are removed): a soft 404`;
}

/** Found documents of the site's own origin that a soft 404 could stand in for; only what the fetcher asked for. */
function candidates(a: Artifacts, fetcher: DocFetcher): FetchedDoc[] {
  const docs = [
    a.llmsTxt,
    ...(a.llmsTxtCandidates ?? []).map((c) => c.doc),
    ...(a.markdownTwin?.tried ?? []),
    a.llmsFullTxt,
    a.markdown,
    ...a.markdownSamples,
    ...Object.values(a.wellKnown),
    ...a.openapi,
    a.ard?.doc,
    ...a.ardTried,
    ...a.mcpExtraCards,
    ...a.aiCatalogAgentCards.map((c) => c.doc),
    a.agentCardKeys,
    a.pricing,
  ];
  const seen = new Set<FetchedDoc>();
  return docs.filter((doc): doc is FetchedDoc => {
    if (!doc || seen.has(doc)) return false;
    seen.add(doc);
    return found(doc) && fetcher.requestOf(doc) !== undefined && sameOrigin(doc.url, a.origin);
  });
}

function found(doc: FetchedDoc): boolean {
  return doc.status !== null && doc.status >= 200 && doc.status < 300 && !doc.error && !blockOf(doc) && !doc.softNotFound;
}

/** The made-up page (honest-404's probe) is the home page again: the site serves its home page for any path. */
function servesHomeForUnknownPaths(a: Artifacts): boolean {
  const probe = a.notFoundProbe;
  if (!a.home || !probe || !found(probe) || !found(a.home)) return false;
  return likeness(probe, a.home, '').alike;
}

function mediaType(doc: FetchedDoc): string {
  return (doc.contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** Every way an error page may echo the path it was asked for. */
function spellings(doc: FetchedDoc): string[] {
  const out: string[] = [];
  for (const raw of [doc.url, doc.finalUrl]) {
    if (!raw) continue;
    const u = new URL(raw);
    const file = u.pathname.slice(u.pathname.lastIndexOf('/') + 1);
    out.push(u.href, `${u.pathname}${u.search}`, u.pathname, u.pathname.slice(1), decodeSafe(u.pathname), encodeURIComponent(u.pathname));
    if (file.length >= 3) out.push(file, file.replace(/\.[^.]*$/, ''));
  }
  return out.filter((s) => s.length >= 2);
}

function normalize(body: string, paths: string[]): string {
  let text = body.slice(0, COMPARED_CHARS);
  // Longest first, so "/docs/llms.txt" goes before "llms.txt" leaves "/docs/" behind.
  for (const p of [...new Set(paths)].filter((q) => q.length >= 2).sort((x, y) => y.length - x.length)) text = text.split(p).join(PLACEHOLDER);
  return text.replace(/\s+/g, ' ').trim();
}

function wordDice(a: string, b: string): number {
  const words = (s: string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const w of s.split(/[\s<>"'=;:,.(){}[\]/]+/)) if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
    return counts;
  };
  const x = words(a);
  const y = words(b);
  let shared = 0;
  let total = 0;
  for (const [w, n] of x) {
    shared += Math.min(n, y.get(w) ?? 0);
    total += n;
  }
  for (const n of y.values()) total += n;
  return total === 0 ? 1 : (2 * shared) / total;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

function sameUrl(x: string, y: string): boolean {
  try {
    return new URL(x).href === new URL(y).href;
  } catch {
    return x === y;
  }
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

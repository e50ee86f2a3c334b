import { parseLinkHeader } from '../util/link-header';
import type { Artifacts, FetchedDoc, LlmsTxtCandidate, MarkdownTwin } from './artifacts';
import type { DocFetcher } from './doc-fetcher';

/**
 * llms.txt v2 (llmstxt.org, changes.md "v2 (August 2026)"): a page names the llms.txt covering it with
 * rel="describedby" (an HTML <link> or an HTTP Link header); a file covers the pages under its path and the most
 * specific one applies (so a site that only controls a path, such as a GitHub Pages project site, has one); a page's
 * markdown version is at the page URL with ".md" appended (page.html.md, v1's form) or with its extension replaced
 * (page.md), linked with rel="alternate" type="text/markdown". The `## Optional` section lost its special meaning in
 * v2; the structure check never gave it one, so nothing changes there.
 */
export const LLMS_TXT_ACCEPT = 'text/markdown,text/plain,*/*;q=0.5';
/** Directories above the target tried for a covering llms.txt, the root apart: the target's own and its parent. */
const MAX_DIRECTORY_LEVELS = 2;

/** The llms.txt files that could cover the target, in the order v2 gives them weight (see coveringLlmsTxt in checks). */
export function llmsTxtCandidates(a: Artifacts): Array<{ url: string; via: LlmsTxtCandidate['via'] }> {
  const out: Array<{ url: string; via: LlmsTxtCandidate['via'] }> = [];
  const add = (url: string, via: LlmsTxtCandidate['via']): void => {
    if (!out.some((c) => c.url === url)) out.push({ url, via });
  };
  // The site's own word first: the file its home page names with rel="describedby", on its own origin.
  for (const href of describedByLlmsTxt(a)) add(href, href === new URL('/llms.txt', a.origin).href ? 'root' : 'describedby');
  // Then the most specific file at or above the target's path, the root last.
  const base = new URL(a.home?.finalUrl ?? a.targetUrl);
  const segments = base.pathname.split('/').slice(1, -1).filter(Boolean);
  for (let depth = segments.length; depth > 0 && segments.length - depth < MAX_DIRECTORY_LEVELS; depth--) {
    add(new URL(`/${segments.slice(0, depth).join('/')}/llms.txt`, a.origin).href, 'path');
  }
  add(new URL('/llms.txt', a.origin).href, 'root');
  return out;
}

/** Same-origin llms.txt files the home page names with rel="describedby", Link header first. */
export function describedByLlmsTxt(a: Artifacts): string[] {
  const base = a.home?.finalUrl ?? a.targetUrl;
  const fromHeader = parseLinkHeader(a.home?.headers.link ?? '', base).filter((l) => l.rel.includes('describedby')).map((l) => l.href);
  const fromHtml = (a.homeHtml?.links ?? []).filter((l) => l.rel.split(/\s+/).includes('describedby')).map((l) => l.href);
  return [...new Set([...fromHeader, ...fromHtml])].filter((href) => {
    try {
      const url = new URL(href);
      return url.origin === a.origin && /\/llms\.txt$/i.test(url.pathname);
    } catch {
      return false;
    }
  });
}

export async function fetchLlmsTxtCandidates(fetcher: DocFetcher, a: Artifacts): Promise<void> {
  const candidates = llmsTxtCandidates(a);
  a.llmsTxtCandidates = await Promise.all(candidates.map(async (c) => ({ doc: await fetcher.get(c.url, { headers: { accept: LLMS_TXT_ACCEPT } }), via: c.via })));
  a.llmsTxt = a.llmsTxtCandidates.find((c) => c.via === 'root')!.doc;
}

/**
 * The page's markdown twin, when it does not negotiate markdown: the one it links (rel="alternate"
 * type="text/markdown", same origin) or else the two URL forms v2 accepts, page.html.md then page.md (for a
 * directory URL, index.html.md then index.md). Asked for one after the other until one answers 200.
 */
export function markdownTwinCandidates(a: Artifacts): Array<{ url: string; via: MarkdownTwin['via'] }> {
  const page = new URL(a.home?.finalUrl ?? a.targetUrl);
  page.hash = '';
  page.search = '';
  const linked = [
    ...parseLinkHeader(a.home?.headers.link ?? '', page.href).filter((l) => l.rel.includes('alternate') && /markdown/i.test(l.type ?? '')).map((l) => l.href),
    ...(a.homeHtml?.links ?? []).filter((l) => l.rel.split(/\s+/).includes('alternate') && /markdown/.test(l.type)).map((l) => l.href),
  ].filter((href) => {
    try {
      return new URL(href).origin === a.origin;
    } catch {
      return false;
    }
  });
  if (linked.length > 0) return [{ url: linked[0], via: 'alternate' }];
  const path = page.pathname;
  const forms = path.endsWith('/')
    ? [`${path}index.html.md`, `${path}index.md`]
    : /\.[A-Za-z0-9]{1,8}$/.test(path.slice(path.lastIndexOf('/') + 1))
      ? [`${path}.md`, path.replace(/\.[A-Za-z0-9]{1,8}$/, '.md')]
      : [`${path}.md`];
  return forms.map((p) => ({ url: new URL(p, page.origin).href, via: 'url-form' as const }));
}

/** A markdown answer, by its content type and its body (not an HTML page relabelled). */
export function servesMarkdown(doc: FetchedDoc): boolean {
  if (doc.status !== 200 || doc.error || doc.block) return false;
  if (!/text\/(markdown|x-markdown|plain)/i.test(doc.contentType ?? '')) return false;
  return !/^\s*</.test(doc.body) && doc.body.trim().length > 0;
}

export async function fetchMarkdownTwin(fetcher: DocFetcher, a: Artifacts, accept: string): Promise<void> {
  const tried: FetchedDoc[] = [];
  const candidates = markdownTwinCandidates(a);
  for (const candidate of candidates) {
    const doc = await fetcher.get(candidate.url, { headers: { accept } });
    tried.push(doc);
    if (doc.status === 200) {
      a.markdownTwin = { doc, via: candidate.via, tried };
      return;
    }
  }
  a.markdownTwin = tried.length > 0 ? { doc: null, via: candidates[0].via, tried } : null;
}

import { parse } from 'node-html-parser';

export interface PageLink {
  href: string;
  rel: string;
  type: string;
  text: string;
}

/** What checks need from an HTML page, extracted once per page so checks stay pure and cheap. */
export interface HtmlSummary {
  title: string | null;
  metaDescription: string | null;
  ogSiteName: string | null;
  h1: string[];
  wordCount: number;
  links: PageLink[];
  jsonLd: unknown[];
  jsonLdErrors: number;
  hasPasswordInput: boolean;
  webmcpForms: number;
  webmcpScript: boolean;
  /** Where inline scripts register WebMCP tools: "document.modelContext" (the draft's), "navigator.modelContext" (the earlier one's). */
  webmcpSurfaces?: string[];
  /** Absolute URLs of <script src> elements, in page order. */
  scriptSrcs: string[];
  challengeMarkers: string[];
}

const CHALLENGE_MARKERS: Array<[string, RegExp]> = [
  ['_cf_chl_opt', /_cf_chl_opt/],
  ['/cdn-cgi/challenge-platform/', /\/cdn-cgi\/challenge-platform\//],
  ['"Just a moment..." title', /<title>\s*Just a moment\.\.\.\s*<\/title>/i],
  ['"Attention Required! | Cloudflare"', /Attention Required! \| Cloudflare/i],
  ['"Checking if the site connection is secure"', /Checking if the site connection is secure/i],
  ['DataDome captcha', /captcha-delivery\.com|geo\.captcha-delivery/i],
  ['PerimeterX/HUMAN block', /px-captcha|_pxCaptcha|_pxAppId/i],
  ['AWS WAF challenge', /awswaf\.com|AwsWafIntegration|aws-waf-token/i],
  ['Imperva incident', /_Incapsula_Resource|Incapsula incident ID/i],
  ['Akamai reference', /errors\.edgesuite\.net|Reference&#32;&#35;\d+\.[0-9a-f]+|Reference #\d+\.[0-9a-f]+\.\d+/i],
  ['"Vercel Security Checkpoint"', /Vercel Security Checkpoint/i],
];

/**
 * All markers in one pass (issue 30: the eleven patterns run one by one over every full page were 10 % of a census
 * worker's CPU). Each marker is a group of one case-insensitive alternation; a hit is confirmed with the marker's own
 * pattern (two markers are case-sensitive), and the search goes on from the next character, so a hit that fails its
 * check hides nothing. No two markers can start at the same character (their first letters differ), so every marker
 * present is found: the verdict of each pattern run over the whole body, in the same order.
 */
const ANY_MARKER = new RegExp(CHALLENGE_MARKERS.map(([, pattern]) => `(${pattern.source})`).join('|'), 'gi');

/** The last body looked at and its markers: the page summary, its block signal and the agent views ask in a row. */
let lastBody: string | null = null;
let lastMarkers: readonly string[] = [];

/** Only the body is read for challenge markers: CSP headers legitimately name challenge hosts. */
export function findChallengeMarkers(body: string): string[] {
  if (body === lastBody) return [...lastMarkers];
  const found = new Array<boolean>(CHALLENGE_MARKERS.length).fill(false);
  let left = CHALLENGE_MARKERS.length;
  const search = new RegExp(ANY_MARKER); // its own lastIndex: no state shared between calls
  for (let m = search.exec(body); m !== null && left > 0; m = search.exec(body)) {
    let k = 0;
    while (m[k + 1] === undefined) k++;
    if (!found[k] && CHALLENGE_MARKERS[k][1].test(m[0])) {
      found[k] = true;
      left--;
    }
    search.lastIndex = m.index + 1;
  }
  const markers = CHALLENGE_MARKERS.filter((_, i) => found[i]).map(([name]) => name);
  lastBody = body;
  lastMarkers = markers;
  return [...markers];
}

export function summarizeHtml(body: string, baseUrl: string): HtmlSummary {
  const root = parse(body, { comment: false, blockTextElements: { script: true, style: true, noscript: true } });
  const absolute = (href: string): string => {
    try {
      return new URL(href, baseUrl).href;
    } catch {
      return href;
    }
  };
  const links: PageLink[] = [];
  for (const el of root.querySelectorAll('a[href], link[href]')) {
    links.push({
      href: absolute(el.getAttribute('href') ?? ''),
      rel: (el.getAttribute('rel') ?? '').toLowerCase(),
      type: (el.getAttribute('type') ?? '').toLowerCase(),
      text: el.tagName === 'A' ? el.text.trim().replace(/\s+/g, ' ').slice(0, 200) : '',
    });
  }
  const jsonLd: unknown[] = [];
  let jsonLdErrors = 0;
  for (const el of root.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      flattenJsonLd(JSON.parse(el.rawText), jsonLd);
    } catch {
      jsonLdErrors++;
    }
  }
  const scripts = root.querySelectorAll('script').map((s) => s.rawText).join('\n');
  const bodyEl = root.querySelector('body') ?? root;
  const visible = bodyEl.querySelectorAll('script, style, noscript, template').reduce((text, el) => text.replace(el.text, ' '), bodyEl.text);
  const words = visible.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  return {
    title: textOrNull(root.querySelector('title')?.text),
    metaDescription: textOrNull(root.querySelector('meta[name="description"]')?.getAttribute('content')),
    ogSiteName: textOrNull(root.querySelector('meta[property="og:site_name"]')?.getAttribute('content')),
    h1: root.querySelectorAll('h1').map((h) => h.text.trim()).filter((t) => t.length > 0),
    wordCount: words.length,
    links,
    jsonLd,
    jsonLdErrors,
    hasPasswordInput: root.querySelectorAll('input[type="password"]').length > 0,
    webmcpForms: root.querySelectorAll('form[toolname]').length,
    webmcpScript: registersWebMcpTools(scripts),
    webmcpSurfaces: webMcpSurfaces(scripts),
    scriptSrcs: root.querySelectorAll('script[src]').map((s) => absolute(s.getAttribute('src') ?? '')),
    challengeMarkers: findChallengeMarkers(body),
  };
}

/**
 * The model context a script reaches, however it is spelled: `document.modelContext` (the WebMCP draft since May 2026,
 * index.bs §Extensions to Document, webmcp#184), `navigator.modelContext` (the draft before it, Chrome's early
 * builds and the polyfills) and `window.…` spellings, with optional chaining (`navigator?.modelContext`) or brackets
 * (`document["modelContext"]`).
 */
const MODEL_CONTEXT = /\b(document|navigator)\s*(?:\?\.|\.)\s*modelContext\b|\b(document|navigator)\s*(?:\?\.)?\s*\[\s*(['"`])modelContext\3\s*\]|\bwindow\s*(?:\?\.|\.)\s*modelContext\b/g;
/** A registration call, optional call included: registerTool(...), registerTool?.(...), provideContext(...) (earlier drafts). */
const REGISTRATION = /\b(registerTool|provideContext)\s*(?:\?\.)?\s*\(/;

/** The surfaces a script registers WebMCP tools on, in first-seen order ("document.modelContext", "navigator.modelContext"). */
export function webMcpSurfaces(source: string): string[] {
  if (!REGISTRATION.test(source)) return [];
  const found = new Set<string>();
  for (const match of source.matchAll(MODEL_CONTEXT)) found.add(`${match[1] ?? match[2] ?? 'window'}.modelContext`);
  return [...found];
}

/** WebMCP imperative API: tools registered on document.modelContext or navigator.modelContext (see webMcpSurfaces). */
export function registersWebMcpTools(source: string): boolean {
  return webMcpSurfaces(source).length > 0;
}

function flattenJsonLd(value: unknown, into: unknown[]): void {
  if (Array.isArray(value)) {
    for (const item of value) flattenJsonLd(item, into);
    return;
  }
  if (value && typeof value === 'object') {
    into.push(value);
    const graph = (value as Record<string, unknown>)['@graph'];
    if (graph) flattenJsonLd(graph, into);
  }
}

function textOrNull(value: string | undefined | null): string | null {
  const trimmed = value?.trim().replace(/\s+/g, ' ');
  return trimmed ? trimmed : null;
}

export function jsonLdTypes(item: unknown): string[] {
  if (!item || typeof item !== 'object') return [];
  const type = (item as Record<string, unknown>)['@type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return [];
}

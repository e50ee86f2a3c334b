import { parse, type HTMLElement } from 'node-html-parser';
import { MAX_LINKS, MAX_TEXT_CHARS, type PageAccess, type PageForm, type PageLink, type PageView } from './page-view';

export interface RawPage {
  url: string;
  finalUrl: string;
  status: number;
  headers: Headers;
  body: string;
  bytes: number;
}

const CHALLENGE = /_cf_chl_opt|\/cdn-cgi\/challenge-platform\/|<title>\s*Just a moment\.\.\.\s*<\/title>|Attention Required! \| Cloudflare|Checking if the site connection is secure|captcha-delivery\.com|px-captcha|_pxCaptcha|g-recaptcha|hcaptcha\.com/i;
const LOGIN_PATH = /\/(log-?in|sign-?in|signin|auth|sso|session|account\/login|users\/sign_in)(\/|$|\?)/i;
const LOGIN_WORDS = /\b(sign in|log in|login|signin)\b/i;
const SIGNUP_WORDS = /\b(sign up|signup|register|create (an |your )?account|get started|start free|try (it )?free|join)\b/i;

/** Turns a fetched response into what an agent can read: text, links, forms, JSON-LD and an access verdict. */
export function parsePage(raw: RawPage): PageView {
  const contentType = (raw.headers.get('content-type') ?? '').toLowerCase();
  const base: PageView = {
    url: raw.url,
    finalUrl: raw.finalUrl,
    status: raw.status,
    contentType,
    access: 'ok',
    title: '',
    description: '',
    headings: [],
    text: '',
    links: [],
    forms: [],
    jsonLd: [],
    scriptOnly: false,
    bytes: raw.bytes,
  };
  const looksHtml = contentType.includes('html') || (!contentType && /^\s*<(!doctype|html)/i.test(raw.body));
  const page = looksHtml ? { ...base, ...parseHtml(raw.body, raw.finalUrl) } : { ...base, ...parseText(raw.body, raw.finalUrl, contentType) };
  const verdict = judgeAccess(raw, page);
  page.access = verdict.access;
  if (verdict.reason) page.accessReason = verdict.reason;
  return page;
}

function judgeAccess(raw: RawPage, page: PageView): { access: PageAccess; reason?: string } {
  const { status, headers, body } = raw;
  if (status === 401 || status === 407) return { access: 'sign_in', reason: `${status} ${headers.get('www-authenticate') ? 'with WWW-Authenticate' : 'unauthorized'}` };
  const challenge = headers.get('cf-mitigated') === 'challenge' || CHALLENGE.test(body.slice(0, 100_000));
  if (challenge && (status === 403 || status === 429 || status === 503 || status === 200)) return { access: 'blocked', reason: `bot challenge (${status})` };
  if (status === 403) return { access: 'blocked', reason: '403 forbidden' };
  if (status === 429) return { access: 'blocked', reason: '429 rate limited' };
  if (status === 404 || status === 410) return { access: 'not_found', reason: `${status} not found` };
  if (status >= 400) return { access: 'error', reason: `${status} error` };
  if (isLoginWall(raw, page)) return { access: 'sign_in', reason: `redirected to a sign-in page (${pathOf(page.finalUrl)})` };
  return { access: 'ok' };
}

/** A sign-in wall: asked for one page, landed on a login form we did not ask for. */
function isLoginWall(raw: RawPage, page: PageView): boolean {
  if (raw.finalUrl === raw.url || LOGIN_PATH.test(pathOf(raw.url))) return false;
  const hasPassword = page.forms.some((f) => f.inputs.some((i) => i.type === 'password'));
  const loginish = LOGIN_PATH.test(pathOf(raw.finalUrl)) || LOGIN_WORDS.test(`${page.title} ${page.headings.join(' ')}`);
  const signupish = SIGNUP_WORDS.test(`${page.title} ${page.headings.join(' ')}`);
  return hasPassword && loginish && !signupish;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

function parseHtml(body: string, baseUrl: string): Partial<PageView> {
  // Adjacent cells and list items would otherwise run together ("Pro$49"): keep a space between elements.
  const root = parse(body.replace(/></g, '> <'), { comment: false, blockTextElements: { script: true, style: true, noscript: true } });
  const bodyEl = root.querySelector('body') ?? root;
  const noscript = bodyEl.querySelectorAll('noscript').map((n) => n.text).join(' ');
  // Links are kept apart (below); navigation text would only repeat them and drown the content.
  const textRoot = parse(bodyEl.toString(), { comment: false, blockTextElements: { script: true, style: true, noscript: true } });
  for (const el of textRoot.querySelectorAll('script, style, noscript, template, nav, footer')) el.remove();
  const text = collapseKeepingLines(textRoot.structuredText ?? textRoot.text).slice(0, MAX_TEXT_CHARS);
  const links: PageLink[] = [];
  const seen = new Set<string>();
  for (const a of root.querySelectorAll('a[href]')) {
    const url = absolute(a.getAttribute('href') ?? '', baseUrl);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    links.push({ url, text: collapse(a.text || a.getAttribute('aria-label') || a.getAttribute('title') || '').slice(0, 120) });
    if (links.length >= MAX_LINKS) break;
  }
  const jsonLd: Array<Record<string, unknown>> = [];
  for (const el of root.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      flattenJsonLd(JSON.parse(el.rawText), jsonLd);
    } catch {
      // A broken JSON-LD block is ignored, as a crawler would.
    }
  }
  const scriptCount = root.querySelectorAll('script').length;
  return {
    title: collapse(root.querySelector('title')?.text ?? ''),
    description: collapse(
      root.querySelector('meta[name="description"]')?.getAttribute('content') ?? root.querySelector('meta[property="og:description"]')?.getAttribute('content') ?? '',
    ),
    headings: root.querySelectorAll('h1, h2').map((h) => collapse(h.text)).filter(Boolean).slice(0, 20),
    text,
    links,
    forms: root.querySelectorAll('form').slice(0, 20).map((f) => parseForm(f, baseUrl)),
    jsonLd,
    scriptOnly: scriptCount > 0 && wordCount(text) < 5 && (links.length === 0 || /enable javascript/i.test(noscript)),
  };
}

function parseForm(form: HTMLElement, baseUrl: string): PageForm {
  return {
    action: absolute(form.getAttribute('action') ?? '', baseUrl) ?? baseUrl,
    method: (form.getAttribute('method') ?? 'get').toLowerCase(),
    inputs: form
      .querySelectorAll('input, textarea, select')
      .filter((i) => (i.getAttribute('type') ?? '').toLowerCase() !== 'hidden')
      .map((i) => ({ name: i.getAttribute('name') ?? '', type: (i.getAttribute('type') ?? i.tagName).toLowerCase() }))
      .slice(0, 30),
    buttons: form
      .querySelectorAll('button, input[type="submit"]')
      .map((b) => collapse(b.text || b.getAttribute('value') || ''))
      .filter(Boolean)
      .slice(0, 5),
  };
}

/** Markdown (llms.txt), plain text and JSON: links from markdown syntax and bare URLs. */
function parseText(body: string, baseUrl: string, contentType: string): Partial<PageView> {
  const text = body.slice(0, MAX_TEXT_CHARS);
  const links: PageLink[] = [];
  const seen = new Set<string>();
  const add = (href: string, label: string): void => {
    const url = absolute(href, baseUrl);
    if (!url || seen.has(url) || links.length >= MAX_LINKS) return;
    seen.add(url);
    links.push({ url, text: collapse(label).slice(0, 120) });
  };
  for (const m of text.matchAll(/\[([^\]]{0,200})\]\(([^)\s]{1,2000})\)/g)) add(m[2], m[1]);
  for (const m of text.matchAll(/https?:\/\/[^\s)"'<>\]]{1,2000}/g)) add(m[0], '');
  const heading = /^#\s+(.+)$/m.exec(text)?.[1] ?? '';
  const quote = /^>\s+(.+)$/m.exec(text)?.[1] ?? '';
  let json: unknown;
  if (contentType.includes('json') || /^\s*[{[]/.test(body)) {
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
  }
  return { title: collapse(heading), description: collapse(quote), headings: heading ? [collapse(heading)] : [], text: collapse(text), links, json };
}

function flattenJsonLd(value: unknown, into: Array<Record<string, unknown>>): void {
  if (Array.isArray(value)) {
    for (const item of value) flattenJsonLd(item, into);
    return;
  }
  if (value && typeof value === 'object' && into.length < 100) {
    into.push(value as Record<string, unknown>);
    const graph = (value as Record<string, unknown>)['@graph'];
    if (graph) flattenJsonLd(graph, into);
  }
}

export function absolute(href: string, baseUrl: string): string | null {
  const trimmed = href.trim();
  if (!trimmed || trimmed.startsWith('#') || /^javascript:/i.test(trimmed)) return null;
  try {
    const url = new URL(trimmed, baseUrl);
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Lines survive so an excerpt can stop at a block boundary instead of running into the navigation. */
function collapseKeepingLines(text: string): string {
  return text.replace(/[^\S\n]+/g, ' ').replace(/ *\n[\s]*/g, '\n').trim();
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

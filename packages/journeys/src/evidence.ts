// What each kind of page proves. Detectors are pure functions of one PageView; the task definitions decide which
// kinds of evidence answer which task.
import type { PageView } from './page/page-view';
import type { JourneyEvidence } from './types';

const PRICING_WORDS = /\b(pricing|prices?|plans?( and pricing)?|subscriptions?|billing|tarifs?|preise)\b/i;
const DOCS_WORDS = /\b(docs|documentation|developers?|guides?|quick ?start|getting started|get started|tutorials?)\b/i;
const GETTING_STARTED_WORDS = /\b(getting started|get started|quick ?start|first steps|onboarding|tutorial)\b/i;
const GETTING_STARTED_STEPS = /\b(sign up|create (an |your )?account|api key|install|npm |pip |first (invoice|request|call|project)|step 1|then call)\b/i;
const API_WORDS = /\b(api reference|api docs|rest api|graphql|endpoints?|openapi|swagger|developer api)\b/i;
const SIGNUP_WORDS = /\b(sign up|signup|register|create (an |your )?(free )?account|start (for )?free|get started free|join)\b/i;
const LOGIN_WORDS = /\b(sign in|log in|login)\b/i;
const SUPPORT_WORDS = /\b(support|help ?cent(er|re)|contact( us)?|customer service|help desk|status page)\b/i;
const PRICE_IN_TEXT = /(?:[$€£¥]\s?\d[\d,.]*(?:\s*(?:\/|per)\s*(?:mo(?:nth)?|month|year|yr|user|seat))?|\b\d[\d,.]*\s?(?:USD|EUR|GBP|dollars|euros)\b(?:\s*(?:\/|per)\s*(?:mo(?:nth)?|month|year))?)/gi;
const EMAIL = /\b[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}\b/gi;

export function detectEvidence(page: PageView): JourneyEvidence[] {
  if (page.access !== 'ok') return [];
  const found: JourneyEvidence[] = [];
  const add = (kind: string, detail: string): void => {
    const clean = detail.replace(/\s+/g, ' ').trim().slice(0, 300);
    if (clean && !found.some((e) => e.kind === kind && e.detail === clean)) found.push({ kind, url: page.finalUrl, detail: clean });
  };
  const headline = `${page.title} ${page.headings.slice(0, 3).join(' ')} ${pathOf(page.finalUrl)}`;

  summary(page, add);
  pricing(page, headline, add);
  docs(page, headline, add);
  api(page, headline, add);
  signup(page, headline, add);
  support(page, headline, add);
  return found;
}

type Add = (kind: string, detail: string) => void;

function summary(page: PageView, add: Add): void {
  for (const item of page.jsonLd) {
    const description = str(item.description);
    if (description && description.length >= 40) add('product_summary', `${typeLabel(item)}: ${description}`);
  }
  if (/llms(-full)?\.txt$/i.test(pathOf(page.finalUrl)) && page.description.length >= 20) add('product_summary', `llms.txt: ${page.description}`);
  if (page.description.length >= 40 && page.contentType.includes('html')) add('product_summary', `meta description: ${page.description}`);
}

function pricing(page: PageView, headline: string, add: Add): void {
  const offers = collectOffers(page.jsonLd);
  for (const offer of offers) add('plan_price', `${offer} (schema.org Offer)`);
  const pricingPage = PRICING_WORDS.test(headline);
  if (pricingPage) add('pricing_page', page.title || pathOf(page.finalUrl));
  if (pricingPage || offers.length > 0) {
    const prices = [...page.text.matchAll(PRICE_IN_TEXT)].map((m) => m[0].trim()).filter((p) => /\d/.test(p));
    const unique = [...new Set(prices)].slice(0, 6);
    if (unique.length > 0 && pricingPage) add('plan_price', `prices on the page: ${unique.join(', ')}`);
  }
}

function docs(page: PageView, headline: string, add: Add): void {
  if (DOCS_WORDS.test(headline)) add('docs_page', page.title || pathOf(page.finalUrl));
  const gettingStartedHere = GETTING_STARTED_WORDS.test(headline) || DOCS_WORDS.test(headline);
  const steps = GETTING_STARTED_STEPS.exec(page.text);
  if (gettingStartedHere && steps && !/sign up|signup|register/i.test(pathOf(page.finalUrl))) {
    add('getting_started', sentenceAround(page.text, steps.index));
  }
}

function api(page: PageView, headline: string, add: Add): void {
  const doc = page.json as Record<string, unknown> | undefined;
  if (doc && typeof doc === 'object' && (typeof doc.openapi === 'string' || typeof doc.swagger === 'string')) {
    const info = (doc.info ?? {}) as Record<string, unknown>;
    const paths = doc.paths && typeof doc.paths === 'object' ? Object.keys(doc.paths).length : 0;
    add('openapi_document', `${str(info.title) ?? 'OpenAPI document'} ${str(info.version) ?? ''} (OpenAPI ${str(doc.openapi) ?? str(doc.swagger)}, ${paths} paths)`);
  }
  if (page.contentType.includes('html') && API_WORDS.test(headline)) add('api_reference', page.title || pathOf(page.finalUrl));
}

function signup(page: PageView, headline: string, add: Add): void {
  const signupHere = SIGNUP_WORDS.test(headline) || page.forms.some((f) => f.buttons.some((b) => SIGNUP_WORDS.test(b)));
  if (!signupHere) return;
  if (!LOGIN_WORDS.test(page.title) || SIGNUP_WORDS.test(page.title)) add('signup_page', page.title || pathOf(page.finalUrl));
  for (const form of page.forms) {
    const fields = form.inputs.filter((i) => i.name || i.type !== 'submit');
    const hasIdentity = fields.some((i) => i.type === 'email' || /e-?mail|user/i.test(i.name));
    const looksLogin = form.buttons.some((b) => LOGIN_WORDS.test(b)) && !form.buttons.some((b) => SIGNUP_WORDS.test(b));
    if (hasIdentity && !looksLogin) {
      add('signup_form', `${form.method.toUpperCase()} ${pathOf(form.action)} with ${fields.map((i) => i.name || i.type).join(', ')}${form.buttons[0] ? ` ("${form.buttons[0]}")` : ''}`);
    }
  }
}

function support(page: PageView, headline: string, add: Add): void {
  const supportPage = SUPPORT_WORDS.test(headline);
  if (supportPage) add('support_page', page.title || pathOf(page.finalUrl));
  for (const link of page.links) {
    if (link.url.startsWith('mailto:')) add('support_channel', `e-mail ${decodeURIComponent(link.url.slice(7).split('?')[0])}`);
    else if (link.url.startsWith('tel:')) add('support_channel', `phone ${link.url.slice(4)}`);
  }
  for (const item of page.jsonLd) {
    const points = ([] as unknown[]).concat(item.contactPoint ?? []);
    for (const point of points) {
      if (!point || typeof point !== 'object') continue;
      const p = point as Record<string, unknown>;
      if (str(p.email)) add('support_channel', `e-mail ${str(p.email)} (schema.org ContactPoint)`);
      if (str(p.telephone)) add('support_channel', `phone ${str(p.telephone)} (schema.org ContactPoint)`);
    }
  }
  if (supportPage) {
    for (const email of page.text.match(EMAIL) ?? []) add('support_channel', `e-mail ${email}`);
    for (const form of page.forms) {
      if (form.inputs.some((i) => i.type === 'textarea' || /message|question/i.test(i.name))) add('support_channel', `contact form ${pathOf(form.action)}`);
    }
  }
}

function collectOffers(items: Array<Record<string, unknown>>): string[] {
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 4 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const v of value) visit(v, depth + 1);
      return;
    }
    const item = value as Record<string, unknown>;
    const types = ([] as unknown[]).concat(item['@type'] ?? []);
    if (types.includes('Offer') && (item.price !== undefined || item.priceSpecification)) {
      const price = str(item.price) ?? str((item.priceSpecification as Record<string, unknown> | undefined)?.price) ?? '?';
      out.push(`${str(item.name) ?? 'offer'}: ${price} ${str(item.priceCurrency) ?? ''}`.trim());
    }
    visit(item.offers, depth + 1);
  };
  visit(items, 0);
  return [...new Set(out)].slice(0, 10);
}

function typeLabel(item: Record<string, unknown>): string {
  const type = ([] as unknown[]).concat(item['@type'] ?? []).find((t) => typeof t === 'string');
  return typeof type === 'string' ? `${type} JSON-LD` : 'JSON-LD';
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value.trim();
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** The sentence (or line) holding the match, bounded. */
function sentenceAround(text: string, index: number): string {
  const before = text.slice(Math.max(0, index - 200), index);
  const cut = Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n'));
  const start = index - before.length + (cut === -1 ? 0 : cut + 1);
  const after = text.slice(index, index + 240);
  const stop = after.search(/\.(\s|$)|\n/);
  return text.slice(start, stop === -1 ? index + after.length : index + stop + 1).trim();
}

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

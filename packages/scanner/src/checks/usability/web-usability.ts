import { webMcpSurfaces } from '../../util/html-summary';
import { MIN_SAMPLE } from '../../gather/page-sample';
import { servesMarkdown } from '../../gather/llms-txt-v2';
import { leftOut, pagePath } from '../page-share';
import type { Artifacts, FetchedDoc } from '../../gather/artifacts';
import type { CheckOutcome } from '../types';
import { defineCheck, docEvidence, excerpt, isOk, looksLikeHtml, outcome, undecided, unreachable, WEBSITE } from '../define';
import { commerceDocs, hasCommerce, isProductSite, productDocs, pricingPageShowsPrices, structuredOffers } from '../signals';

export const markdownNegotiation = defineCheck({
  id: 'markdown-negotiation',
  name: 'Markdown on request',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description:
    'Accept: text/markdown returns real markdown (not relabelled HTML) with Vary: Accept, or the page links its markdown twin (rel="alternate" type="text/markdown") and the twin serves markdown; a twin at page.html.md or page.md (both accepted by llms.txt v2) that the page does not link is a warning. Sampled over the page sample; the evidence gives the share of sampled pages that answer in markdown.',
  fix: 'Answer Accept: text/markdown with a markdown rendering of every page and Vary: Accept, or serve a markdown twin (page.html.md or page.md) and link it with <link rel="alternate" type="text/markdown" href="...">.',
  evaluate(a) {
    const doc = a.markdown;
    const problem = unreachable(doc, 'the home page as markdown');
    if (problem || !doc) return problem!;
    const homeVerdict = pageMarkdown(doc);
    const home = judgeHomeMarkdown(a, doc, homeVerdict);
    // A sampled page whose markdown answer is the site's soft 404 is a page without markdown, not an unread one.
    const samples = (a.markdownSamples ?? []).filter((d) => Boolean(d.softNotFound) || isOk(d));
    if (samples.length === 0) return thinSample(a, home, 1);
    const verdicts = samples.map(pageMarkdown);
    const total = samples.length + 1;
    // Pages whose markdown answer never came are left out of the share, and the share says so (as sampleShare does).
    const leftOutNote = leftOut(unreadMarkdownSamples(a));
    // A home page whose markdown twin serves markdown (llms.txt v2) has markdown on request too.
    const homeServed = homeVerdict === 'negotiated' || homeVerdict === 'no-vary' || (homeVerdict === 'none' && (home.status === 'passed' || home.status === 'warning'));
    const served = (homeServed ? 1 : 0) + verdicts.filter((v) => v === 'negotiated' || v === 'no-vary').length;
    const share = `${served} of ${total} sampled pages (the home page and ${samples.length} ${a.pages ? 'more' : 'from the sitemap'})${leftOutNote}`;
    const allNegotiated = home.status === 'passed' && verdicts.every((v) => v === 'negotiated');
    if (allNegotiated) {
      const detail = homeVerdict === 'negotiated' ? `Markdown is negotiated with Vary: Accept on ${share}` : `${home.evidence.detail}; the other ${samples.length} sampled page(s) negotiate markdown with Vary: Accept (${share})`;
      return thinSample(a, { ...home, evidence: { ...home.evidence, detail } }, total);
    }
    if (served === 0) return { ...home, evidence: { ...home.evidence, detail: `${home.evidence.detail}; markdown on ${share}` } };
    const missing = samples.filter((_, i) => verdicts[i] !== 'negotiated').map((s) => s.finalUrl ?? s.url);
    const where = { url: home.evidence.url, status: home.evidence.status, header: home.evidence.header, excerpt: home.evidence.excerpt };
    return outcome('warning', `Markdown on ${share}${missing.length > 0 ? `; not negotiated (with Vary: Accept) at ${missing.slice(0, 3).join(', ')}` : ''}`, where);
  },
});

/** Sampled pages whose markdown answer never came (a fault of the fetch, not the site's). */
function unreadMarkdownSamples(a: Artifacts): number {
  return (a.markdownSamples ?? []).filter((d) => unreachable(d, d.url)?.status === 'couldnt_check').length;
}

/** A pass on fewer than MIN_SAMPLE pages says so and is worth a warning at most (page-share.ts). */
function thinSample(a: Artifacts, result: CheckOutcome, total: number): CheckOutcome {
  if (!a.pages || total >= MIN_SAMPLE || result.status !== 'passed') return result;
  const unread = unreadMarkdownSamples(a);
  if (unread > 0) return outcome('couldnt_check', `Only ${total} of ${total + unread} sampled pages answered the markdown request, fewer than ${MIN_SAMPLE}: too few to judge the site`, { url: result.evidence.url });
  return { ...result, status: 'warning', evidence: { ...result.evidence, detail: `${result.evidence.detail}. Only ${total} page(s) could be sampled, fewer than ${MIN_SAMPLE}: too thin to judge a whole site, so this is at most a warning` } };
}

type PageMarkdown = 'negotiated' | 'no-vary' | 'html' | 'none';

/** One page's answer to Accept: text/markdown. */
function pageMarkdown(doc: FetchedDoc): PageMarkdown {
  if (!isOk(doc) || !/text\/(markdown|x-markdown)/i.test(doc.contentType ?? '')) return 'none';
  if (/^\s*</.test(doc.body) || looksLikeHtml({ ...doc, contentType: '' })) return 'html';
  return /accept/i.test(doc.headers.vary ?? '') ? 'negotiated' : 'no-vary';
}

function judgeHomeMarkdown(a: Artifacts, doc: FetchedDoc, verdict: PageMarkdown): CheckOutcome {
  if (verdict === 'html') return outcome('failed', 'Labelled text/markdown but the body is HTML', { ...docEvidence(doc, 'body'), header: `content-type: ${doc.contentType}` });
  if (verdict === 'negotiated') return outcome('passed', 'Markdown is negotiated with Vary: Accept', { ...docEvidence(doc, 'body'), header: `vary: ${doc.headers.vary}` });
  if (verdict === 'no-vary') return outcome('warning', 'Markdown is served, but without Vary: Accept caches may hand it to browsers', { ...docEvidence(doc, 'body'), header: `content-type: ${doc.contentType}` });
  const twin = judgeMarkdownTwin(a);
  if (twin) return twin;
  const alternate = a.homeHtml?.links.find((l) => l.rel.includes('alternate') && /markdown/.test(l.type));
  if (alternate) return outcome('warning', `No negotiation, but a markdown alternate is linked: ${alternate.href}`, { url: a.home?.finalUrl ?? a.targetUrl, excerpt: alternate.href });
  return outcome('failed', `Accept: text/markdown returned ${doc.contentType ?? 'no content type'}`, { ...docEvidence(doc), header: `content-type: ${doc.contentType ?? '(none)'}` });
}

/**
 * llms.txt v2 (August 2026): a page's markdown version lives at the page URL with ".md" appended (page.html.md) or with
 * its extension replaced (page.md), both accepted, and is linked with rel="alternate" type="text/markdown". A linked
 * twin that serves markdown is markdown on request; one found only at those URLs is, unlinked, half of it; a linked
 * one that does not serve markdown is a broken promise. Null when no twin was looked for (hand-made evidence).
 */
function judgeMarkdownTwin(a: Artifacts): CheckOutcome | null {
  const twin = a.markdownTwin;
  if (!twin) return null;
  const served = twin.doc !== null && isOk(twin.doc) && servesMarkdown(twin.doc);
  const shown = (doc: FetchedDoc): string => pagePath(doc.finalUrl ?? doc.url);
  if (twin.via === 'alternate') {
    const doc = twin.doc ?? twin.tried[0];
    if (served) return outcome('passed', `The page links its markdown twin ${shown(doc)} (rel="alternate" type="text/markdown", llms.txt v2), which serves markdown`, docEvidence(doc, 'body'));
    const problem = unreachable(doc, `the linked markdown twin ${shown(doc)}`);
    if (problem?.status === 'couldnt_check') return problem;
    const why = problem ? problem.evidence.detail : doc.status === 200 ? `it answers ${doc.contentType ?? 'without a content type'}, not markdown` : `it answers HTTP ${doc.status}`;
    return outcome('failed', `The page links a markdown twin at ${shown(doc)}, but ${why}`, { ...docEvidence(doc), header: `content-type: ${doc.contentType ?? '(none)'}` });
  }
  if (served && twin.doc) {
    return outcome(
      'warning',
      `A markdown twin is served at ${shown(twin.doc)} (llms.txt v2 accepts page.html.md and page.md), but the page neither negotiates markdown nor links the twin with rel="alternate" type="text/markdown"`,
      docEvidence(twin.doc, 'body'),
    );
  }
  return null;
}

export const pricingReadable = defineCheck({
  id: 'pricing-readable',
  name: 'Pricing is machine-readable',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'A public pricing page whose plans carry schema.org Offer / AggregateOffer with price and priceCurrency.',
  fix: 'Add JSON-LD to /pricing: a Product with offers [{"@type":"Offer","name":"Pro","price":"49","priceCurrency":"USD"}].',
  evaluate(a) {
    if (!hasCommerce(a)) return undecided(commerceDocs(a), 'whether the site sells anything') ?? outcome('not_applicable', 'No commerce was detected (no priced pricing page, offers or checkout)');
    const offers = structuredOffers(a);
    if (offers.length > 0) {
      const example = offers.find((o) => typeof o.name === 'string' && Number(o.price) > 0) ?? offers[0];
      const label = [example.name, example.price ?? example.lowPrice, example.priceCurrency].filter((v) => v !== undefined).join(' ');
      return outcome('passed', `${offers.length} Offer(s) with price and currency, e.g. ${label}`, docEvidence(a.pricing));
    }
    if (pricingPageShowsPrices(a)) return outcome('warning', 'The pricing page shows prices as text only, without schema.org offers', docEvidence(a.pricing, 'body'));
    return outcome('failed', a.pricing?.status ? `No readable pricing page (HTTP ${a.pricing.status})` : 'No pricing page was found', docEvidence(a.pricing));
  },
});

export const docsLinks = defineCheck({
  id: 'docs-links',
  name: 'Home page links to docs',
  layer: 'usability',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'An agent starting at the home page can reach documentation or an API reference in one hop.',
  fix: 'Link "Docs" and "API" from the home page navigation or footer.',
  evaluate(a) {
    if (!isProductSite(a)) return undecided(productDocs(a), 'whether the site is a product') ?? outcome('not_applicable', 'No product surface was found, so documentation is not expected');
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    const links = a.homeHtml?.links ?? [];
    const docs = links.filter((l) => /\b(docs?|documentation|developers?|api|reference|help center|guides?)\b/i.test(`${l.text} ${safePath(l.href)}`));
    if (docs.length > 0) return outcome('passed', `Links to ${[...new Set(docs.map((l) => l.href))].slice(0, 3).join(', ')}`, docEvidence(a.home));
    return outcome('failed', 'No link to documentation or an API reference on the home page', docEvidence(a.home));
  },
});

export const webMcp = defineCheck({
  id: 'webmcp',
  name: 'WebMCP tools on the page',
  layer: 'usability',
  tier: 'emerging',
  bonus: true,
  appliesTo: WEBSITE,
  description:
    'The page declares tools for in-browser agents (WebMCP, W3C Web Machine Learning CG draft): declarative <form toolname tooldescription>, or registerTool on document.modelContext (the draft\'s) or navigator.modelContext (the earlier draft\'s, still accepted) in an inline script or a same-origin script file (at most 3 files, 512 KiB each, are read). The evidence names the surface.',
  fix: 'Annotate key forms with toolname and tooldescription attributes, or register tools with document.modelContext.registerTool() (WebMCP moved modelContext from navigator to document in May 2026; feature-detect both while browsers catch up).',
  evaluate(a) {
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    const html = a.homeHtml;
    if (html && html.webmcpForms > 0) return outcome('passed', `${html.webmcpForms} form(s) declare a toolname`, docEvidence(a.home));
    if (html?.webmcpScript) return outcome('passed', `An inline script registers WebMCP tools${onSurfaces(html.webmcpSurfaces ?? [])}`, docEvidence(a.home));
    const script = (a.scripts ?? []).find((s) => isOk(s) && webMcpSurfaces(s.body).length > 0);
    if (script) return outcome('passed', `${script.finalUrl ?? script.url} registers WebMCP tools${onSurfaces(webMcpSurfaces(script.body))}`, { ...docEvidence(script), excerpt: excerptAround(script.body, /\bregisterTool\s*(?:\?\.)?\s*\(|\bprovideContext\s*(?:\?\.)?\s*\(/) });
    // Tools may live on the page they act on (a search form, a checkout) rather than the home page.
    const elsewhere = (a.pages ?? []).filter((p) => isOk(p.doc) && (p.html?.webmcpForms || p.html?.webmcpScript));
    const sampled = (a.pages ?? []).filter((p) => isOk(p.doc)).length + 1;
    if (elsewhere.length > 0) {
      return outcome('passed', `${elsewhere.length} of ${sampled} sampled pages declare WebMCP tools: ${elsewhere.slice(0, 3).map((p) => pagePath(p.doc.finalUrl ?? p.doc.url)).join(', ')}`, docEvidence(elsewhere[0].doc));
    }
    const unread = undecided(a.scripts ?? [], 'whether the page scripts register WebMCP tools');
    if (unread) return unread;
    const read = (a.scripts ?? []).filter(isOk).length;
    return outcome('failed', `No WebMCP declarations on the home page${read > 0 ? ` or in its ${read} script file(s)` : ''}${sampled > 1 ? ` or on the ${sampled - 1} other sampled page(s)` : ''}`, docEvidence(a.home));
  },
});

/** Which model context the tools are registered on, in words: the draft's document.modelContext or the earlier navigator one. */
function onSurfaces(surfaces: string[]): string {
  if (surfaces.length === 0) return '';
  const named = surfaces.map((s) => (s === 'document.modelContext' ? 'document.modelContext (the WebMCP draft\'s)' : s === 'navigator.modelContext' ? 'navigator.modelContext (the earlier draft\'s, still accepted)' : s));
  return ` on ${named.join(' and ')}`;
}

function excerptAround(text: string, pattern: RegExp): string {
  const at = text.search(pattern);
  return excerpt(text.slice(Math.max(0, at - 60), Math.max(0, at - 60) + 200));
}

function safePath(href: string): string {
  try {
    return new URL(href).pathname;
  } catch {
    return href;
  }
}

import { jsonLdTypes } from '../../util/html-summary';
import { sampleShare } from '../page-share';
import { defineCheck, docEvidence, excerpt, outcome, unreachable, WEBSITE } from '../define';

const USEFUL_TYPES = ['Organization', 'Corporation', 'SoftwareApplication', 'WebApplication', 'Product', 'WebSite', 'Article', 'NewsArticle', 'BlogPosting', 'LocalBusiness', 'Service'];

export const jsonLd = defineCheck({
  id: 'json-ld',
  name: 'schema.org JSON-LD describes the site',
  layer: 'discovery',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'JSON-LD on the home page (Organization, SoftwareApplication, Product, WebSite...) tells agents what the site is without guessing.',
  fix: 'Add <script type="application/ld+json"> with an Organization (name, url, contactPoint) and your Product or SoftwareApplication (with offers).',
  evaluate(a) {
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    const html = a.homeHtml;
    if (!html) return outcome('failed', 'The home page is not HTML', docEvidence(a.home));
    const types = html.jsonLd.flatMap(jsonLdTypes);
    const useful = types.filter((t) => USEFUL_TYPES.includes(t));
    if (useful.length > 0) return outcome('passed', `JSON-LD types: ${[...new Set(useful)].join(', ')}`, docEvidence(a.home));
    if (types.length > 0 || html.jsonLdErrors > 0) {
      return outcome('warning', html.jsonLdErrors > 0 ? `${html.jsonLdErrors} JSON-LD block(s) do not parse` : `JSON-LD present but only of types ${types.join(', ')}`, docEvidence(a.home));
    }
    return outcome('failed', 'No JSON-LD structured data on the home page', docEvidence(a.home));
  },
});

export const pageMetadata = defineCheck({
  id: 'page-metadata',
  name: 'Home page has a title and a description',
  layer: 'discovery',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'A <title> and a meta description are the first thing an agent reads to understand the product.',
  fix: 'Give the home page a descriptive <title> and a <meta name="description"> that says what the product does, for whom.',
  evaluate(a) {
    const problem = unreachable(a.home, 'the home page');
    if (problem) return problem;
    const html = a.homeHtml;
    const title = html?.title;
    const description = html?.metaDescription;
    const home =
      title && description
        ? outcome('passed', `Title and description present`, { ...docEvidence(a.home), excerpt: excerpt(`${title} — ${description}`) })
        : title || description
          ? outcome('warning', `Only a ${title ? 'title' : 'meta description'} is present`, { ...docEvidence(a.home), excerpt: excerpt(title ?? description ?? '') })
          : outcome('failed', 'Neither a title nor a meta description', docEvidence(a.home));
    return sampleShare(a, home, ({ html: page }) => (page?.title && page.metaDescription ? 'passed' : page?.title || page?.metaDescription ? 'warning' : 'failed'), 'have a title and a meta description');
  },
});

import { defineCheck, docEvidence, looksBinary, looksLikeHtml, outcome, unreachable, WEBSITE } from '../define';
import { parseRobots } from '../../util/robots';

export const robotsTxt = defineCheck({
  id: 'robots-txt',
  name: 'robots.txt is served and parseable',
  layer: 'discovery',
  tier: 'required',
  appliesTo: WEBSITE,
  description: 'A plain-text /robots.txt (RFC 9309) tells agents what they may fetch and where the sitemap is.',
  fix: 'Serve /robots.txt as text/plain with User-agent groups and a Sitemap: line.',
  evaluate(a) {
    const doc = a.robots;
    const problem = unreachable(doc, '/robots.txt');
    if (problem || !doc) return problem!;
    if (doc.error?.code === 'too_large') return outcome('failed', 'robots.txt is larger than the response cap; crawlers stop reading at 500 KiB', docEvidence(doc));
    if (doc.status! >= 500) return outcome('failed', `robots.txt answered ${doc.status}; under RFC 9309 crawlers must then treat the whole site as disallowed`, docEvidence(doc));
    if (doc.status! >= 400) return outcome('failed', `No robots.txt (HTTP ${doc.status}); agents may crawl everything but get no guidance or sitemap`, docEvidence(doc));
    if (doc.status! >= 300 || looksBinary(doc.body) || looksLikeHtml(doc)) {
      return outcome('failed', 'robots.txt is not a plain-text rules file (binary or HTML content)', { ...docEvidence(doc, 'body'), header: `content-type: ${doc.contentType ?? 'none'}` });
    }
    const rules = parseRobots(doc.finalUrl ?? doc.url, doc.body);
    if (rules.directiveCount === 0) return outcome('failed', 'robots.txt has no User-agent, Allow, Disallow or Sitemap directives', docEvidence(doc, 'body'));
    return outcome('passed', `robots.txt has ${rules.directiveCount} directives`, docEvidence(doc, 'body'));
  },
});

export const sitemap = defineCheck({
  id: 'sitemap',
  name: 'XML sitemap is available',
  layer: 'discovery',
  tier: 'required',
  appliesTo: WEBSITE,
  description: 'A sitemap (named in robots.txt or at /sitemap.xml) lists the pages an agent can read.',
  fix: 'Publish /sitemap.xml (a <urlset> or <sitemapindex>) and name it with a Sitemap: line in robots.txt.',
  evaluate(a) {
    if (a.sitemaps.length === 0) return outcome('couldnt_check', 'No sitemap location was fetched');
    const valid = a.sitemaps.find((d) => d.status === 200 && !d.error && /<(urlset|sitemapindex)[\s>]/.test(d.body) && /<\/(urlset|sitemapindex)>\s*$/.test(d.body.trim()));
    if (valid) return outcome('passed', `Sitemap found with ${(valid.body.match(/<loc>/g) ?? []).length} entries`, docEvidence(valid, 'body'));
    // Endless redirects are the site's doing; a location we could not read might have held the sitemap.
    const problems = a.sitemaps.map((d) => unreachable(d, 'the sitemap')).filter((o) => o !== null);
    const redirecting = problems.find((o) => o.status === 'failed');
    const unread = problems.find((o) => o.status === 'couldnt_check');
    if (unread) return unread;
    const answered = a.sitemaps.filter((d) => d.status !== null);
    if (answered.length === 0) return redirecting ?? unreachable(a.sitemaps[0], 'the sitemap')!;
    const malformed = answered.find((d) => d.status === 200 && /<(urlset|sitemapindex)[\s>]/.test(d.body));
    if (malformed) return outcome('failed', 'The sitemap is malformed XML (the <urlset>/<sitemapindex> element is never closed)', docEvidence(malformed, 'body'));
    const first = answered[0];
    return outcome('failed', `No sitemap: ${first.url} answered ${first.status}${first.status === 200 ? ' without a <urlset>' : ''}`, docEvidence(first, first.status === 200 ? 'body' : undefined));
  },
});


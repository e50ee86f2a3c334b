import type { FetchedDoc } from '../../gather/artifacts';
import { parseLinkHeader } from '../../util/link-header';
import { defineCheck, docEvidence, isOk, looksBinary, looksLikeHtml, outcome, undecided, unreachable, WEBSITE } from '../define';

export function llmsTxtStructure(body: string): { h1: boolean; summary: boolean; linkSections: number } {
  const lines = body.split(/\r?\n/);
  const firstContent = lines.find((l) => l.trim().length > 0) ?? '';
  const h1 = /^#\s+\S/.test(firstContent);
  const summary = lines.some((l) => /^>\s*\S/.test(l));
  let linkSections = 0;
  let inSection = false;
  let sectionHasLink = false;
  for (const line of lines) {
    if (/^##\s+\S/.test(line)) {
      if (inSection && sectionHasLink) linkSections++;
      inSection = true;
      sectionHasLink = false;
    } else if (inSection && /^\s*[-*]\s*\[[^\]]+\]\([^)]+\)/.test(line)) {
      sectionHasLink = true;
    }
  }
  if (inSection && sectionHasLink) linkSections++;
  return { h1, summary, linkSections };
}

function isMarkdownText(doc: FetchedDoc): boolean {
  return !looksLikeHtml(doc) && !looksBinary(doc.body);
}

export const llmsTxt = defineCheck({
  id: 'llms-txt',
  name: 'llms.txt follows llmstxt.org',
  layer: 'discovery',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: '/llms.txt gives agents a markdown map of the site: an H1, a > summary and H2 sections of links.',
  fix: 'Publish /llms.txt: "# Name", a "> one-line summary", then "## Section" headings with "- [title](url): note" links to your key pages.',
  evaluate(a) {
    const doc = a.llmsTxt;
    const problem = unreachable(doc, '/llms.txt');
    if (problem || !doc) return problem!;
    if (doc.error?.code === 'too_large') return outcome('failed', 'llms.txt is larger than the response cap; agents read it into a context window', docEvidence(doc));
    if (doc.status !== 200) return outcome('failed', `No llms.txt (HTTP ${doc.status})`, docEvidence(doc));
    if (!isMarkdownText(doc)) return outcome('failed', 'llms.txt answers with HTML or binary content instead of markdown', { ...docEvidence(doc, 'body'), header: `content-type: ${doc.contentType ?? 'none'}` });
    const s = llmsTxtStructure(doc.body);
    if (!s.h1) return outcome('failed', 'llms.txt does not start with an H1 title, which the format requires', docEvidence(doc, 'body'));
    if (!s.summary || s.linkSections === 0) {
      return outcome('warning', `llms.txt has an H1 but ${!s.summary ? 'no "> summary"' : ''}${!s.summary && s.linkSections === 0 ? ' and ' : ''}${s.linkSections === 0 ? 'no H2 section of links' : ''}`, docEvidence(doc, 'body'));
    }
    return outcome('passed', `llms.txt has an H1, a summary and ${s.linkSections} link section(s)`, docEvidence(doc, 'body'));
  },
});

export const llmsTxtLinked = defineCheck({
  id: 'llms-txt-linked',
  name: 'llms.txt is linked from the home page',
  layer: 'discovery',
  tier: 'recommended',
  appliesTo: WEBSITE,
  description: 'Agents rarely guess file names: a link from the home page (or a Link header) makes llms.txt discoverable.',
  fix: 'Link /llms.txt from the home page (<link rel="alternate" type="text/markdown" href="/llms.txt"> or a footer link), or send Link: </llms.txt>; rel="describedby".',
  evaluate(a) {
    if (!isOk(a.llmsTxt) || !isMarkdownText(a.llmsTxt)) return undecided([a.llmsTxt], 'whether there is an llms.txt to link to') ?? outcome('not_applicable', 'There is no llms.txt to link to');
    const inHeader = parseLinkHeader(a.home?.headers.link ?? '', a.targetUrl).find((l) => /llms(-full)?\.txt$/i.test(l.href));
    if (inHeader) return outcome('passed', 'The home page Link header points to llms.txt', { url: a.home?.finalUrl ?? a.targetUrl, header: `link: ${a.home?.headers.link}` });
    const inPage = a.homeHtml?.links.find((l) => /\/llms(-full)?\.txt$/i.test(l.href));
    if (inPage) return outcome('passed', `The home page links to ${inPage.href}`, { url: a.home?.finalUrl ?? a.targetUrl, excerpt: inPage.href });
    return outcome('failed', 'llms.txt exists but nothing on the home page points to it', { url: a.home?.finalUrl ?? a.targetUrl });
  },
});

export const llmsFullTxt = defineCheck({
  id: 'llms-full-txt',
  name: 'llms-full.txt offers the full content',
  layer: 'discovery',
  tier: 'emerging',
  bonus: true,
  appliesTo: WEBSITE,
  description: 'A single markdown file with the full documentation lets an agent load everything in one request.',
  fix: 'Publish /llms-full.txt with the full text of your documentation in markdown.',
  evaluate(a) {
    const doc = a.llmsFullTxt;
    const problem = unreachable(doc, '/llms-full.txt');
    if (problem || !doc) return problem!;
    if (doc.status === 200 && !doc.error && isMarkdownText(doc) && doc.body.trim().length > 0) return outcome('passed', `llms-full.txt is served (${doc.body.length} characters)`, docEvidence(doc, 'body'));
    return outcome('failed', doc.error?.code === 'too_large' ? 'llms-full.txt exceeds the response cap' : `No usable llms-full.txt (HTTP ${doc.status})`, docEvidence(doc));
  },
});

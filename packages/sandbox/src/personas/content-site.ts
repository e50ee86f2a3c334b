import { html, page, text } from '../responses';
import type { Persona, SandboxRequest, SandboxResponse } from '../types';

const SITE = 'The Fern Journal';
const DESCRIPTION = 'The Fern Journal publishes long-form articles about ferns, mosses and shade gardening.';
const articles = [
  { slug: 'growing-maidenhair', title: 'Growing maidenhair ferns indoors', text: 'Maidenhair ferns want steady humidity, indirect light and soil that never dries out completely.' },
  { slug: 'moss-lawns', title: 'Why a moss lawn might suit your shade garden', text: 'Moss needs no mowing, no fertiliser and thrives where grass gives up.' },
];
const nav = `<nav><a href="/">Home</a> <a href="/articles">Articles</a> <a href="/about">About</a> <a href="/llms.txt">llms.txt</a></nav>`;

function articlePage(article: (typeof articles)[number]) {
  return (req: SandboxRequest): SandboxResponse => {
    if ((req.headers.accept ?? '').includes('text/markdown')) {
      return { status: 200, headers: { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }, body: `# ${article.title}\n\n${article.text}\n` };
    }
    return html(
      page({
        title: `${article.title} – ${SITE}`,
        description: article.text,
        siteName: SITE,
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'Article', headline: article.title, publisher: { '@type': 'Organization', name: SITE } }],
        body: `${nav}<article><h1>${article.title}</h1><p>${article.text} ${article.text}</p></article>`,
      }),
      200,
      { vary: 'Accept' },
    );
  };
}

function home(req: SandboxRequest): SandboxResponse {
  const list = articles.map((a) => `<li><a href="/articles/${a.slug}">${a.title}</a></li>`).join('');
  if ((req.headers.accept ?? '').includes('text/markdown')) {
    return { status: 200, headers: { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }, body: `# ${SITE}\n\n> ${DESCRIPTION}\n\n${articles.map((a) => `- [${a.title}](/articles/${a.slug})`).join('\n')}\n` };
  }
  return html(
    page({
      title: SITE,
      description: DESCRIPTION,
      siteName: SITE,
      jsonLd: [{ '@context': 'https://schema.org', '@type': 'WebSite', name: SITE, publisher: { '@type': 'Organization', name: SITE } }],
      head: '<link rel="alternate" type="text/markdown" href="/index.md">',
      body: `${nav}<main><h1>${SITE}</h1><p>${DESCRIPTION} New essays every week from gardeners across Europe, with photographs and planting plans you can use this season.</p><ul>${list}</ul></main>`,
    }),
    200,
    { vary: 'Accept', link: '</llms.txt>; rel="describedby"; type="text/markdown"' },
  );
}

/** A good publisher with nothing to sell: payments must come out not applicable, not failed. */
export const contentSite: Persona = {
  name: 'content-site',
  hostname: 'fern-journal.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['A', 'B'] },
  description: 'A well-kept publication with articles, llms.txt, markdown and open robots rules; no commerce, so payments are not applicable.',
  routes: {
    '/': home,
    '/index.md': (req) => home({ ...req, headers: { ...req.headers, accept: 'text/markdown' } }),
    '/articles': html(page({ title: `Articles – ${SITE}`, siteName: SITE, body: `${nav}<main><h1>Articles</h1><ul>${articles.map((a) => `<li><a href="/articles/${a.slug}">${a.title}</a></li>`).join('')}</ul></main>` })),
    ...Object.fromEntries(articles.map((a) => [`/articles/${a.slug}`, articlePage(a)])),
    '/about': html(page({ title: `About – ${SITE}`, siteName: SITE, body: `${nav}<main><h1>About</h1><p>${DESCRIPTION} Contact the editors at <a href="mailto:editors@fern-journal.test">editors@fern-journal.test</a>.</p></main>` })),
    '/robots.txt': (req) => text(`User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /\n\nUser-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nSitemap: ${req.origin}/sitemap.xml\n`),
    '/sitemap.xml': (req) =>
      text(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${req.origin}/</loc></url>${articles.map((a) => `<url><loc>${req.origin}/articles/${a.slug}</loc></url>`).join('')}</urlset>`, 'application/xml'),
    '/llms.txt': text(`# ${SITE}\n\n> ${DESCRIPTION}\n\n## Articles\n\n${articles.map((a) => `- [${a.title}](/articles/${a.slug}): ${a.text}`).join('\n')}\n`, 'text/markdown; charset=utf-8'),
  },
};

import { html, page, text } from '../responses';
import type { Persona } from '../types';

const SITE = 'Typical SaaS';
const DESCRIPTION = 'Typical SaaS is a project management tool for teams: boards, timelines and reports.';
const nav = '<nav><a href="/">Home</a> <a href="/pricing">Pricing</a> <a href="/docs">Help center</a> <a href="/signup">Start free trial</a> <a href="/login">Log in</a></nav>';

/** Gets the basics right and nothing agent-specific: no llms.txt, no markdown, no OpenAPI, soft 404s, GPTBot blocked. */
export const typicalSaas: Persona = {
  name: 'typical-saas',
  hostname: 'typical-saas.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['C', 'D'] },
  description: 'A common SaaS marketing site: robots.txt and sitemap, server-rendered pages and a pricing table, nothing for agents.',
  routes: {
    '/': html(
      page({
        title: `${SITE} – plan projects together`,
        description: DESCRIPTION,
        siteName: SITE,
        body: `${nav}<main><h1>Plan projects together</h1><p>${DESCRIPTION} Trusted by 10,000 teams. Start a free 14-day trial, no credit card required. Integrates with the tools you already use.</p><p><a href="/docs/api">API</a></p></main>`,
      }),
    ),
    '/robots.txt': (req) => text(`User-agent: *\nAllow: /\nDisallow: /app/\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: ${req.origin}/sitemap.xml\n`),
    '/sitemap.xml': text(
      '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://typical-saas.test/</loc></url><url><loc>https://typical-saas.test/pricing</loc></url></urlset>',
      'application/xml',
    ),
    '/pricing': html(
      page({
        title: `Pricing – ${SITE}`,
        description: 'Simple pricing for every team.',
        siteName: SITE,
        body: `${nav}<main><h1>Pricing</h1><table><tr><th>Starter</th><td>$8 per user / month</td></tr><tr><th>Team</th><td>$15 per user / month</td></tr><tr><th>Enterprise</th><td>Contact sales</td></tr></table><a href="/signup">Start free trial</a></main>`,
      }),
    ),
    '/docs': html(page({ title: `Help center – ${SITE}`, description: 'How to use Typical SaaS.', siteName: SITE, body: `${nav}<main><h1>Help center</h1><p>Guides for boards, timelines and reports.</p></main>` })),
    '/docs/api': html(page({ title: `API – ${SITE}`, siteName: SITE, body: `${nav}<main><h1>API</h1><p>Our REST API is available on the Team plan. Ask support for the reference.</p></main>` })),
    '/signup': html(page({ title: `Start your trial – ${SITE}`, siteName: SITE, body: `${nav}<main><h1>Start your free trial</h1><form method="post"><input name="email" type="email"><input name="password" type="password"><button>Sign up</button></form></main>` })),
    '/login': html(page({ title: `Log in – ${SITE}`, siteName: SITE, body: `<main><h1>Log in</h1><form method="post"><input name="email" type="email"><input name="password" type="password"><button>Log in</button></form></main>` })),
  },
  // A single-page-app fallback: every unknown path answers 200 with the home shell.
  notFound: html(page({ title: SITE, siteName: SITE, body: `${nav}<main><h1>${SITE}</h1><p>Page loading…</p></main>` })),
};

import { html, page, text } from '../responses';
import type { Persona } from '../types';

const SITE = 'Slowpoke Docs';

/** A decent documentation site on a slow host: every answer takes an extra 400 ms. */
export const slow: Persona = {
  name: 'slow',
  hostname: 'slowpoke.test',
  path: '/',
  extraLatencyMs: 400,
  expected: { kind: 'website', ending: 'finished', grades: ['C', 'D'] },
  description: 'A reasonable docs site whose every response takes 400 ms longer; tests timeouts and parallel gathering.',
  routes: {
    '/': html(
      page({
        title: SITE,
        description: 'Slowpoke Docs hosts reference documentation for the Slowpoke command-line tool.',
        siteName: SITE,
        jsonLd: [{ '@context': 'https://schema.org', '@type': 'Organization', name: SITE }],
        body: '<nav><a href="/docs">Docs</a> <a href="/llms.txt">llms.txt</a></nav><main><h1>Slowpoke documentation</h1><p>Everything about the Slowpoke command-line tool: installation, configuration, every command and its options, with examples you can copy.</p></main>',
      }),
    ),
    '/docs': html(page({ title: `Docs – ${SITE}`, body: '<main><h1>Commands</h1><p>slowpoke run, slowpoke wait.</p></main>' })),
    '/robots.txt': (req) => text(`User-agent: *\nAllow: /\n\nSitemap: ${req.origin}/sitemap.xml\n`),
    '/sitemap.xml': (req) => text(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${req.origin}/</loc></url></urlset>`, 'application/xml'),
    '/llms.txt': text(`# ${SITE}\n\n> Reference documentation for the Slowpoke CLI.\n\n## Docs\n\n- [Commands](/docs)\n`, 'text/markdown'),
  },
};

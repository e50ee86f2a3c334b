import { html, page, redirect, text } from '../responses';
import type { Persona } from '../types';

const HUGE = Buffer.alloc(5 * 1024 * 1024, 'A');
const BINARY = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));

/** Answers garbage everywhere a scanner looks: the scan must still end cleanly. */
export const garbage: Persona = {
  name: 'garbage',
  hostname: 'garbage-site.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['F', 'D'] },
  description: 'Binary robots.txt, a 5 MiB llms.txt, endless redirects for the sitemap, invalid JSON in every well-known file.',
  routes: {
    '/': html(page({ title: 'Garbage', body: '<h1>Garbage</h1><p>\u0000\u0001 tag soup <div><p><b>unclosed</i></p>' })),
    '/robots.txt': { status: 200, headers: { 'content-type': 'text/plain' }, body: BINARY },
    '/llms.txt': { status: 200, headers: { 'content-type': 'text/plain' }, body: HUGE },
    '/llms-full.txt': { status: 200, headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: HUGE },
    '/sitemap.xml': redirect('/sitemap.xml?again=1'),
    '/sitemap_index.xml': redirect('/sitemap_index.xml'),
    '/openapi.json': text('\u0000\u00ff not json', 'application/json'),
    '/pricing': redirect('/pricing'),
  },
  notFound: (req) =>
    req.path.startsWith('/.well-known/') ? text('{"unterminated": ', 'application/json') : { status: 200, headers: { 'content-type': 'application/octet-stream' }, body: BINARY },
};

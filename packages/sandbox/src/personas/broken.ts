import { text } from '../responses';
import type { Persona } from '../types';

/** A site having a bad day: 5xx on the home page and robots.txt, malformed discovery files elsewhere. */
export const broken: Persona = {
  name: 'broken',
  hostname: 'broken-shop.test',
  path: '/',
  expected: { kind: 'website', ending: 'finished', grades: ['F'] },
  description: 'Answers 500 on the home page and 503 on robots.txt; its sitemap, llms.txt, OpenAPI and agent card are malformed.',
  routes: {
    '/': { status: 500, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>500 Internal Server Error</h1></body></html>' },
    '/robots.txt': { status: 503, headers: { 'content-type': 'text/plain', 'retry-after': '120' }, body: 'Service unavailable' },
    '/sitemap.xml': text('<?xml version="1.0"?><urlset><url><loc>https://broken-shop.test/</loc>', 'application/xml'),
    '/llms.txt': text('<html><body>Welcome to our shop!</body></html>', 'text/html'),
    '/openapi.json': text('{"openapi": "3.0.0", "paths": {', 'application/json'),
    '/.well-known/agent-card.json': text('{name: broken}', 'application/json'),
    '/.well-known/mcp/server-card.json': { status: 502, body: 'Bad gateway' },
    '/pricing': { status: 500, body: 'error' },
  },
  notFound: { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' },
};

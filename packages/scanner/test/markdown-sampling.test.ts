import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/** Markdown negotiation judged across pages: the home page plus the scan's page sample (SCAN_MAX_PAGES), as a share. */

function site(markdownPaths: string[], pages: string[]): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const origin = `http://${req.headers.host}`;
    if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      return res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${['/', ...pages].map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`);
    }
    if (path !== '/' && !pages.includes(path)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return res.end('not found');
    }
    if (/text\/markdown/.test(req.headers.accept ?? '') && markdownPaths.includes(path)) {
      res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' });
      return res.end(`# Page ${path}\n\nSome text.\n`);
    }
    res.writeHead(200, { 'content-type': 'text/html', vary: 'Accept' });
    res.end(`<!doctype html><html><head><title>Page ${path}</title></head><body><h1>Page</h1><p>Some text for readers.</p></body></html>`);
  };
}

const servers: http.Server[] = [];
const requested: string[] = [];
const results: Record<string, ScanResult> = {};

async function start(handler: http.RequestListener): Promise<string> {
  const server = http.createServer((req, res) => {
    if (/text\/markdown/.test(req.headers.accept ?? '')) requested.push(`${req.headers.host}${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const PAGES = ['/docs', '/blog', '/about', '/pricing', '/careers'];
let homeOnly: string;

beforeAll(async () => {
  const [everywhere, onlyHome] = await Promise.all([start(site(['/', ...PAGES], PAGES)), start(site(['/'], PAGES))]);
  homeOnly = onlyHome;
  const policy = { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES } };
  // maxPages 4: the home page and 3 of the 5 sitemap pages.
  [results.everywhere, results.homeOnly] = await Promise.all([scan(everywhere, { ...policy, maxPages: 4 }), scan(onlyHome, { ...policy, maxPages: 4 })]);
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

const check = (name: string) => results[name].checks.find((c) => c.id === 'markdown-negotiation')!;

// RFC 9110 §12.5.1 (Accept) and §12.5.5 (Vary): a negotiated representation names the header it varies on, so
// caches do not hand markdown to browsers; a site-wide setup answers every page that way, not only the home page.
describe('markdown negotiation sampled across pages', () => {
  it('a site that negotiates markdown everywhere passes, with the share in the evidence', () => {
    expect(check('everywhere')).toMatchObject({ status: 'passed', evidence: { detail: `Markdown is negotiated with Vary: Accept on 4 of 4 sampled pages (the home page and 3 more)` } });
  });

  it('a site that negotiates markdown on its home page only is a warning that names the share and the pages', () => {
    const c = check('homeOnly');
    expect(c.status).toBe('warning');
    expect(c.evidence.detail).toMatch(/^Markdown on 1 of 4 sampled pages \(the home page and 3 more\); not negotiated \(with Vary: Accept\) at /);
    expect(c.evidence.detail).toContain(`${homeOnly}docs`);
  });

  it('sampling is bounded: the sampled pages (SCAN_MAX_PAGES - 1) are asked for markdown, no more', () => {
    const host = new URL(homeOnly).host;
    const pagesAsked = requested.filter((r) => r.startsWith(host) && PAGES.some((p) => r === `${host}${p}`));
    expect(pagesAsked).toHaveLength(3);
  });
});

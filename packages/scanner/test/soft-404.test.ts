import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';
import type { FetchedDoc } from '../src/gather/artifacts';
import { controlPath, likeness } from '../src/gather/soft-404';

/**
 * Issue 29, soft 404s: a document the site answers exactly as it answers a path that cannot exist is not there
 * (afdocs#29: a 200 text/markdown error page counted as markdown negotiation). Real loopback sites.
 */

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push((req.url ?? '/').split('?')[0]);
    handler(req, res);
  });
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const page = (title: string, words: string) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="${title} for agents."></head><body><nav><a href="/docs">Docs</a> <a href="/guide">Guide</a> <a href="/about">About</a></nav><h1>${title}</h1><p>${words.repeat(8)}</p></body></html>`;
const PAGES: Record<string, string> = {
  '/': page('Acme Docs', 'Acme documents widgets for people and agents alike, with guides and references. '),
  '/docs': page('Docs', 'The reference for every widget, its options and its limits, kept current. '),
  '/guide': page('Guide', 'Start here: install a widget, configure it, and call it from your agent. '),
  '/about': page('About', 'Acme has made widgets since 1999 in a small workshop by the river. '),
};
const MARKDOWN: Record<string, string> = {
  '/': '# Acme Docs\n\nAcme documents widgets for people and agents alike.\n',
  '/docs': '# Docs\n\nThe reference for every widget, its options and its limits.\n',
  '/guide': '# Guide\n\nStart here: install a widget, configure it, and call it from your agent.\n',
  '/about': '# About\n\nAcme has made widgets since 1999 in a small workshop by the river.\n',
};
const LLMS = '# Acme\n\n> Widgets for agents.\n\n## Docs\n\n- [Docs](/docs): the reference\n- [Guide](/guide): start here\n';
/** A markdown error page that looks like an llms.txt (H1, summary, a section of links), echoing the path asked for. */
const markdownErrorPage = (path: string) => `# Page not found\n\n> Nothing lives at ${path} (request ${Math.random().toString(36).slice(2, 8)}).\n\n## Try instead\n\n- [Home](/): the start\n- [Docs](/docs): the reference\n`;
const wantsMarkdown = (req: http.IncomingMessage) => /text\/markdown/.test(req.headers.accept ?? '') && !/text\/html/.test(req.headers.accept ?? '');
const robots = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
const check = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;
const policy = { allowPrivateNetworks: true, ...ROOMY_DEADLINES };

describe('soft 404s are not found', () => {
  it('a site answering every markdown request and every .txt with the same 200 text/markdown error page: llms.txt and markdown negotiation are not found', async () => {
    const site = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/robots.txt') return robots(res);
      if (wantsMarkdown(req) || /\.(txt|md)$/.test(path)) return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }).end(markdownErrorPage(path));
      if (PAGES[path]) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[path]);
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy });
      expect(result.ending).toBe('finished');
      const llms = check(result, 'llms-txt');
      expect(llms.status).toBe('failed');
      expect(llms.evidence.detail).toMatch(/^\/llms\.txt is not there: the site answers \/llms\.txt as it answers \/arl-control-[0-9a-f]{16}\.txt, a path that cannot exist \(HTTP 200 text\/markdown, \d+ % alike once the paths are removed\): a soft 404$/);
      expect(check(result, 'llms-full-txt').status).toBe('failed');
      expect(check(result, 'llms-txt-linked').status).toBe('not_applicable');
      const markdown = check(result, 'markdown-negotiation');
      expect(markdown.status).toBe('failed');
      expect(markdown.evidence.detail).toMatch(/soft 404/);
      // One path that cannot exist was asked for the way llms.txt was, and one the way a page's markdown was.
      expect(site.paths.filter((p) => /^\/arl-control-[0-9a-f]{16}\.txt$/.test(p))).toHaveLength(1);
      expect(site.paths.filter((p) => /^\/arl-control-[0-9a-f]{16}$/.test(p))).toHaveLength(1);
    } finally {
      await site.close();
    }
  });

  it('a site answering every unknown path with the same 200 HTML page: llms.txt is not found, with the soft 404 as evidence', async () => {
    const SPA = '<!doctype html><html><head><title>Acme</title></head><body><div id="app"></div><p>Sorry, we could not find that page.</p><script src="/app.js"></script></body></html>';
    const site = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/robots.txt') return robots(res);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[path] ?? SPA);
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy });
      const llms = check(result, 'llms-txt');
      expect(llms.status).toBe('failed');
      expect(llms.evidence.detail).toMatch(/is not there: .*HTTP 200 text\/html, 100 % alike once the paths are removed\): a soft 404/);
      expect(check(result, 'honest-404').status).toBe('failed');
    } finally {
      await site.close();
    }
  });

  it('a real llms.txt and real markdown on a site whose unknown paths answer a 200 error page still pass', async () => {
    const site = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/robots.txt') return robots(res);
      if (path === '/sitemap.xml') return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset>${Object.keys(PAGES).map((p) => `<url><loc>http://${req.headers.host}${p}</loc></url>`).join('')}</urlset>`);
      if (path === '/llms.txt') return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(LLMS);
      if (PAGES[path] && wantsMarkdown(req)) return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }).end(MARKDOWN[path]);
      if (PAGES[path]) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', vary: 'Accept' }).end(PAGES[path]);
      // The fallback: markdown readers get a markdown error page, everyone else an HTML one, both with 200.
      if (wantsMarkdown(req) || path.endsWith('.txt')) return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }).end(markdownErrorPage(path));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy });
      expect(check(result, 'llms-txt').status).toBe('passed');
      expect(check(result, 'llms-txt-linked').status).toBe('failed');
      const markdown = check(result, 'markdown-negotiation');
      expect({ status: markdown.status, detail: markdown.evidence.detail }).toEqual({ status: 'passed', detail: expect.stringMatching(/Markdown is negotiated with Vary: Accept on 4 of 4 sampled pages/) });
      // llms-full.txt is missing: the fallback answers it, and it is judged not there.
      expect(check(result, 'llms-full-txt').evidence.detail).toMatch(/llms-full\.txt is not there: .* a soft 404/);
    } finally {
      await site.close();
    }
  });

  it('a site that serves its home page at every path still negotiates markdown for its home page', async () => {
    const site = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/robots.txt') return robots(res);
      if (wantsMarkdown(req)) return void res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' }).end(MARKDOWN['/']);
      // One page, no links: what the made-up URL gets is the home page itself.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', vary: 'Accept' }).end(PAGES['/'].replace(/<nav>.*<\/nav>/, ''));
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy });
      const markdown = check(result, 'markdown-negotiation');
      expect(markdown.evidence.detail).not.toMatch(/soft 404/);
      expect(markdown.evidence.detail).toMatch(/^Markdown is negotiated with Vary: Accept/);
    } finally {
      await site.close();
    }
  });
});

describe('near-identical, as defined', () => {
  const doc = (url: string, body: string, contentType = 'text/html', status = 200): FetchedDoc => ({ url, finalUrl: url, status, headers: {}, contentType, body, error: null });
  const token = '0123456789abcdef';
  const control = (body: string, contentType = 'text/html', status = 200) => doc(`https://a.test${controlPath('https://a.test/llms.txt', token)}`, body, contentType, status);

  it('the control goes where the document was, with its extension', () => {
    expect(controlPath('https://a.test/llms.txt', token)).toBe(`/arl-control-${token}.txt`);
    expect(controlPath('https://a.test/.well-known/mcp/server-card.json', token)).toBe(`/.well-known/arl-control-${token}.json`);
    expect(controlPath('https://a.test/docs/guide', token)).toBe(`/arl-control-${token}`);
  });

  it('an error page echoing the path it was asked for is the control, once the paths are removed', () => {
    const echo = (path: string) => `<h1>Not found</h1><p>There is no ${path} here.</p>`;
    expect(likeness(doc('https://a.test/llms.txt', echo('/llms.txt')), control(echo(`/arl-control-${token}.txt`)), token)).toEqual({ alike: true, similarity: 1 });
  });

  it('a request id in the page keeps the pages alike; another status, another media type or another page does not', () => {
    const body = (id: string) => `<h1>Page not found</h1><p>${'Try the search box or go back to the home page. '.repeat(20)}</p><footer>request ${id}</footer>`;
    expect(likeness(doc('https://a.test/llms.txt', body('a1b2c3')), control(body('z9y8x7')), token).alike).toBe(true);
    expect(likeness(doc('https://a.test/llms.txt', body('a1')), control(body('a1'), 'text/html', 404), token).alike).toBe(false);
    expect(likeness(doc('https://a.test/llms.txt', body('a1'), 'text/markdown'), control(body('a1')), token).alike).toBe(false);
    expect(likeness(doc('https://a.test/llms.txt', LLMS, 'text/markdown'), control(markdownErrorPage('/x'), 'text/markdown'), token).alike).toBe(false);
  });

  it('more than 5 % longer is not alike, even with the same words', () => {
    const base = 'word '.repeat(100);
    expect(likeness(doc('https://a.test/llms.txt', base + 'word '.repeat(4)), control(base), token).alike).toBe(true);
    expect(likeness(doc('https://a.test/llms.txt', base + 'word '.repeat(8)), control(base), token).alike).toBe(false);
  });
});

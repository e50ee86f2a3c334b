import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/** Issue 19: a scan samples the site, not only its home page, politely and within bounds. */

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title><meta name="description" content="${title} of Multi Co."></head><body>${body}</body></html>`;
const ARTICLE = (n: number) => page(`Page ${n}`, `<h1>Page ${n}</h1><p>${'Server-rendered words that any agent can read without running a single script. '.repeat(3)}</p>`);
const SHELL = (n: number) => `<!doctype html><html><head><title>App ${n}</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`;

interface Site {
  origin: string;
  requested: string[];
  maxConcurrentPages: number;
  close(): Promise<void>;
}

async function serveSite(routes: (origin: string) => Record<string, string>, pageDelayMs = 30): Promise<Site> {
  const requested: string[] = [];
  let inFlight = 0;
  let maxConcurrentPages = 0;
  let origin = '';
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    requested.push(path);
    const body = routes(origin)[path];
    const type = path === '/robots.txt' ? 'text/plain' : path.endsWith('.xml') ? 'application/xml' : 'text/html; charset=utf-8';
    const isPage = /^\/(p\d+|private\/.*)$/.test(path);
    if (isPage) maxConcurrentPages = Math.max(maxConcurrentPages, ++inFlight);
    setTimeout(() => {
      if (isPage) inFlight--;
      if (body === undefined) res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      else res.writeHead(200, { 'content-type': type }).end(body);
    }, isPage ? pageDelayMs : 0);
  });
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requested,
    get maxConcurrentPages() {
      return maxConcurrentPages;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const check = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;
// Deadlines far beyond a scan's normal time: a page timed out on a loaded machine would change the sampled counts.
const policy = { allowPrivateNetworks: true, ...ROOMY_DEADLINES };

describe('whole sites: a sample of up to SCAN_MAX_PAGES pages', () => {
  const SHELLS = new Set([3, 7, 9]);
  const multiPage = (origin: string): Record<string, string> => {
    const pages: Record<string, string> = {};
    for (let n = 1; n <= 12; n++) pages[`/p${n}`] = SHELLS.has(n) ? SHELL(n) : ARTICLE(n);
    return {
      '/': page('Multi Co', `<h1>Multi Co</h1><p>${'A site of many pages, most of them readable without JavaScript. '.repeat(3)}</p><a href="/p1">One</a>`),
      '/robots.txt': `User-agent: AgentReadinessScanner\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`,
      '/sitemap.xml': `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc>${origin}/private/secret</loc></url>${Object.keys(pages).map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`,
      '/private/secret': ARTICLE(0),
      ...pages,
    };
  };

  it('reports "7 of 10 pages" with the pages named, obeys robots.txt for our agent, stays in bounds, two at a time', async () => {
    const site = await serveSite(multiPage);
    try {
      const result = await scan(`${site.origin}/`, { fetchPolicy: policy });
      const content = check(result, 'content-without-js');
      expect(content.status).toBe('warning');
      expect(content.evidence.detail).toMatch(/^7 of 10 pages serve content without JavaScript; not \/p3, \/p7, \/p9\./);
      expect(content.evidence.excerpt).toMatch(/^Pages: \/ passed, \/p1 passed, \/p2 passed, \/p3 failed/);
      expect(check(result, 'page-metadata').evidence.detail).toMatch(/^7 of 10 pages have a title and a meta description/);
      expect(check(result, 'markdown-negotiation').evidence.detail).toMatch(/on 0 of 10 sampled pages \(the home page and 9 more\)/);
      expect(site.requested).not.toContain('/private/secret');
      expect(site.requested.filter((p) => /^\/p1[0-2]$/.test(p))).toEqual([]);
      expect(site.maxConcurrentPages).toBeLessThanOrEqual(2);
    } finally {
      await site.close();
    }
  });

  it('SCAN_MAX_PAGES bounds the sample (maxPages 4: the home page and 3 more)', async () => {
    const site = await serveSite(multiPage);
    try {
      const result = await scan(`${site.origin}/`, { fetchPolicy: policy, maxPages: 4 });
      expect(check(result, 'content-without-js').evidence.detail).toMatch(/^3 of 4 pages serve content without JavaScript; not \/p3\./);
      expect(new Set(site.requested.filter((p) => /^\/p\d+$/.test(p)))).toEqual(new Set(['/p1', '/p2', '/p3']));
    } finally {
      await site.close();
    }
  });

  it('without a sitemap, same-site links of the home page are sampled; a sample under 3 pages says so and is at most a warning', async () => {
    const site = await serveSite(() => ({
      '/': page('Tiny Co', `<h1>Tiny Co</h1><p>${'A very small site with one other page and a few links elsewhere. '.repeat(3)}</p><a href="/p1">More</a> <a href="https://elsewhere.example/p2">Elsewhere</a> <a href="/brochure.pdf">PDF</a>`),
      '/p1': ARTICLE(1),
    }));
    try {
      const result = await scan(`${site.origin}/`, { fetchPolicy: policy });
      const content = check(result, 'content-without-js');
      expect(content.status).toBe('warning');
      expect(content.evidence.detail).toMatch(/^2 of 2 pages serve content without JavaScript\..*Only 2 page\(s\) could be sampled, fewer than 3: too thin to judge a whole site, so this is at most a warning$/);
      expect(check(result, 'page-metadata').status).toBe('warning');
      expect(site.requested).not.toContain('/brochure.pdf');
    } finally {
      await site.close();
    }
  });
});

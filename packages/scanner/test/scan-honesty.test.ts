import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';
import { answerWithFault, type Fault } from './fixtures/faulty-server';

/** Issue 19: what the scanner could not see is never held against the site, and the budgets are hard. */

const HOME = `<!doctype html><html><head><title>Acme Widgets – widgets for agents</title>
<meta name="description" content="Acme sells widgets to people and to AI agents, with an API and docs."></head>
<body><nav><a href="/docs">Docs</a> <a href="/pricing">Pricing</a></nav><h1>Acme Widgets</h1>
<p>${'Acme makes sturdy widgets for workshops, homes and factories, shipped worldwide within two days of ordering. '.repeat(6)}</p></body></html>`;
const LLMS = '# Acme\n\n> Widgets for agents.\n\n## Docs\n\n- [Guide](https://acme.test/docs): how to\n';
const ROBOTS = 'User-agent: *\nAllow: /\n';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; close: () => Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        timers.forEach(clearInterval);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain site: the home page, llms.txt and robots.txt; 404 for the rest. */
function plainSite(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0];
  if (path === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOME);
  else if (path === '/llms.txt') res.writeHead(200, { 'content-type': 'text/markdown' }).end(LLMS);
  else if (path === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
  else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
}

/** Headers at once, then one byte a second for as long as the client listens. */
function drip(res: http.ServerResponse, contentType = 'text/html; charset=utf-8'): void {
  res.writeHead(200, { 'content-type': contentType });
  res.write('<');
  const timer = setInterval(() => res.write(' '), 1000);
  res.on('close', () => clearInterval(timer));
}

const status = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;
// Deadlines far beyond a scan's normal time unless a test sets its own: a loaded machine must not turn a verdict into a
// timeout. The tests about timeouts and budgets pass theirs.
const policy = (extra: Record<string, unknown> = {}) => ({ allowPrivateNetworks: true, ...ROOMY_DEADLINES, ...extra });

describe('budgets are hard', () => {
  it('a site that drips every answer (headers, then one byte a second) ends failed: timed out reading the home page', async () => {
    const site = await serve((_req, res) => drip(res));
    try {
      const result = await scan(site.url, { fetchPolicy: policy({ requestTimeoutMs: 1500, scanBudgetMs: 60_000 }) });
      expect({ ending: result.ending, score: result.score }).toEqual({ ending: 'failed', score: null });
      expect(result.cause).toMatch(/timed out reading the home page/);
      // The per-request timeout covers the body: the home page read ends at 1.5 s, not at the scan budget (60 s, far
      // enough that a loaded machine's delay cannot be taken for it).
      expect(result.durationMs).toBeLessThan(30_000);
    } finally {
      await site.close();
    }
  });

  it('a home page whose body stalls after the first bytes ends failed, not scored', async () => {
    const site = await serve((req, res) => {
      if (req.url !== '/') return plainSite(req, res);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write(HOME.slice(0, 200)); // and then nothing
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy({ requestTimeoutMs: 800 }) });
      expect({ ending: result.ending, score: result.score, grade: result.grade }).toEqual({ ending: 'failed', score: null, grade: null });
      expect(result.cause).toMatch(/timed out reading the home page/);
    } finally {
      await site.close();
    }
  });

  it('documents that stall or drip end at the budget, not at the request timeout, and their checks say couldnt_check', async () => {
    const site = await serve((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/' && !/text\/markdown/.test(req.headers.accept ?? '')) return plainSite(req, res);
      if (path === '/llms.txt') return drip(res, 'text/markdown');
      // Everything else: the status line never comes.
    });
    const budget = 2000;
    try {
      const started = Date.now();
      // The per-request timeout (120 s) is far past the budget: only the budget can end these fetches. The bound tells
      // the budget from that timeout; its margin is for a loaded machine (the budget's own grace is 250 ms).
      const result = await scan(site.url, { fetchPolicy: policy({ requestTimeoutMs: 120_000, scanBudgetMs: budget }) });
      expect(Date.now() - started).toBeLessThanOrEqual(budget + 30_000);
      expect(result.ending).toBe('finished');
      for (const id of ['llms-txt', 'robots-txt', 'sitemap', 'markdown-negotiation', 'honest-404']) {
        expect({ id, status: status(result, id).status }).toEqual({ id, status: 'couldnt_check' });
      }
      // What still fails is what the home page itself lacks, exactly as on the same site answering everything.
      const plain = await serve(plainSite);
      const reference = await scan(plain.url, { fetchPolicy: policy() }).finally(() => plain.close());
      const failed = (r: ScanResult) => r.checks.filter((c) => c.status === 'failed').map((c) => c.id);
      expect(failed(reference)).toEqual(expect.arrayContaining(failed(result)));
    } finally {
      await site.close();
    }
  });
});

describe('challenges and blocks are couldnt_check, not failed', () => {
  const challengedPaths = (fault: Fault) => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/' && /Mozilla/.test(req.headers['user-agent'] ?? '')) return plainSite(req, res);
    answerWithFault(fault, res, new Set());
  };

  it.each<[Fault, RegExp]>([
    ['challenge', /Cloudflare challenge \(cf-mitigated: challenge/],
    ['waf_403', /Akamai/],
    ['vercel', /Vercel challenge/],
    ['rate_limit', /rate limit \(HTTP 429, Retry-After: 30\)/],
  ])('a WAF answering every document with %s: the documents\' checks name it', async (fault, reason) => {
    const site = await serve(challengedPaths(fault));
    try {
      const result = await scan(site.url, { fetchPolicy: policy() });
      expect(result.ending).toBe('finished');
      for (const id of ['llms-txt', 'robots-txt', 'sitemap', 'llms-full-txt']) {
        const check = status(result, id);
        expect({ id, status: check.status }).toEqual({ id, status: 'couldnt_check' });
        expect(check.evidence.detail).toMatch(reason);
      }
    } finally {
      await site.close();
    }
  });

  it('a challenged home page ends the scan failed with the cause, so it is not ranked', async () => {
    const site = await serve((_req, res) => answerWithFault('challenge', res, new Set()));
    try {
      const result = await scan(site.url, { fetchPolicy: policy() });
      expect({ ending: result.ending, score: result.score, checks: result.checks.length }).toEqual({ ending: 'failed', score: null, checks: 0 });
      expect(result.cause).toMatch(/answered our scanner with a Cloudflare challenge/);
    } finally {
      await site.close();
    }
  });

  it('a site that answers our User-Agent with a plain 403 and a browser with the page: its refusals are couldnt_check', async () => {
    const site = await serve((req, res) => {
      if (/Mozilla/.test(req.headers['user-agent'] ?? '')) return plainSite(req, res);
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden');
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy() });
      expect(result.ending).toBe('finished');
      for (const id of ['llms-txt', 'robots-txt', 'llms-full-txt']) {
        const check = status(result, id);
        expect({ id, status: check.status }).toEqual({ id, status: 'couldnt_check' });
        expect(check.evidence.detail).toMatch(/answers our scanner's User-Agent with HTTP 403 where a browser's gets 200/);
      }
      // How AI agents are treated is the finding itself: they got 403 where a browser got the page.
      expect(status(result, 'ai-agents-not-blocked').status).toBe('failed');
    } finally {
      await site.close();
    }
  });
});

describe('our own failures', () => {
  it('an exception inside the scan machinery ends the scan interrupted, never with a score', async () => {
    const site = await serve(plainSite);
    try {
      const logger = {
        debug: () => {
          throw new TypeError('a bug of ours');
        },
        warn: () => undefined,
      };
      const result = await scan(site.url, { fetchPolicy: policy(), logger });
      expect({ ending: result.ending, score: result.score, grade: result.grade }).toEqual({ ending: 'interrupted', score: null, grade: null });
      expect(result.cause).toMatch(/error in the scanner itself, not in the site/);
    } finally {
      await site.close();
    }
  });
});

describe('no false blocks', () => {
  it('a 200 page that writes about challenge markers (a methodology page) is read, not taken for a challenge', async () => {
    const about = `<!doctype html><html><head><title>How we scan</title><meta name="description" content="Our method."></head><body><h1>How we scan</h1><p>We look for _cf_chl_opt and /cdn-cgi/challenge-platform/ in a page, and for a &lt;title&gt;Just a moment...&lt;/title&gt;. ${'Words for readers. '.repeat(10)}</p></body></html>`;
    const site = await serve((req, res) => {
      if (req.url === '/sitemap.xml') return void res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?><urlset><url><loc>http://${req.headers.host}/how</loc></url></urlset>`);
      if (req.url === '/how' || req.url === '/llms.txt') return void res.writeHead(200, { 'content-type': req.url === '/how' ? 'text/html' : 'text/markdown' }).end(req.url === '/how' ? about : LLMS.replace('Widgets', '_cf_chl_opt and /cdn-cgi/challenge-platform/'));
      plainSite(req, res);
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy() });
      expect(status(result, 'content-without-js').evidence.excerpt).toMatch(/\/how passed/);
      expect(status(result, 'llms-txt').status).toBe('passed');
    } finally {
      await site.close();
    }
  });
});

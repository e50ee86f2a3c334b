// The server side of the pages without a server: HTML and Markdown from given data, with the built assets.
import { createLeaderboardClient } from '@arl/client';
import * as path from 'node:path';
import { createWebPages, loadAssets } from '../src/server';

// Any read would fail loudly: these pages render from the data given to them.
const api = () => createLeaderboardClient('http://127.0.0.1:9', { fetch: async () => { throw new Error('no reads expected'); } });
const pages = createWebPages({ api, publicUrl: 'https://leaderboard.example/', feedbackUrl: 'https://feedback.example', hostScripts: ['/webmcp.js'], assets: loadAssets(path.join(__dirname, '..', 'dist', 'client')) });

describe('error pages', () => {
  test('429 says how long to wait, in HTML and in Markdown', () => {
    const error = { status: 429, code: 'rate_limited', message: 'Too many requests.', requestId: 'req-1', retryAfterSeconds: 42 };
    const html = pages.error(error, '/scan', 'html');
    expect(html.status).toBe(429);
    expect(html.body).toContain('<h1>Too many requests</h1>');
    expect(html.body).toContain('Please wait 42 seconds before trying again.');
    expect(html.body).toContain('req-1');
    expect(html.body).toContain('<link rel="canonical" href="https://leaderboard.example/scan">');
    const md = pages.error(error, '/scan', 'markdown');
    expect(md.body.startsWith('# Too many requests\n')).toBe(true);
    expect(md.body).toContain('Please wait 42 seconds');
  });

  test('5xx gives the request id to quote, 404 links home', () => {
    const failed = pages.error({ status: 500, code: 'internal_error', message: 'Something went wrong.', requestId: 'req-2', retryAfterSeconds: null }, '/x', 'html');
    expect(failed.body).toContain('<h1>Something went wrong</h1>');
    expect(failed.body).toContain('quote it if you report the problem');
    const missing = pages.error({ status: 404, code: 'route_not_found', message: 'No route GET /x.', requestId: 'req-3', retryAfterSeconds: null }, '/x', 'html');
    expect(missing.body).toContain('<h1>Page not found</h1>');
    expect(missing.body).toContain('href="/"');
  });

  test('data cannot break out of the page: the JSON for hydration escapes "<"', () => {
    const page = pages.error({ status: 400, code: 'bad_request', message: '</script><script>alert(1)</script>', requestId: 'r', retryAfterSeconds: null }, '/', 'html');
    expect(page.body).not.toContain('</script><script>alert(1)');
    expect(page.body).toContain('\\u003c/script>');
    expect(page.body).toContain('<script src="/webmcp.js" defer></script>');
    expect(page.body).toMatch(/<script type="module" src="\/assets\/main-[\w-]+\.js"><\/script>/);
  });
});

describe('the scan form', () => {
  test('is a page with a form and, as Markdown, the API call that does the same', async () => {
    const html = await pages.scanForm('html');
    expect(html.body).toContain('<label for="scan-url">URL to scan</label>');
    expect(html.body).toContain('toolname="scan_site"');
    const md = await pages.scanForm('markdown');
    expect(md.body).toContain('POST /v1/leaderboard/scans');
  });
});

describe('company page: watch parts', () => {
  // Canned answers of the API for one scored company whose llms.txt check moved from failed to passed.
  const company = {
    id: '3f1c2a64-8d1e-4c55-9a7b-0c6f2d9e1a10', name: 'Example', website: 'https://example.com/', domain: 'example.com', category: null, source: 'curated',
    score: 91, grade: 'A', rank: 1, rankedCompanies: 3, categoryRank: null, categoryRankedCompanies: null, scoreChange7d: 7, rankChange7d: 1, newThisWeek: false,
    scannedAt: '2026-11-20T09:00:00.000Z', summary: 'Good.', layers: [{ id: 'discovery', weight: 25, score: 100 }],
    checks: [
      { id: 'llms-txt', name: 'llms.txt follows llmstxt.org', layer: 'discovery', tier: 'recommended', label: null, bonus: false, status: 'passed', earned: 7, points: 7 },
      { id: 'robots-txt', name: 'robots.txt is served', layer: 'discovery', tier: 'required', label: null, bonus: false, status: 'passed', earned: 10, points: 10 },
    ],
  };
  const change = { checkId: 'llms-txt', name: 'llms.txt follows llmstxt.org', layer: 'discovery', at: '2026-11-20T09:00:00.000Z', scanId: '0b8f7e6d-5c4b-4a3f-9e2d-1c0b9a8f7e6d', from: 'failed', to: 'passed', earnedChange: 7 };
  const answers = (url: URL): [number, unknown] => {
    if (url.pathname.endsWith('/check-changes')) return [200, { domain: 'example.com', days: Number(url.searchParams.get('days')), items: [change] }];
    if (url.pathname.endsWith('/history')) return [200, { domain: 'example.com', days: 90, items: [] }];
    if (url.pathname.endsWith('/report')) return [404, { code: 'not_found', message: 'none', requestId: 'r' }];
    if (url.pathname.endsWith('/disputes')) return [200, { domain: 'example.com', items: [] }];
    return [200, company];
  };
  const reading = createWebPages({
    api: () => createLeaderboardClient('http://127.0.0.1:9', {
      fetch: async (request: Request) => {
        const [status, body] = answers(new URL(request.url));
        return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      },
    }),
    publicUrl: 'https://leaderboard.example/', feedbackUrl: 'https://feedback.example', assets: loadAssets(path.join(__dirname, '..', 'dist', 'client')),
  });

  test('each moved check says what it was until when; the 7-day list; compare form; badge snippet (HTML and Markdown)', async () => {
    // React separates adjacent text with <!-- --> markers; the reader sees the text without them.
    const html = (await reading.company({}, 'example.com', false, 'html')).body.replace(/<!-- -->/g, '');
    expect(html).toContain('Was failed until 2026-11-20');
    expect(html.match(/Was [a-z ]+ until/g)).toHaveLength(1); // robots.txt did not move
    expect(html).toContain('What moved in the last 7 days');
    expect(html).toMatch(/llms\.txt follows llmstxt\.org<\/a> \(Discovery\): failed → <strong>passed<\/strong> on 2026-11-20, \+7 pts/);
    expect(html).toMatch(/<form[^>]*action="\/compare" method="get"/);
    expect(html).toContain('<input type="hidden" name="domains" value="example.com"/>');
    expect(html).toContain('[![Agent readiness of Example](https://leaderboard.example/v1/leaderboard/companies/example.com/badge.svg)](https://leaderboard.example/companies/example.com)');
    const md = (await reading.company({}, 'example.com', false, 'markdown')).body;
    expect(md).toContain('— Was failed until 2026-11-20');
    expect(md).toContain('## What moved in the last 7 days');
    expect(md).toContain('badge.svg');
  });
});

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

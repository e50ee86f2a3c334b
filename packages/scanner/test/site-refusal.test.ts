import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestSigner, generateSigningKey, scan } from '../src';
import type { RequestSigner, ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';
import { answerWithFault, type Fault } from './fixtures/faulty-server';

/**
 * Issue 29: a site's own words count, a WAF's do not. A site whose robots.txt refuses every AI agent and whose pages
 * challenge every agent, signed with Web Bot Auth or not, is scored and ranks last; a scan that saw nothing of the
 * site (robots.txt included) stays unscored with its cause.
 */

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ url: string; requests: http.IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    handler(req, res);
  });
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const REFUSING_ROBOTS = 'User-agent: *\nDisallow: /\n';

/** The site: robots.txt refuses everyone, every other answer is a challenge carrying X-Robots-Tag: noai. */
function refusingSite(robots: string | Fault = REFUSING_ROBOTS): Handler {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt') {
      if (typeof robots === 'string' && !(['challenge', 'rate_limit', 'waf_403', 'vercel'] as string[]).includes(robots)) {
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
      }
      return answerWithFault(robots as Fault, res, new Set());
    }
    res.setHeader('x-robots-tag', 'noai, noimageai');
    answerWithFault('challenge', res, new Set());
  };
}

const check = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;
const policy = (extra: Record<string, unknown> = {}) => ({ allowPrivateNetworks: true, ...ROOMY_DEADLINES, ...extra });

describe("a site's own refusal is a verdict on the site", () => {
  let signer: RequestSigner;
  beforeAll(async () => {
    signer = await createRequestSigner({ privateKey: generateSigningKey(), agent: 'https://scanner.example' });
  });

  it('robots.txt refuses every agent and every page challenges our signed request too: finished, F, score 0, with the evidence', async () => {
    const site = await serve(refusingSite());
    try {
      const result = await scan(site.url, { fetchPolicy: policy({ signer }) });
      expect({ ending: result.ending, grade: result.grade, score: result.score }).toEqual({ ending: 'finished', grade: 'F', score: 0 });
      expect(result.cause).toMatch(/refuses AI agents/);
      expect(result.cause).toMatch(/robots\.txt disallows \/ for every AI search and user-fetch agent/);
      // Our requests went out signed: the challenge met a declared agent, not an anonymous one.
      expect(site.requests.filter((h) => typeof h['signature-input'] === 'string').length).toBeGreaterThan(5);

      const notBlocked = check(result, 'ai-agents-not-blocked');
      expect(notBlocked.status).toBe('failed');
      expect(notBlocked.evidence.detail).toMatch(/robots\.txt disallows \/ for every AI search and user-fetch agent \(User-agent: \*\)/);
      expect(notBlocked.evidence.detail).toMatch(/ClaudeBot, OAI-SearchBot, ChatGPT-User met a Cloudflare challenge/);
      expect(notBlocked.evidence.detail).toMatch(/signed with Web Bot Auth or not/);
      expect(notBlocked.evidence.detail).toMatch(/X-Robots-Tag: noai, noimageai/);
      expect(check(result, 'ai-search-bots-allowed').status).toBe('failed');
      expect(check(result, 'no-bot-challenge').status).toBe('failed');
      // What the refusal kept from us is not read, and not held against the site either.
      for (const id of ['llms-txt', 'sitemap', 'content-without-js', 'public-home-page', 'markdown-negotiation', 'honest-404']) {
        expect({ id, status: check(result, id).status }).toEqual({ id, status: 'couldnt_check' });
      }
      expect(check(result, 'robots-txt').status).toBe('passed');
    } finally {
      await site.close();
    }
  });

  it('the same site scanned without a signing key is scored the same way (its robots.txt says no)', async () => {
    const site = await serve(refusingSite());
    try {
      const result = await scan(site.url, { fetchPolicy: policy() });
      expect({ ending: result.ending, grade: result.grade, score: result.score }).toEqual({ ending: 'finished', grade: 'F', score: 0 });
      expect(check(result, 'ai-agents-not-blocked').evidence.detail).not.toMatch(/Web Bot Auth/);
    } finally {
      await site.close();
    }
  });

  it.each<[string, string | Fault, RegExp]>([
    ['robots.txt is a challenge too', 'challenge', /answered our scanner with a Cloudflare challenge/],
    ['robots.txt is rate limited', 'rate_limit', /answered our scanner with a Cloudflare challenge/],
    ['robots.txt lets every agent in (the WAF speaks, not the site)', 'User-agent: *\nAllow: /\n', /answered our scanner with a Cloudflare challenge/],
    ['robots.txt refuses training crawlers only', 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: ClaudeBot\nDisallow: /\n', /answered our scanner with a Cloudflare challenge/],
  ])('a challenged home page where %s: failed, unscored, with its cause', async (_label, robots, cause) => {
    const site = await serve(refusingSite(robots));
    try {
      const result = await scan(site.url, { fetchPolicy: policy({ signer }) });
      expect({ ending: result.ending, score: result.score, grade: result.grade, checks: result.checks.length }).toEqual({ ending: 'failed', score: null, grade: null, checks: 0 });
      expect(result.cause).toMatch(cause);
    } finally {
      await site.close();
    }
  });

  it('robots.txt refuses every agent, but the AI agents get the page where our browser-like request met a challenge: failed, unscored', async () => {
    const HOME = `<!doctype html><html><head><title>Odd Co</title></head><body><h1>Odd Co</h1><p>${'Words for agents. '.repeat(30)}</p></body></html>`;
    const site = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(REFUSING_ROBOTS);
      if (/ClaudeBot|OAI-SearchBot|ChatGPT-User/.test(req.headers['user-agent'] ?? '')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(HOME);
      answerWithFault('challenge', res, new Set());
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy({ signer }) });
      expect({ ending: result.ending, score: result.score, checks: result.checks.length }).toEqual({ ending: 'failed', score: null, checks: 0 });
      expect(result.cause).toMatch(/answered our scanner with a Cloudflare challenge/);
    } finally {
      await site.close();
    }
  });

  it('a site whose robots.txt refuses every agent but whose pages answer everyone is scored as before, without the refusal cap', async () => {
    const HOME = `<!doctype html><html><head><title>Open Co</title></head><body><h1>Open Co</h1><p>${'Words anyone may read. '.repeat(30)}</p></body></html>`;
    const site = await serve((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(REFUSING_ROBOTS);
      if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(HOME);
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    });
    try {
      const result = await scan(site.url, { fetchPolicy: policy({ signer }) });
      expect(result.ending).toBe('finished');
      expect(result.cause).toBeNull();
      expect(result.score).toBeGreaterThan(0);
      expect(check(result, 'ai-search-bots-allowed').status).toBe('failed');
      expect(check(result, 'ai-agents-not-blocked').status).toBe('passed');
    } finally {
      await site.close();
    }
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';

/** The 2026 discovery documents, found the ways their specs name, on real scans of loopback sites. */

type Site = { home?: string; homeHeaders?: Record<string, string>; files: Record<string, [string, string]> };

const ENTRY = { identifier: 'urn:air:example.com:server:main', displayName: 'Main MCP server', type: 'application/mcp-server-card+json', url: 'https://example.com/.well-known/mcp/server-card.json' };
const MANIFEST = JSON.stringify({ entries: [ENTRY] });
const home = (head = '') => `<!doctype html><html><head><title>Example</title><meta name="description" content="Example product.">${head}</head><body><h1>Example</h1><a href="/signup">Sign up</a></body></html>`;

const SITES: Record<string, Site> = {
  // ARD v0.91 §5.1: an "Agentmap:" directive in robots.txt names the entry source.
  agentmap: { files: { '/robots.txt': ['text/plain', 'User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nAgentmap: /agents/entries.json\n'], '/agents/entries.json': ['application/json', MANIFEST] } },
  // ARD v0.91 §5.1: the predecessor path /.well-known/ai-catalog.json MAY be consulted; publishers SHOULD move to ard.json.
  legacyPath: { files: { '/.well-known/ai-catalog.json': ['application/json', MANIFEST] } },
  // ARD v0.91 §5.1: the predecessor link relation "ai-catalog".
  legacyLink: { home: home('<link rel="ai-catalog" href="/catalog.json">'), files: { '/catalog.json': ['application/json', MANIFEST] } },
  // draft-ietf-aipref-attach: the Content-Usage HTTP header field carries the same preferences as robots.txt.
  header: { homeHeaders: { 'content-usage': 'train-ai=n' }, files: {} },
};

const servers: http.Server[] = [];
const results: Record<string, ScanResult> = {};

async function serve(site: Site): Promise<string> {
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html', ...site.homeHeaders });
      return res.end(site.home ?? home());
    }
    const file = site.files[req.url ?? ''];
    if (file) {
      res.writeHead(200, { 'content-type': file[0] });
      return res.end(file[1]);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeAll(async () => {
  const names = Object.keys(SITES);
  const urls = await Promise.all(names.map((n) => serve(SITES[n])));
  const scanned = await Promise.all(urls.map((u) => scan(u, { fetchPolicy: { allowPrivateNetworks: true } })));
  names.forEach((n, i) => (results[n] = scanned[i]));
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

const check = (site: string, id: string) => results[site].checks.find((c) => c.id === id)!;

describe('ARD manifest (ard-manifest)', () => {
  it('is found through the robots.txt Agentmap line and passes', () => {
    expect(check('agentmap', 'ard-manifest')).toMatchObject({ status: 'passed', evidence: { detail: '1 valid entry found through the robots.txt Agentmap line' } });
  });

  it('only at the predecessor path /.well-known/ai-catalog.json: found, with a warning', () => {
    expect(check('legacyPath', 'ard-manifest').status).toBe('warning');
    expect(check('legacyPath', 'ard-manifest').evidence.detail).toMatch(/\/\.well-known\/ai-catalog\.json \(the predecessor path\)/);
  });

  it('through rel="ai-catalog": found, with a warning', () => {
    expect(check('legacyLink', 'ard-manifest').evidence.detail).toMatch(/rel="ai-catalog" link/);
  });

  it('absent: failed and earning nothing (an emerging check only adds)', () => {
    expect(check('header', 'ard-manifest').status).toBe('failed');
    expect(check('header', 'ard-manifest').earned).toBe(0);
  });
});

describe('Content-Usage (content-usage)', () => {
  it('a robots.txt Content-Usage rule passes beside Content-Signal', () => {
    expect(check('agentmap', 'content-usage')).toMatchObject({ status: 'passed', evidence: { detail: 'Content-Usage in robots.txt: train-ai=n, search=y' } });
  });

  it('the Content-Usage header field passes', () => {
    expect(check('header', 'content-usage')).toMatchObject({ status: 'passed', evidence: { header: 'content-usage: train-ai=n' } });
  });

  it('neither: failed', () => {
    expect(check('legacyPath', 'content-usage').status).toBe('failed');
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/** The 2026 discovery documents, found the ways their specs name, on real scans of loopback sites. */

type Site = { home?: string; homeHeaders?: Record<string, string>; files: Record<string, [string, string]> };

// The AI Catalog that ARD publishes: specVersion, then entries with identifier, displayName, type and url or data.
const ENTRY = { identifier: 'urn:air:example.com:mcp:main', displayName: 'Main MCP server', type: 'application/mcp-server-card+json', url: 'https://example.com/.well-known/mcp/server-card.json' };
const CATALOG = JSON.stringify({ specVersion: '1.0', entries: [ENTRY] });
// An earlier draft's field name (mediaType) and no specVersion.
const OLD_SHAPE = JSON.stringify({ entries: [{ identifier: ENTRY.identifier, displayName: ENTRY.displayName, mediaType: ENTRY.type, url: ENTRY.url }] });
const home = (head = '') => `<!doctype html><html><head><title>Example</title><meta name="description" content="Example product.">${head}</head><body><h1>Example</h1><a href="/signup">Sign up</a></body></html>`;

const SITES: Record<string, Site> = {
  // ARD: an "Agentmap:" directive in robots.txt names a catalog hosted elsewhere, like Sitemap does for pages.
  agentmap: { files: { '/robots.txt': ['text/plain', 'User-agent: *\nAllow: /\nContent-Usage: train-ai=n, search=y\nAgentmap: /agents/catalog.json\n'], '/agents/catalog.json': ['application/ai-catalog+json', CATALOG] } },
  // ARD: the well-known URI /.well-known/ai-catalog.json is the primary location.
  wellKnown: { files: { '/.well-known/ai-catalog.json': ['application/ai-catalog+json', CATALOG] } },
  // ARD: a <link rel="ai-catalog"> in the page head (or the same relation in a Link header).
  link: { home: home('<link rel="ai-catalog" href="/catalog.json" type="application/ai-catalog+json">'), files: { '/catalog.json': ['application/json', CATALOG] } },
  // AI Catalog: specVersion is required; `mediaType` is the entry field's earlier name.
  oldShape: { files: { '/.well-known/ai-catalog.json': ['application/json', OLD_SHAPE] } },
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
  const scanned = await Promise.all(urls.map((u) => scan(u, { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES } })));
  names.forEach((n, i) => (results[n] = scanned[i]));
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

const check = (site: string, id: string) => results[site].checks.find((c) => c.id === id)!;

describe('ARD manifest (ard-manifest)', () => {
  it('is found through the robots.txt Agentmap line and passes', () => {
    expect(check('agentmap', 'ard-manifest')).toMatchObject({ status: 'passed', evidence: { detail: 'AI Catalog 1.0: 1 entry, all valid, found through the robots.txt Agentmap line' } });
  });

  it('at the well-known URI /.well-known/ai-catalog.json: passes', () => {
    expect(check('wellKnown', 'ard-manifest')).toMatchObject({ status: 'passed', evidence: { detail: 'AI Catalog 1.0: 1 entry, all valid, found through /.well-known/ai-catalog.json' } });
  });

  it('through rel="ai-catalog": passes', () => {
    expect(check('link', 'ard-manifest')).toMatchObject({ status: 'passed', evidence: { detail: 'AI Catalog 1.0: 1 entry, all valid, found through a rel="ai-catalog" link' } });
  });

  it('without specVersion: found, with a warning (entries under the earlier mediaType name are read)', () => {
    expect(check('oldShape', 'ard-manifest')).toMatchObject({ status: 'warning', evidence: { detail: '1 entry via /.well-known/ai-catalog.json; no specVersion' } });
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
    expect(check('wellKnown', 'content-usage').status).toBe('failed');
  });
});

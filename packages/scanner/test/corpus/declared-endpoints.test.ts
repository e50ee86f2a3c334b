import type { ScanResult } from '../../src';
import { checkOf, startAndScanSites } from './index';
import type { RunningSite } from './index';
import { freePort } from './processes';
import type { SdkSiteOptions } from './sdk-servers';

/**
 * Verified, not declared (issue 39): pairs of sites that publish the same MCP server card, once naming a server that
 * works and once naming nothing (a port where nothing listens) or a path that is no MCP server (404). The dead
 * declaration fails mcp-server-card and mcp-initialize (the site's fault, never couldnt_check, which stays for
 * failures on our side), and the working twin scores strictly higher. The card shapes are the SEP-2127 / registry
 * server.json ones the discovery corpus uses (discovery-sites.ts).
 */
const json = (value: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) });
const card = (url: string) => json({ name: 'io.github.corpus/corpus-server', title: 'Corpus server', version: '1.0.0', description: 'Flight search for agents.', remotes: [{ type: 'streamable-http', url }] });


describe('MCP server cards that point at something and at nothing', () => {
  const sites = new Map<string, RunningSite>();
  const results = new Map<string, ScanResult>();

  beforeAll(async () => {
    const dead = `http://127.0.0.1:${await freePort()}/mcp`;
    const SITES: Record<string, SdkSiteOptions> = {
      working: { routes: (origin) => ({ '/.well-known/mcp/server-card.json': card(`${origin}/mcp`) }) },
      'nothing listens': { mcpPath: null, routes: () => ({ '/.well-known/mcp/server-card.json': card(dead) }) },
      'a 404 path': { routes: (origin) => ({ '/.well-known/mcp/server-card.json': card(`${origin}/api/nothing-here`) }) },
    };
    await startAndScanSites(SITES, sites, results);
  });
  afterAll(() => Promise.all([...sites.values()].map((s) => s.close())));

  it('the working card passes, and its server is judged', () => {
    const result = results.get('working')!;
    expect(checkOf(result, 'mcp-server-card').status).toBe('passed');
    expect(checkOf(result, 'mcp-initialize').status).toBe('passed');
  });

  it.each(['nothing listens', 'a 404 path'])('a card whose endpoint is %s fails, naming the card and the endpoint; the working twin scores higher', (name) => {
    const result = results.get(name)!;
    const cardCheck = checkOf(result, 'mcp-server-card');
    expect(cardCheck.status).toBe('failed');
    expect(cardCheck.detail).toMatch(/server card at \/\.well-known\/mcp\/server-card\.json names "io\.github\.corpus\/corpus-server" at http:\/\/127\.0\.0\.1:\d+\/(mcp|api\/nothing-here), but/);
    const init = checkOf(result, 'mcp-initialize');
    expect(init.status).toBe('failed');
    expect(init.detail).toMatch(/server card/);
    expect(result.score).not.toBeNull();
    expect(results.get('working')!.score!).toBeGreaterThan(result.score!);
  });
});

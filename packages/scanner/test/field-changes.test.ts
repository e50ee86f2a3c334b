import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';
import { runChecks } from '../src/checks/run-checks';
import { CHECK_CATALOG } from '../src/checks/catalog';
import { llmsTxtStructure } from '../src/checks/discovery/llms-txt';
import { readAidRecord } from '../src/checks/discovery/dns-agent';
import { createTxtLookup } from '../src/fetch/dns-txt';
import type { AgentDnsLookup, Artifacts } from '../src/gather/artifacts';
import { webMcpSurfaces } from '../src/util/html-summary';
import { richSite } from './fixtures/sites';
import { startSdkSite } from './corpus/sdk-servers';

/**
 * Issue 29 item 4: the field's changes since the catalog was written, each on real loopback sites where it needs a
 * fetch. llms.txt v2 (llmstxt.org changes.md, August 2026), WebMCP's document.modelContext (index.bs §Extensions to
 * Document), MCP server cards at either well-known location (SEP-2127 is a draft), DNS agent discovery at _agent.<host>
 * (AID v2.1 §2) through an injected resolveTxt, never the network.
 */

/** A route; with `markdown`, a request accepting text/markdown gets it (with Vary: Accept), as a negotiating page. */
type Routes = Record<string, { status?: number; type?: string; body: string; headers?: Record<string, string>; markdown?: string }>;

async function serve(routes: Routes): Promise<{ base: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    asked.push(path);
    const route = routes[path];
    if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end(`No page at ${path}`);
    if (route.markdown && /text\/markdown/.test(req.headers.accept ?? '')) return res.writeHead(200, { 'content-type': 'text/markdown', vary: 'Accept' }).end(route.markdown);
    res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'text/html', ...route.headers }).end(route.body);
  });
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const page = (head = '', body = '') =>
  `<!doctype html><html><head><title>Acme</title><meta name="description" content="Acme widgets.">${head}</head><body><h1>Acme</h1><p>${'Acme makes widgets for people and their agents. '.repeat(6)}</p>${body}</body></html>`;
const LLMS = '# Acme\n\n> Widgets for agents.\n\n## Docs\n\n- [Guide](/guide): start here\n';
const robots = { type: 'text/plain', body: 'User-agent: *\nAllow: /\n' };
const policy = { allowPrivateNetworks: true, ...ROOMY_DEADLINES };
const check = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;

describe('llms.txt v2 (August 2026)', () => {
  it('judges the llms.txt the home page names with Link: rel="describedby" when it lives under /docs/ and there is none at the root', async () => {
    const site = await serve({
      '/': { body: page(), headers: { link: '</docs/llms.txt>; rel="describedby"' } },
      '/robots.txt': robots,
      '/docs/llms.txt': { type: 'text/markdown', body: LLMS },
    });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy });
      expect(check(result, 'llms-txt')).toMatchObject({ status: 'passed', evidence: { url: `${site.base}/docs/llms.txt` } });
      expect(check(result, 'llms-txt').evidence.detail).toBe('/docs/llms.txt (named by rel="describedby", llms.txt v2) has an H1, a summary and 1 link section(s)');
      expect(check(result, 'llms-txt-linked')).toMatchObject({ status: 'passed', evidence: { detail: `The home page Link header names ${site.base}/docs/llms.txt with rel="describedby" (llms.txt v2)` } });
      expect(site.asked).toContain('/llms.txt');
    } finally {
      await site.close();
    }
  });

  it('a file covers the pages under its path: a project site at /project/ is judged on /project/llms.txt, never on a parent above its own', async () => {
    const site = await serve({
      '/project/': { body: page() },
      '/robots.txt': robots,
      '/project/llms.txt': { type: 'text/plain; charset=utf-8', body: LLMS },
    });
    try {
      const result = await scan(`${site.base}/project/`, { fetchPolicy: policy });
      expect(check(result, 'llms-txt')).toMatchObject({ status: 'passed', evidence: { url: `${site.base}/project/llms.txt` } });
      expect(check(result, 'llms-txt').evidence.detail).toMatch(/^\/project\/llms\.txt \(the llms\.txt covering the scanned path, llms\.txt v2\) has an H1/);
      expect(site.asked.filter((p) => p.endsWith('/llms.txt')).sort()).toEqual(['/llms.txt', '/project/llms.txt']);
    } finally {
      await site.close();
    }
  });

  it('an HTML <link rel="describedby"> is named as the v2 way to point to llms.txt', async () => {
    const site = await serve({ '/': { body: page('<link rel="describedby" href="/llms.txt">') }, '/robots.txt': robots, '/llms.txt': { type: 'text/markdown', body: LLMS } });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy });
      expect(check(result, 'llms-txt')).toMatchObject({ status: 'passed', evidence: { detail: 'llms.txt has an H1, a summary and 1 link section(s)' } });
      expect(check(result, 'llms-txt-linked').evidence.detail).toBe(`The home page names ${site.base}/llms.txt with <link rel="describedby"> (llms.txt v2)`);
    } finally {
      await site.close();
    }
  });

  it('"## Optional" is a section of links like any other (v2 removed its meaning; our structure check never gave it one: this pins it, it passed before too)', () => {
    expect(llmsTxtStructure('# Acme\n\n> Widgets.\n\n## Optional\n\n- [Extras](/extras): more\n')).toMatchObject({ h1: true, summary: true, linkSections: 1 });
  });
});

describe('markdown twins: page.html.md and page.md (llms.txt v2)', () => {
  it('a linked twin at index.md (the extension-replacing form) that serves markdown passes', async () => {
    const other = (title: string) => ({ body: page(), markdown: `# ${title}\n\nMore about widgets.\n` });
    const site = await serve({
      '/': { body: page('<link rel="alternate" type="text/markdown" href="/index.md">', '<a href="/guide">Guide</a> <a href="/about">About</a>') },
      '/guide': other('Guide'),
      '/about': other('About'),
      '/robots.txt': robots,
      '/index.md': { type: 'text/markdown; charset=utf-8', body: '# Acme\n\nWidgets for agents.\n' },
    });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 3 });
      expect(check(result, 'markdown-negotiation')).toMatchObject({ status: 'passed', evidence: { url: `${site.base}/index.md` } });
      expect(check(result, 'markdown-negotiation').evidence.detail).toMatch(/^The page links its markdown twin \/index\.md \(rel="alternate" type="text\/markdown", llms\.txt v2\), which serves markdown/);
    } finally {
      await site.close();
    }
  });

  it('an unlinked twin at index.html.md (the appending form) is found and is a warning that says to link it', async () => {
    const site = await serve({ '/': { body: page() }, '/robots.txt': robots, '/index.html.md': { type: 'text/markdown', body: '# Acme\n\nWidgets for agents.\n' } });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 1 });
      expect(check(result, 'markdown-negotiation')).toMatchObject({ status: 'warning', evidence: { url: `${site.base}/index.html.md` } });
      expect(check(result, 'markdown-negotiation').evidence.detail).toMatch(/served at \/index\.html\.md \(llms\.txt v2 accepts page\.html\.md and page\.md\), but the page neither negotiates/);
    } finally {
      await site.close();
    }
  });

  it('a linked twin that does not exist fails (it used to be a warning, unread)', async () => {
    const site = await serve({ '/': { body: page('<link rel="alternate" type="text/markdown" href="/about.md">') }, '/robots.txt': robots });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 1 });
      expect(check(result, 'markdown-negotiation')).toMatchObject({ status: 'failed', evidence: { detail: 'The page links a markdown twin at /about.md, but it answers HTTP 404' } });
    } finally {
      await site.close();
    }
  });
});

describe('WebMCP: document.modelContext beside navigator.modelContext', () => {
  it('finds registrations in every spelling and names the surface', () => {
    expect(webMcpSurfaces('document.modelContext.registerTool({ name: "a" })')).toEqual(['document.modelContext']);
    expect(webMcpSurfaces('navigator?.modelContext?.registerTool?.({ name: "a" })')).toEqual(['navigator.modelContext']);
    expect(webMcpSurfaces('const mc = document["modelContext"]; await mc.registerTool(tool, { signal })')).toEqual(['document.modelContext']);
    expect(webMcpSurfaces('(document.modelContext ?? navigator.modelContext).registerTool(t)')).toEqual(['document.modelContext', 'navigator.modelContext']);
    expect(webMcpSurfaces('navigator.modelContext; // nothing registered')).toEqual([]);
  });

  it('an inline script registering through navigator?.modelContext passes and says which surface it used', async () => {
    const script = '<script>if (navigator?.modelContext) navigator?.modelContext?.registerTool?.({ name: "search", description: "Search", execute: async () => ({}) });</script>';
    const site = await serve({ '/': { body: page(script) }, '/robots.txt': robots });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 1 });
      expect(check(result, 'webmcp')).toMatchObject({ status: 'passed', evidence: { detail: 'An inline script registers WebMCP tools on navigator.modelContext (the earlier draft\'s, still accepted)' } });
    } finally {
      await site.close();
    }
  });
});

describe('MCP server cards at either well-known location', () => {
  const card = (base: string) => JSON.stringify({ name: 'io.acme/widgets', version: '1.0.0', remotes: [{ type: 'streamable-http', url: `${base}/mcp` }] });
  const signUp = page('', '<a href="/signup">Sign up</a>');

  it('a card only at /.well-known/mcp.json passes and the evidence says where it was found', async () => {
    // The card's server answers (a card counts when what it names works: corpus/declared-endpoints.test.ts).
    const server = await startSdkSite({ mcp: { name: 'io.acme/widgets' } });
    const routes: Routes = { '/': { body: signUp }, '/robots.txt': robots };
    const site = await serve(routes);
    routes['/.well-known/mcp.json'] = { type: 'application/json', body: card(server.mcpUrl!.replace(/\/mcp$/, '')) };
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 1 });
      expect(check(result, 'mcp-server-card')).toMatchObject({ status: 'passed', evidence: { detail: `Server card at /.well-known/mcp.json names "io.acme/widgets" at ${server.mcpUrl}` } });
    } finally {
      await Promise.all([site.close(), server.close()]);
    }
  });

  it('no card at one location while the other could not be read is couldnt_check, not failed', async () => {
    const site = await serve({
      '/': { body: signUp },
      '/robots.txt': robots,
      '/.well-known/mcp.json': { status: 429, type: 'text/plain', body: 'Slow down', headers: { 'retry-after': '30' } },
    });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 1 });
      expect(check(result, 'mcp-server-card').status).toBe('couldnt_check');
      expect(check(result, 'mcp-server-card').evidence.detail).toMatch(/^Couldn't tell whether the site publishes an MCP server card: .*\/\.well-known\/mcp\.json/);
    } finally {
      await site.close();
    }
  });
});

describe('DNS agent discovery (_agent TXT, AID v2.1)', () => {
  const dnsCheck = CHECK_CATALOG.find((c) => c.id === 'dns-agent-discovery')!;
  const judged = (agentDns: AgentDnsLookup, extra: Partial<Artifacts> = {}) => runChecks([dnsCheck], { ...richSite(), agentDns, ...extra })[0];
  const answered = (records: string[]): AgentDnsLookup => ({ name: '_agent.acme.com', records, absent: records.length === 0, error: null, skipped: null });

  it('asks the injected resolver for _agent.<exact host> once, and passes on one valid aid2 record naming the endpoint', async () => {
    const site = await serve({ '/': { body: page() }, '/robots.txt': robots });
    const port = new URL(site.base).port;
    const asked: string[] = [];
    try {
      const result = await scan(`http://shop.acme-agents.test:${port}/`, {
        maxPages: 1,
        fetchPolicy: {
          ...policy,
          lookup: async () => [{ address: '127.0.0.1', family: 4 }],
          resolveTxt: async (name) => {
            asked.push(name);
            return name === '_agent.shop.acme-agents.test' ? [['v=aid2;u=https://shop.acme-agents.test/mcp;', 'p=mcp;a=oauth2_code;s=Acme tools']] : [];
          },
        },
      });
      expect(asked).toEqual(['_agent.shop.acme-agents.test']);
      expect(check(result, 'dns-agent-discovery')).toMatchObject({
        status: 'passed',
        tier: 'emerging',
        evidence: { url: 'dns:_agent.shop.acme-agents.test?type=TXT', detail: '_agent.shop.acme-agents.test names a mcp endpoint at https://shop.acme-agents.test/mcp (aid2)' },
      });
    } finally {
      await site.close();
    }
  });

  it('a scan of an IP address asks nothing and does not apply; a policy with its own lookup and no resolveTxt asks nothing', async () => {
    const site = await serve({ '/': { body: page() }, '/robots.txt': robots });
    try {
      const result = await scan(`${site.base}/`, { fetchPolicy: policy, maxPages: 1 });
      expect(check(result, 'dns-agent-discovery')).toMatchObject({ status: 'not_applicable', evidence: { detail: 'Not looked up: 127.0.0.1 is an IP address, which has no DNS name to publish a record under' } });
    } finally {
      await site.close();
    }
    const lookup = async () => [{ address: '127.0.0.1', family: 4 as const }];
    expect(createTxtLookup({ lookup, requestTimeoutMs: 1000 }).resolve).toBeNull();
    expect(createTxtLookup({ loopbackOnly: true, requestTimeoutMs: 1000 }).resolve).toBeNull();
    // The system resolver is never asked about special-use names (RFC 6761): the sandbox's .test personas stay local.
    expect(createTxtLookup({ requestTimeoutMs: 1000 }).specialUse?.('exemplary-co.test')).toBe(true);
  });

  it('reads records as AID does: aliases, joined strings, legacy aid1, ambiguity, schemes, and a failed lookup is couldnt_check', () => {
    expect(readAidRecord('v=aid2; uri=https://a.example/mcp; p=mcp')).toMatchObject({ record: { version: 'aid2', proto: 'mcp', uri: 'https://a.example/mcp' } });
    expect(readAidRecord('v=aid2;u=https://a.example/mcp;uri=https://b.example/mcp;p=mcp')).toEqual({ problem: 'it gives uri twice (a key and its alias)' });
    expect(readAidRecord('google-site-verification=abc')).toBeNull();
    expect(judged(answered(['v=aid2;u=http://acme.com/mcp;p=mcp']))).toMatchObject({ status: 'failed', evidence: { detail: expect.stringMatching(/does not use the scheme AID allows for mcp/) } });
    expect(judged(answered(['v=aid1;u=https://acme.com/mcp;p=mcp']))).toMatchObject({ status: 'warning', evidence: { detail: expect.stringMatching(/aid1 is AID's legacy format/) } });
    expect(judged(answered(['v=aid2;u=https://acme.com/mcp;p=mcp', 'v=aid2;u=https://acme.com/a2a;p=a2a']))).toMatchObject({ status: 'failed', evidence: { detail: expect.stringMatching(/2 valid aid2 records; AID clients fail on that ambiguity/) } });
    expect(judged(answered(['v=aid1;u=https://acme.com/old;p=mcp', 'v=aid2;u=https://acme.com/mcp;p=mcp']))).toMatchObject({ status: 'passed' });
    expect(judged({ name: '_agent.acme.com', records: null, absent: false, error: 'ETIMEOUT: No DNS answer for _agent.acme.com within 8000 ms', skipped: null })).toMatchObject({ status: 'couldnt_check' });
    // No record: an opportunity on a product site (richSite has an API), never a loss (emerging checks only add).
    const none = judged(answered([]));
    expect(none).toMatchObject({ status: 'failed', earned: 0, evidence: { detail: '_agent.acme.com has no TXT record' } });
  });
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PERSONAS, startSandbox, Sandbox } from '@arl/sandbox';
import { scan, SCAN_PHASES } from '../src';
import type { ScanResult } from '../src';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

describe('scans of the sandbox personas', () => {
  let sandbox: Sandbox;
  const results = new Map<string, ScanResult>();

  beforeAll(async () => {
    sandbox = await startSandbox();
    const scanned = await Promise.all(PERSONAS.map((p) => scan(sandbox.urlOf(p.name), { fetchPolicy: { allowPrivateNetworks: true, lookup: sandbox.lookup, ...ROOMY_DEADLINES } })));
    PERSONAS.forEach((p, i) => results.set(p.name, scanned[i]));
  });
  afterAll(() => sandbox.close());

  it.each(PERSONAS.map((p) => [p.name, p]))('%s lands in its expected kind, ending and grade band', (_name, persona) => {
    const result = results.get(persona.name)!;
    const summary = { kind: result.kind, ending: result.ending, grade: result.grade, score: result.score, cause: result.cause };
    expect(summary).toMatchObject({ kind: persona.expected.kind, ending: persona.expected.ending });
    if (persona.expected.grades.length > 0) expect(persona.expected.grades).toContain(result.grade);
    else expect(result.grade).toBeNull();
    expect(result.layers.map((l) => l.id)).toEqual(['discovery', 'access', 'usability', 'payments']);
    if (result.ending !== 'finished') expect(result.cause).toMatch(/\w+/);
  });

  it('every check of every persona carries evidence, and earned never exceeds points', () => {
    for (const result of results.values()) {
      for (const check of result.checks) {
        expect(check.evidence.detail.length).toBeGreaterThan(0);
        expect(check.earned).toBeGreaterThanOrEqual(0);
        expect(check.earned).toBeLessThanOrEqual(check.points);
      }
    }
  });

  it('content site: payments are not applicable, not failed', () => {
    const content = results.get('content-site')!;
    expect(content.layers.find((l) => l.id === 'payments')!.score).toBeNull();
    expect(content.checks.filter((c) => c.layer === 'payments').every((c) => c.status === 'not_applicable')).toBe(true);
  });

  it('exemplary: names the site and passes the MCP and payment checks through its server card', () => {
    const exemplary = results.get('exemplary')!;
    expect(exemplary.siteName).toBe('Exemplary Co');
    expect(exemplary.checks.find((c) => c.id === 'mcp-apps-ui-resource')!.status).toBe('passed');
    expect(exemplary.checks.find((c) => c.id === 'payments-x402')!.status).toBe('passed');
    expect(exemplary.checks.find((c) => c.id === 'no-bot-challenge')!.status).toBe('passed');
  });

  it('hostile: blocked and challenged AI agents are detected', () => {
    const hostile = results.get('hostile')!;
    for (const id of ['ai-agents-not-blocked', 'no-bot-challenge', 'ai-search-bots-allowed', 'content-without-js']) {
      expect({ id, status: hostile.checks.find((c) => c.id === id)!.status }).toEqual({ id, status: 'failed' });
    }
  });

  it('OAuth MCP: sign-in required, with its protected-resource metadata judged correct', () => {
    const oauth = results.get('oauth-mcp')!;
    expect(oauth.checks.find((c) => c.id === 'protected-resource-metadata')!.status).toBe('passed');
    expect(oauth.checks.find((c) => c.id === 'pkce-s256')!.status).toBe('passed');
    expect(oauth.score).toBeNull();
  });

  it('MCP App: detected from tools that link ui:// resources', () => {
    const app = results.get('mcp-app')!;
    expect(app.siteName).toBe('Flight Board');
    expect(app.checks.find((c) => c.id === 'mcp-apps-ui-resource')!.status).toBe('passed');
  });

  it('garbage: huge files, binary robots.txt, invalid JSON and endless redirects end cleanly', () => {
    const garbage = results.get('garbage')!;
    expect(garbage.ending).toBe('finished');
    const status = (id: string) => garbage.checks.find((c) => c.id === id)!.status;
    expect(status('robots-txt')).toBe('failed');
    expect(status('llms-txt')).toBe('failed');
    expect(status('sitemap')).toBe('failed');
  });
});

describe('scan endings', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox.close());
  // Roomy deadlines unless a test sets its own (the tests about timeouts and budgets do).
  const policy = () => ({ allowPrivateNetworks: true, lookup: sandbox.lookup, ...ROOMY_DEADLINES });

  it('reports progress through the phases in order', async () => {
    const steps: string[] = [];
    const result = await scan(sandbox.urlOf('content-site'), { fetchPolicy: policy(), onProgress: (s) => steps.push(s) });
    expect(result.ending).toBe('finished');
    expect(steps).toEqual([...SCAN_PHASES]);
  });

  it('failed: DNS failure', async () => {
    const result = await scan(`http://no-such-site.test:${sandbox.port}/`, { fetchPolicy: policy() });
    expect(result).toMatchObject({ ending: 'failed', score: null, grade: null });
    expect(result.cause).toMatch(/could not be resolved \(DNS failure\)/);
  });

  it('failed: connection refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = await scan(`http://127.0.0.1:${port}/`, { fetchPolicy: { allowPrivateNetworks: true } });
    expect(result.ending).toBe('failed');
    expect(result.cause).toMatch(/refused the connection/);
  });

  it('failed: TLS error', async () => {
    const result = await scan(sandbox.urlOf('exemplary').replace('http:', 'https:'), { fetchPolicy: policy() });
    expect(result.ending).toBe('failed');
    expect(result.cause).toMatch(/TLS/);
  });

  it('failed: timeout on the home page', async () => {
    const result = await scan(sandbox.urlOf('slow'), { fetchPolicy: { ...policy(), requestTimeoutMs: 150 } });
    expect(result.ending).toBe('failed');
    expect(result.cause).toMatch(/did not answer the home page request/);
  });

  it('failed: a private address without allowPrivateNetworks', async () => {
    const result = await scan(sandbox.urlOf('exemplary'), { fetchPolicy: { lookup: sandbox.lookup } });
    expect(result.ending).toBe('failed');
    expect(result.cause).toMatch(/private or reserved network address/);
  });

  it('failed: not an http(s) URL', async () => {
    const result = await scan('ftp://example.com/', {});
    expect(result).toMatchObject({ ending: 'failed' });
    expect(result.cause).toMatch(/Only http and https/);
  });

  it('interrupted: the AbortSignal fires mid-scan', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 600);
    const result = await scan(sandbox.urlOf('slow'), { fetchPolicy: policy(), signal: controller.signal });
    expect(result).toMatchObject({ ending: 'interrupted', score: null, grade: null });
  });

  it('a spent scan budget finishes with couldnt_check instead of failing checks', async () => {
    const result = await scan(sandbox.urlOf('slow'), { fetchPolicy: { ...policy(), scanBudgetMs: 700 } });
    expect(result.ending).toBe('finished');
    expect(result.checks.find((c) => c.id === 'robots-txt')!.status).toBe('couldnt_check');
    // Ended by the budget (about 1 s here), well before the scan's natural end (over 4 s at 400 ms an answer, longer on
    // a loaded machine); the margin is for a loaded machine.
    expect(result.durationMs).toBeLessThan(3500);
  });
});

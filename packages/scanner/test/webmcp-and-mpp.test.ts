import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHECK_CATALOG } from '../src/checks/catalog';
import { runChecks } from '../src/checks/run-checks';
import type { Artifacts } from '../src/gather/artifacts';
import { MAX_SCRIPTS } from '../src/gather/linked-resources';
import { scan } from '../src';
import type { ScanResult } from '../src';
import { doc, json } from './fixtures/artifacts';
import { richSite } from './fixtures/sites';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/** WebMCP as deployed (tools registered from script files) and MPP discovery through OpenAPI x-payment-info. */

const PAGE = (scripts: string[]) =>
  `<!doctype html><html><head><title>Flights</title><meta name="description" content="Book flights.">${scripts.map((s) => `<script src="${s}"></script>`).join('')}</head><body><h1>Flights</h1><p>Find and book flights.</p></body></html>`;

// WebMCP draft (W3C Web Machine Learning CG): a page exposes tools by calling registerTool on the model context.
const APP_JS = `(function () {
  document.modelContext.registerTool({ name: 'search-flights', description: 'Search flights', inputSchema: { type: 'object' }, execute: async () => ({}) });
})();`;

let base: string;
const requested: string[] = [];
const server = http.createServer((req, res) => {
  requested.push(req.url ?? '');
  const send = (status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };
  if (req.url === '/') return send(200, 'text/html', PAGE(['/app.js']));
  if (req.url === '/many') return send(200, 'text/html', PAGE(['/a.js', '/b.js', '/c.js', '/d.js', '/app.js']));
  if (req.url === '/app.js') return send(200, 'text/javascript', APP_JS);
  if (/^\/[a-d]\.js$/.test(req.url ?? '')) return send(200, 'text/javascript', 'console.log("nothing here");');
  return send(404, 'text/plain', 'not found');
});
const results: Record<string, ScanResult> = {};

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const policy = { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES } };
  [results.app, results.many] = await Promise.all([scan(`${base}/`, policy), scan(`${base}/many`, policy)]);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('WebMCP from script files', () => {
  it('a tool registered with document.modelContext.registerTool in /app.js is found', () => {
    const check = results.app.checks.find((c) => c.id === 'webmcp')!;
    expect(check.status).toBe('passed');
    expect(check.evidence.detail).toBe(`${base}/app.js registers WebMCP tools on document.modelContext (the WebMCP draft's)`);
    expect(check.evidence.excerpt).toMatch(/registerTool/);
  });

  it('script reads are bounded: only the first few same-origin scripts are fetched', () => {
    const scriptsFetched = requested.filter((u) => /\.js$/.test(u));
    expect(scriptsFetched.filter((u) => ['/a.js', '/b.js', '/c.js', '/d.js'].includes(u))).toHaveLength(MAX_SCRIPTS);
    expect(results.many.checks.find((c) => c.id === 'webmcp')!.status).toBe('failed');
  });
});

describe('MPP discovery in OpenAPI (x-payment-info)', () => {
  const withPaymentInfo = (protocols: unknown): Artifacts => ({
    ...richSite(),
    openapi: [
      json('/openapi.json', {
        openapi: '3.1.0',
        info: { title: 'Paid API', version: '1' },
        paths: { '/v1/report': { post: { 'x-payment-info': { price: { mode: 'fixed', currency: 'USD', amount: '0.05' }, ...(protocols ? { protocols } : {}) }, responses: { 402: { description: 'Payment Required' } } } } },
      }),
    ],
  });
  const status = (a: Artifacts, id: string) => runChecks(CHECK_CATALOG, a).find((c) => c.id === id)!;

  it('an operation declaring x-payment-info with the MPP protocol counts as the Payment scheme, declared', () => {
    // draft-payment-discovery (MPP service discovery): paid operations carry x-payment-info in the OpenAPI document.
    const check = status(withPaymentInfo(['mpp']), 'payments-http-auth');
    expect(check.status).toBe('warning');
    expect(check.evidence.detail).toBe('OpenAPI declares a payment for POST /v1/report (x-payment-info), but no live Payment challenge was seen');
  });

  it('x-payment-info naming x402 counts for x402', () => {
    expect(status(withPaymentInfo([{ x402: {} }]), 'payments-x402').status).toBe('warning');
  });

  it('a live Payment challenge passes', () => {
    const live: Artifacts = { ...withPaymentInfo(['mpp']), paymentProbe: doc('/v1/report', 402, '', { 'www-authenticate': 'Payment id="abc", realm="api", method="tempo", intent="charge", request="e30"' }) };
    expect(status(live, 'payments-http-auth').status).toBe('passed');
  });
});

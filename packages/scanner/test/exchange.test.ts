import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequestSigner, generateSigningKey, scan } from '../src';
import type { ScanResult } from '../src';
import { EXCHANGE_WORDS_MAX, exchangeInWords, FIRST_BYTES, firstBytes } from '../src/checks/exchange';
import { ROOMY_DEADLINES } from './fixtures/deadlines';

/**
 * Issue 29 item 6: evidence shows the exchange a verdict rests on, what we sent (method, URL, Accept, User-Agent,
 * signed or not) and what came back (status, content type, length, the first bytes), bounded and sanitised, never a
 * cookie, an authorization header, a signature or a key. Real loopback sites.
 */

const SECRET_COOKIE = 'session=s3cr3t-cookie-value';
// An llms.txt that opens with control and bidirectional-override characters, and runs past FIRST_BYTES.
const LLMS = `\u0007\u202E# Acme\u0000\n\n> Widgets for agents. ${'Ünïcödé widgets everywhere. '.repeat(20)}\n\n## Docs\n\n- [Guide](/guide): start here\n`;
const PAGE = '<!doctype html><html><head><title>Acme</title><meta name="description" content="Acme widgets."></head><body><h1>Acme</h1><p>Acme makes widgets for people and agents, every day of the week.</p></body></html>';

async function serve(seen: http.IncomingHttpHeaders[]): Promise<{ base: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    const path = (req.url ?? '/').split('?')[0];
    const cookie = { 'set-cookie': SECRET_COOKIE };
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html', ...cookie }).end(PAGE);
    if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    if (path === '/llms.txt') return res.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8', ...cookie }).end(LLMS);
    // The full file drops the connection: the evidence says what we sent and that no answer came.
    if (path === '/llms-full.txt') return req.socket.destroy();
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.keepAliveTimeout = 200;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const check = (result: ScanResult, id: string) => result.checks.find((c) => c.id === id)!;

describe('the exchange behind a verdict', () => {
  const seen: http.IncomingHttpHeaders[] = [];
  let base: string;
  let close: () => Promise<void>;
  let result: ScanResult;
  beforeAll(async () => {
    ({ base, close } = await serve(seen));
    result = await scan(`${base}/`, { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES }, maxPages: 1 });
  });
  afterAll(() => close());

  it('names what we sent and what came back, the first bytes cut at 200 bytes on a character boundary and stripped of control characters', () => {
    const { exchange } = check(result, 'llms-txt').evidence;
    expect(exchange).toBeDefined();
    expect(exchange!.request).toEqual({ method: 'GET', url: `${base}/llms.txt`, accept: 'text/markdown,text/plain,*/*;q=0.5', userAgent: expect.stringMatching(/^AgentReadinessScanner\//), signed: false });
    expect(exchange!.response).toMatchObject({ status: 200, contentType: 'text/markdown; charset=utf-8', bytes: Buffer.byteLength(LLMS, 'utf8'), finalUrl: null });
    const head = exchange!.response!.firstBytes;
    expect(Buffer.byteLength(head, 'utf8')).toBeLessThanOrEqual(FIRST_BYTES);
    expect(head.startsWith('# Acme\n\n> Widgets for agents.')).toBe(true);
    expect(head).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069\uFFFD]/);
  });

  it('never carries a cookie, and says so plainly in words a report can show after the finding', () => {
    const stored = JSON.stringify(result.checks.map((c) => c.evidence));
    expect(stored).not.toContain('s3cr3t');
    expect(stored.toLowerCase()).not.toMatch(/"(cookie|set-cookie|authorization)"/);
    const words = exchangeInWords(check(result, 'llms-txt').evidence.exchange)!;
    expect(words).toMatch(new RegExp(`^Sent: GET ${base}/llms\\.txt \\(Accept: text/markdown,text/plain,\\*/\\*;q=0\\.5; User-Agent: AgentReadinessScanner/\\S+ \\(\\+[^)]+\\); unsigned\\)\\. Got: HTTP 200 text/markdown; charset=utf-8, ${Buffer.byteLength(LLMS, 'utf8')} bytes, first bytes "# Acme\\\\n\\\\n> Widgets for agents\\.`));
    expect(words.length).toBeLessThanOrEqual(EXCHANGE_WORDS_MAX);
  });

  it('a request that got no answer shows what was sent and why nothing came back', () => {
    const full = check(result, 'llms-full-txt');
    expect(full.status).toBe('couldnt_check');
    expect(full.evidence.exchange).toMatchObject({ request: { method: 'GET', url: `${base}/llms-full.txt` }, response: null, error: expect.any(String) });
    expect(exchangeInWords(full.evidence.exchange)).toMatch(/ Got no answer: .+\.$/);
  });

  it('stored shapes are read defensively: anything but a request with a method and URL renders nothing, and every part is bounded', () => {
    expect(exchangeInWords(undefined)).toBeNull();
    expect(exchangeInWords({ request: { method: 1 } })).toBeNull();
    const huge = 'x'.repeat(10_000);
    const words = exchangeInWords({ request: { method: 'GET', url: huge, accept: huge, userAgent: huge, signed: false }, response: { status: 200, contentType: huge, bytes: 5, finalUrl: huge, firstBytes: `"\n${huge}` } })!;
    expect(words.length).toBeLessThanOrEqual(EXCHANGE_WORDS_MAX);
    expect(words).toMatch(/ Got: HTTP 200 /);
    expect(firstBytes('é'.repeat(150))).toBe('é'.repeat(FIRST_BYTES / 2));
  });
});

describe('a signed scan says its requests were signed, never what the signature was', () => {
  it('records signed: true and keeps the Signature and Signature-Input values out of the evidence', async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const site = await serve(seen);
    try {
      const signer = await createRequestSigner({ privateKey: generateSigningKey(), agent: 'https://scanner.example' });
      const result = await scan(`${site.base}/`, { fetchPolicy: { allowPrivateNetworks: true, ...ROOMY_DEADLINES, signer }, maxPages: 1 });
      const { exchange } = check(result, 'llms-txt').evidence;
      expect(exchange!.request.signed).toBe(true);
      expect(exchangeInWords(exchange)).toContain('; signed with Web Bot Auth)');
      const signatures = seen.map((h) => h.signature).filter((v): v is string => typeof v === 'string');
      expect(signatures.length).toBeGreaterThan(0);
      const stored = JSON.stringify(result);
      for (const value of signatures) expect(stored).not.toContain(value.slice(8, 40));
      for (const input of seen.map((h) => h['signature-input']).filter((v): v is string => typeof v === 'string')) expect(stored).not.toContain(input.slice(0, 30));
    } finally {
      await site.close();
    }
  });
});

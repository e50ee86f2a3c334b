import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkScannableUrl } from '../src/fetch/check-scannable-url';
import { createGuardedFetch } from '../src/fetch/guarded-fetch';
import { GuardedFetchError } from '../src/fetch/errors';
import { DocFetcher } from '../src/gather/doc-fetcher';
import { isPublicAddress } from '../src/fetch/address-policy';

const PUBLIC = '93.184.216.34';

describe('checkScannableUrl refuses non-public targets', () => {
  const refused: Array<[string, string]> = [
    ['loopback', 'http://127.0.0.1/'],
    ['loopback other', 'http://127.8.9.10/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['10/8', 'http://10.1.2.3/'],
    ['172.16/12 low', 'http://172.16.0.1/'],
    ['172.16/12 high', 'http://172.31.255.254/'],
    ['192.168/16', 'http://192.168.1.1/'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['CGNAT 100.64/10', 'http://100.64.0.1/'],
    ['multicast', 'http://224.0.0.1/'],
    ['broadcast', 'http://255.255.255.255/'],
    ['reserved 240/4', 'http://240.0.0.1/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['IPv6 unspecified', 'http://[::]/'],
    ['IPv6 unique local fc00::/7', 'http://[fc00::1]/'],
    ['IPv6 unique local fd', 'http://[fd12:3456::1]/'],
    ['IPv6 link local fe80::/10', 'http://[fe80::1]/'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/'],
    ['IPv4-mapped private hex form', 'http://[::ffff:a00:1]/'],
    ['decimal IPv4', 'http://2130706433/'],
    ['octal IPv4', 'http://0177.0.0.1/'],
    ['hex IPv4', 'http://0x7f.0.0.1/'],
    ['single hex IPv4', 'http://0x7f000001/'],
    ['short IPv4', 'http://127.1/'],
    ['octal private', 'http://012.0.0.1/'],
    ['NAT64 embedding loopback', 'http://[64:ff9b::7f00:1]/'],
    ['6to4 embedding loopback', 'http://[2002:7f00:1::1]/'],
    ['IPv4-compatible form', 'http://[::127.0.0.1]/'],
  ];
  it.each(refused)('%s (%s)', async (_label, url) => {
    const result = await checkScannableUrl(url, { allowPrivateNetworks: false, lookup: async () => [{ address: PUBLIC, family: 4 }] });
    expect(result).toMatchObject({ ok: false, code: 'blocked_address' });
  });

  it('refuses a hostname that resolves to a private address', async () => {
    const result = await checkScannableUrl('https://intranet.example/', {
      allowPrivateNetworks: false,
      lookup: async () => [{ address: '10.0.0.7', family: 4 }],
    });
    expect(result).toMatchObject({ ok: false, code: 'blocked_address' });
  });

  it('refuses a hostname when any of its addresses is private', async () => {
    const result = await checkScannableUrl('https://mixed.example/', {
      allowPrivateNetworks: false,
      lookup: async () => [
        { address: PUBLIC, family: 4 },
        { address: '::1', family: 6 },
      ],
    });
    expect(result).toMatchObject({ ok: false, code: 'blocked_address' });
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,hi'])(
    'refuses the scheme of %s',
    async (url) => {
      expect(await checkScannableUrl(url, { allowPrivateNetworks: false })).toMatchObject({ ok: false, code: 'bad_scheme' });
    },
  );

  it('reports invalid URLs and DNS failures', async () => {
    expect(await checkScannableUrl('not a url', { allowPrivateNetworks: false })).toMatchObject({ ok: false, code: 'invalid_url' });
    const dns = await checkScannableUrl('https://nowhere.example/', {
      allowPrivateNetworks: false,
      lookup: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    expect(dns).toMatchObject({ ok: false, code: 'dns' });
  });

  it('treats global unicast IPv4 and IPv6 as public', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::6810:85e5')).toBe(true);
    expect(isPublicAddress('::ffff:93.184.216.34')).toBe(true);
    expect(isPublicAddress('not an address')).toBe(false);
  });

  it('accepts public addresses, and private ones only when allowed', async () => {
    const lookup = async () => [{ address: PUBLIC, family: 4 as const }];
    expect(await checkScannableUrl('https://example.com/', { allowPrivateNetworks: false, lookup })).toMatchObject({ ok: true });
    expect(await checkScannableUrl('http://127.0.0.1:8080/', { allowPrivateNetworks: true })).toMatchObject({ ok: true });
  });
});

describe('guarded fetch', () => {
  let server: http.Server;
  let port: number;
  let inFlight = 0;
  let peakInFlight = 0;
  let lastUserAgent = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      lastUserAgent = req.headers['user-agent'] ?? '';
      const path = req.url ?? '/';
      if (path === '/redirect-to-loopback') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` }).end();
      } else if (path === '/redirect-to-internal-name') {
        res.writeHead(301, { location: `http://internal.test:${port}/secret` }).end();
      } else if (path === '/redirect-to-file') {
        res.writeHead(302, { location: 'file:///etc/passwd' }).end();
      } else if (path.startsWith('/loop')) {
        const n = Number(path.split('/')[2] ?? 0);
        res.writeHead(302, { location: `/loop/${n + 1}` }).end();
      } else if (path === '/hang') {
        // never answers
      } else if (path === '/huge-declared') {
        res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }).end();
      } else if (path === '/huge-streamed') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 97);
        let sent = 0;
        const pump = (): void => {
          while (sent < 200 && res.write(chunk)) sent++;
          if (sent < 200) res.once('drain', pump);
          else res.end();
        };
        pump();
      } else if (path === '/slow') {
        inFlight++;
        peakInFlight = Math.max(peakInFlight, inFlight);
        // Held long enough that two requests let in at once overlap here even on a loaded machine.
        setTimeout(() => {
          inFlight--;
          res.end('ok');
        }, 250);
      } else if (path === '/gzip') {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(require('node:zlib').gzipSync(Buffer.from('hello gzip')));
      } else {
        res.end(`hello ${path}`);
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  // "public.test" resolves to a public address that the test routes to the local server; nothing else is allowed.
  const publicLookup = async (hostname: string) =>
    hostname === 'public.test' ? [{ address: PUBLIC, family: 4 as const }] : [{ address: '10.0.0.5', family: 4 as const }];
  const dialLocal = (vetted: { address: string; family: 4 | 6 }) => (vetted.address === PUBLIC ? { address: '127.0.0.1', family: 4 as const } : vetted);

  async function codeOf(promise: Promise<unknown>): Promise<string> {
    try {
      await promise;
      return 'no error';
    } catch (error) {
      expect(error).toBeInstanceOf(GuardedFetchError);
      return (error as GuardedFetchError).code;
    }
  }

  it('fetches a vetted public host and sends an honest user agent with a contact URL', async () => {
    const fetch = createGuardedFetch({ lookup: publicLookup }, { dial: dialLocal });
    const res = await fetch(`http://public.test:${port}/hello`);
    expect(await res.text()).toBe('hello /hello');
    expect(res.url).toBe(`http://public.test:${port}/hello`);
    expect(lastUserAgent).toMatch(/^AgentReadinessScanner\/\S+ \(\+https:\/\/.+\)$/);
  });

  it('refuses a redirect to a loopback address', async () => {
    const fetch = createGuardedFetch({ lookup: publicLookup }, { dial: dialLocal });
    expect(await codeOf(fetch(`http://public.test:${port}/redirect-to-loopback`))).toBe('blocked_address');
  });

  it('refuses a redirect to a name that resolves to a private address', async () => {
    const fetch = createGuardedFetch({ lookup: publicLookup }, { dial: dialLocal });
    expect(await codeOf(fetch(`http://public.test:${port}/redirect-to-internal-name`))).toBe('blocked_address');
  });

  it('refuses a redirect to another scheme', async () => {
    const fetch = createGuardedFetch({ lookup: publicLookup }, { dial: dialLocal });
    expect(await codeOf(fetch(`http://public.test:${port}/redirect-to-file`))).toBe('bad_scheme');
  });

  it('refuses loopback literals directly', async () => {
    const fetch = createGuardedFetch({});
    expect(await codeOf(fetch(`http://127.0.0.1:${port}/`))).toBe('blocked_address');
    expect(await codeOf(fetch(`http://[::ffff:127.0.0.1]:${port}/`))).toBe('blocked_address');
    expect(await codeOf(fetch(`http://0x7f000001:${port}/`))).toBe('blocked_address');
  });

  it('pins the first vetted address, so a rebinding DNS answer is never used', async () => {
    let calls = 0;
    const dialed: string[] = [];
    const rebinding = async () => {
      calls++;
      return calls === 1 ? [{ address: PUBLIC, family: 4 as const }] : [{ address: '127.0.0.1', family: 4 as const }];
    };
    const fetch = createGuardedFetch({ lookup: rebinding }, { dial: (v) => (dialed.push(v.address), dialLocal(v)) });
    await (await fetch(`http://public.test:${port}/a`)).text();
    await (await fetch(`http://public.test:${port}/b`)).text();
    expect(calls).toBe(1);
    expect(dialed).toEqual([PUBLIC, PUBLIC]);
  });

  it('stops endless redirects after the limit', async () => {
    const fetch = createGuardedFetch({ allowPrivateNetworks: true, maxRedirects: 5 });
    expect(await codeOf(fetch(`http://127.0.0.1:${port}/loop/0`))).toBe('too_many_redirects');
  });

  it('times out a request that never answers', async () => {
    const fetch = createGuardedFetch({ allowPrivateNetworks: true, requestTimeoutMs: 150 });
    expect(await codeOf(fetch(`http://127.0.0.1:${port}/hang`))).toBe('timeout');
  });

  it('caps the response size, declared or streamed', async () => {
    const fetch = createGuardedFetch({ allowPrivateNetworks: true, maxResponseBytes: 1024 * 1024 });
    expect(await codeOf(fetch(`http://127.0.0.1:${port}/huge-declared`))).toBe('too_large');
    const res = await fetch(`http://127.0.0.1:${port}/huge-streamed`);
    expect(await codeOf(res.arrayBuffer())).toBe('too_large');
  });

  it('limits concurrent requests per host', async () => {
    peakInFlight = 0;
    const fetch = createGuardedFetch({ allowPrivateNetworks: true, perHostConcurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.text())));
    expect(peakInFlight).toBe(2);
  });

  it('ends with aborted when the caller aborts', async () => {
    const controller = new AbortController();
    const fetch = createGuardedFetch({ allowPrivateNetworks: true, signal: controller.signal });
    const pending = fetch(`http://127.0.0.1:${port}/hang`);
    setTimeout(() => controller.abort(), 20);
    expect(await codeOf(pending)).toBe('aborted');
  });

  it('reports refused connections and DNS failures with their own codes', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const fetch = createGuardedFetch({ allowPrivateNetworks: true });
    expect(await codeOf(fetch(`http://127.0.0.1:${closedPort}/`))).toBe('refused');
    const noDns = createGuardedFetch({
      lookup: async () => {
        throw new Error('ENOTFOUND');
      },
    });
    expect(await codeOf(noDns('http://nowhere.test/'))).toBe('dns');
  });

  it('reports a TLS failure when the server does not speak TLS', async () => {
    const fetch = createGuardedFetch({ allowPrivateNetworks: true });
    expect(await codeOf(fetch(`https://127.0.0.1:${port}/`))).toBe('tls');
  });

  it('decodes gzip bodies', async () => {
    const fetch = createGuardedFetch({ allowPrivateNetworks: true });
    expect(await (await fetch(`http://127.0.0.1:${port}/gzip`)).text()).toBe('hello gzip');
  });
});

describe('doc fetcher', () => {
  it('retries a dropped connection once', async () => {
    let calls = 0;
    const server = http.createServer((req, res) => {
      calls++;
      if (calls === 1) req.socket.destroy();
      else res.end('second time lucky');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const fetcher = new DocFetcher(createGuardedFetch({ allowPrivateNetworks: true }));
      const doc = await fetcher.get(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(doc).toMatchObject({ status: 200, body: 'second time lucky', error: null });
      expect(calls).toBe(2);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

// The census bench's simulated internet, served: one HTTPS server (the bench authority's wildcard certificate) behind a
// listener on each loopback address of the population, answering each site by its SNI name and Host header.
//
// Time, as a scanner meets it on the web (a new connection pays all of it; the scanner keeps connections per host within
// a scan, and a request on a kept connection pays only the response's round trip and transfer):
// - the TLS handshake is answered after 2 round trips (TCP's SYN and TLS 1.3's one round trip; a loopback connect is
//   instant, so both are added in the SNI callback, which delays the ServerHello);
// - a response starts one round trip plus the page's transfer time (its bytes at the site's speed) after the request.
// A dead site's handshake is never answered (TCP accepted, then silence); a WAF site answers every path 403 with a
// challenge page; a dripping site sends its home page 64 bytes every 500 ms.
// Pages are cut from one generated corpus (made once from a seeded word list), so a 1 MB page costs no generation.
import { once } from 'node:events';
import * as fs from 'node:fs';
import * as https from 'node:https';
import * as net from 'node:net';
import * as tls from 'node:tls';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { addressesOf, seededRandom, type Site } from './population';

export interface InternetCounters {
  /** TCP connections accepted. */
  connections: number;
  /** TLS handshakes completed ('secureConnection'). */
  handshakes: number;
  /** HTTP requests answered or begun. */
  requests: number;
  /** Body bytes written. */
  bytes: number;
  /** Handshakes left unanswered (dead sites). */
  stalled: number;
}

export interface Internet {
  port: number;
  addresses: string[];
  counters: InternetCounters;
  close(): Promise<void>;
}

const CORPUS_BYTES = 3 * 1024 * 1024;

/** Made-up words from syllables: text that reads like a page to a parser and is nobody's content. */
function buildCorpus(seed: number): Buffer {
  const random = seededRandom(seed);
  const syllables = ['ka', 'lo', 'mi', 'ra', 'ten', 'sol', 'vi', 'no', 'pre', 'dun', 'sa', 'el', 'tor', 'qui', 'ba', 'fen'];
  const word = () => Array.from({ length: 1 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  while (size < CORPUS_BYTES) {
    const words = Array.from({ length: 30 + Math.floor(random() * 60) }, word);
    // A link now and then: pages of a site link each other, as the scanner's page sample expects.
    const link = `<a href="/p/${1 + (n % 5)}">${word()}</a>`;
    const paragraph = n % 7 === 0 ? `<h2>${words.slice(0, 4).join(' ')}</h2>\n` : `<p>${words.slice(0, 20).join(' ')} ${link} ${words.slice(20).join(' ')}.</p>\n`;
    parts.push(paragraph);
    size += Buffer.byteLength(paragraph);
    n += 1;
  }
  return Buffer.from(parts.join(''));
}

/** A hash of a site and a path, for per-page draws that do not depend on request order. */
function hash(a: number, s: string): number {
  let h = (a * 2654435761) >>> 0;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

const AI_CRAWLERS = ['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'PerplexityBot', 'Bytespider', 'anthropic-ai'];

function robotsTxt(site: Site): string {
  const lines = ['User-agent: *', 'Disallow: /admin/', 'Disallow: /cart'];
  if (site.contentSignals) lines.push('Content-Signal: search=yes, ai-input=yes, ai-train=no');
  lines.push('');
  if (site.aiBlocked) for (const bot of AI_CRAWLERS) lines.push(`User-agent: ${bot}`, 'Disallow: /', '');
  if (site.sitemap) lines.push(`Sitemap: https://${site.host}/sitemap.xml`);
  return `${lines.join('\n')}\n`;
}

function llmsTxt(site: Site): string {
  const links = Array.from({ length: Math.min(site.pages, 8) }, (_, i) => `- [Page ${i + 1}](https://${site.host}/p/${i + 1}): about page ${i + 1}`);
  return `# Site ${site.index}\n\n> A simulated site of the census bench.\n\n## Pages\n\n${links.join('\n')}\n`;
}

function sitemapXml(site: Site): string {
  const urls = [`https://${site.host}/`, ...Array.from({ length: site.pages }, (_, i) => `https://${site.host}/p/${i + 1}`)];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.map((u) => `<url><loc>${u}</loc></url>`).join('\n')}\n</urlset>\n`;
}

const WAF_PAGE = '<!DOCTYPE html><html lang="en"><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript><div id="challenge-stage"></div></body></html>';
const NOT_FOUND = '<!doctype html><html lang="en"><head><title>Not found</title></head><body><h1>404</h1><p>No such page.</p></body></html>';

export function startInternet(options: { sites: Site[]; certFile: string; keyFile: string; port?: number; seed?: number }): Promise<Internet> {
  const { sites } = options;
  const byHost = new Map(sites.map((s) => [s.host, s]));
  const corpus = buildCorpus(options.seed ?? 1);
  const counters: InternetCounters = { connections: 0, handshakes: 0, requests: 0, bytes: 0, stalled: 0 };
  const context = tls.createSecureContext({ cert: fs.readFileSync(options.certFile), key: fs.readFileSync(options.keyFile) });

  /** `bytes` of the corpus from a paragraph boundary picked by `h`, whole paragraphs (no tag cut in half). */
  const cut = (bytes: number, h: number): Buffer[] => {
    const pieces: Buffer[] = [];
    let left = bytes;
    let start = corpus.indexOf(10, h % (corpus.length - 1)) + 1;
    while (left > 0) {
      if (start <= 0 || start >= corpus.length) start = 0;
      const want = Math.min(left, corpus.length - start);
      let end = corpus.indexOf(10, start + want - 1) + 1;
      if (end <= 0) end = corpus.length;
      pieces.push(corpus.subarray(start, end));
      left -= end - start;
      start = end;
    }
    return pieces;
  };

  const page = (site: Site, path: string, bytes: number): Buffer[] => {
    const nav = Array.from({ length: Math.min(site.pages, 12) }, (_, i) => `<a href="/p/${i + 1}">Page ${i + 1}</a>`).join(' ');
    const alternate = site.markdown ? `<link rel="alternate" type="text/markdown" href="${path === '/' ? '/index.md' : `${path}.md`}">` : '';
    const head = Buffer.from(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site ${site.index}${path === '/' ? '' : ` ${path}`}</title>` +
      `<meta name="description" content="Simulated site ${site.index} of the census bench.">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">${alternate}</head>` +
      `<body><header><nav><a href="/">Home</a> ${nav}</nav></header><main><h1>Site ${site.index}</h1>\n`,
    );
    const tail = Buffer.from('</main><footer><a href="/privacy">Privacy</a></footer></body></html>\n');
    return [head, ...cut(Math.max(0, bytes - head.length - tail.length), hash(site.index, path)), tail];
  };

  const send = (res: ServerResponse, site: Site, status: number, type: string, body: Buffer[] | string, extra: Record<string, string> = {}) => {
    const chunks = typeof body === 'string' ? [Buffer.from(body)] : body;
    const length = chunks.reduce((n, c) => n + c.length, 0);
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { 'content-type': type, 'content-length': String(length), server: 'census-sim', ...extra });
      for (const c of chunks) res.write(c);
      res.end();
      counters.bytes += length;
    }, site.rttMs + Math.round(length / site.bytesPerMs));
  };

  const drip = (res: ServerResponse, site: Site) => {
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', server: 'census-sim' });
      const body = Buffer.concat(page(site, '/', site.htmlBytes));
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed || at >= body.length) {
          clearInterval(timer);
          if (!res.destroyed) res.end();
          return;
        }
        res.write(body.subarray(at, at + 64));
        counters.bytes += Math.min(64, body.length - at);
        at += 64;
      }, 500);
      res.on('close', () => clearInterval(timer));
    }, site.rttMs);
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    counters.requests += 1;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const site = byHost.get(host);
    if (!site) {
      res.writeHead(421, { 'content-type': 'text/plain' });
      res.end('misdirected');
      return;
    }
    const path = (req.url ?? '/').split('?')[0];
    const html = 'text/html; charset=utf-8';
    if (site.kind === 'waf') return send(res, site, 403, html, WAF_PAGE, { 'cf-mitigated': 'challenge', 'cache-control': 'no-store' });
    if (path === '/' && site.kind === 'drip') return drip(res, site);
    if (path === '/robots.txt') return site.robots ? send(res, site, 200, 'text/plain', robotsTxt(site)) : send(res, site, 404, html, NOT_FOUND);
    if (path === '/llms.txt') return site.llmsTxt ? send(res, site, 200, 'text/plain; charset=utf-8', llmsTxt(site)) : send(res, site, 404, html, NOT_FOUND);
    if (path === '/sitemap.xml') return site.sitemap ? send(res, site, 200, 'application/xml', sitemapXml(site)) : send(res, site, 404, html, NOT_FOUND);
    const pageMatch = /^\/p\/(\d+)$/.exec(path);
    const pageNumber = pageMatch ? Number(pageMatch[1]) : 0;
    if (path !== '/' && !(pageNumber >= 1 && pageNumber <= site.pages)) return send(res, site, 404, html, NOT_FOUND);
    const wantsMarkdown = site.markdown && /text\/markdown/.test(String(req.headers.accept ?? ''));
    if (wantsMarkdown) return send(res, site, 200, 'text/markdown; charset=utf-8', `# Site ${site.index}\n\nA simulated site of the census bench.\n`, { vary: 'accept' });
    // Inner pages: half to one and a half times the home page.
    const bytes = path === '/' ? site.htmlBytes : Math.round(site.htmlBytes * (0.5 + (hash(site.index, path) % 1000) / 1000));
    return send(res, site, 200, html, page(site, path, bytes), site.markdown ? { vary: 'accept' } : {});
  };

  const server = https.createServer(
    {
      SNICallback(name, callback) {
        const site = byHost.get(name.toLowerCase());
        if (site?.kind === 'dead') {
          counters.stalled += 1;
          return; // never answered: the client's own timeout ends it
        }
        setTimeout(() => callback(null, context), 2 * (site?.rttMs ?? 0));
      },
      cert: fs.readFileSync(options.certFile),
      key: fs.readFileSync(options.keyFile),
    },
    handle,
  );
  server.on('secureConnection', () => { counters.handshakes += 1; });
  server.on('tlsClientError', () => undefined); // clients that give up mid-handshake (dead sites) are expected
  server.keepAliveTimeout = 5000;

  const addresses = addressesOf(sites);
  const listeners: net.Server[] = [];
  const sockets = new Set<net.Socket>();
  const listen = async (address: string, port: number): Promise<number> => {
    const listener = net.createServer({ pauseOnConnect: false }, (socket) => {
      counters.connections += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      server.emit('connection', socket);
    });
    listener.listen({ host: address, port, backlog: 4096 });
    await once(listener, 'listening');
    listeners.push(listener);
    return (listener.address() as net.AddressInfo).port;
  };

  return (async () => {
    // The first address picks the port (443 when free: as root the sites are plain https://host/); the others use it.
    const port = await listen(addresses[0], options.port ?? 0);
    for (const address of addresses.slice(1)) await listen(address, port);
    return {
      port,
      addresses,
      counters,
      async close() {
        for (const s of sockets) s.destroy();
        await Promise.all(listeners.map((l) => new Promise((resolve) => l.close(resolve))));
        server.close();
      },
    };
  })();
}

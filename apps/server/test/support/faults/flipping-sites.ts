// Small loopback sites whose score changes on every scan: each publishes an llms.txt and a Content-Signal on one
// scan and not on the next (the scan number is the count of its robots.txt fetches, which the scanner makes once a
// scan), so a stale read after a fault is visible as a score the database no longer holds.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlippingSites {
  port: number;
  /** The home page URL of site `i` (host `fault-site-<i>.test`, resolved to loopback by the worker's --resolve). */
  urlOf(i: number): string;
  close(): Promise<void>;
}

export async function startFlippingSites(): Promise<FlippingSites> {
  const scans = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0];
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/robots.txt') scans.set(host, (scans.get(host) ?? 0) + 1);
    const rich = (scans.get(host) ?? 0) % 2 === 1;
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (path === '/') {
      return send(200, 'text/html; charset=utf-8', `<!doctype html><html lang="en"><head><title>${host}</title><meta name="description" content="A site for the fault suite."></head><body><h1>${host}</h1><p>Plain words about ${host}.</p></body></html>`);
    }
    if (path === '/robots.txt') return send(200, 'text/plain', rich ? 'User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n' : 'User-agent: *\nAllow: /\n');
    if (path === '/llms.txt' && rich) return send(200, 'text/plain', `# ${host}\n\n> A site for the fault suite.\n\n## Docs\n\n- [Home](/): the home page\n`);
    send(404, 'text/plain', 'not found');
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    urlOf: (i) => `http://fault-site-${i}.test:${port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

// Kept-alive connections within a scan (issue 30): a scan's requests to one origin share connections instead of
// opening one (and over TLS, a handshake) each; the scan closes them when it ends. A kept connection the server closed
// while idle costs one quiet retry of an idempotent request, not a failed document.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGuardedFetch, scan } from '../src';
import { ROOMY_DEADLINES, waitUntil } from './fixtures/deadlines';

const PAGE = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title><meta name="description" content="A shop."></head><body><h1>${title}</h1>
  <a href="/about">About</a> <a href="/pricing">Pricing</a> <a href="/docs">Docs</a> <a href="/blog">Blog</a></body></html>`;

/** Answers a small site; counts requests and connections, and tracks the open ones. */
function site(): { handler: http.RequestListener; requests: () => number; track: (server: http.Server, event: string) => { connections: () => number; open: () => number } } {
  let requests = 0;
  const handler: http.RequestListener = (req, res) => {
    requests++;
    const p = (req.url ?? '/').split('?')[0];
    if (p === '/' || ['/about', '/pricing', '/docs', '/blog'].includes(p)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE(p));
    } else if (p === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  };
  const track = (server: http.Server, event: string) => {
    let connections = 0;
    const open = new Set<Socket>();
    server.on(event, (socket: Socket) => {
      connections++;
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    return { connections: () => connections, open: () => open.size };
  };
  return { handler, requests: () => requests, track };
}

const policy = {
  allowPrivateNetworks: true,
  ...ROOMY_DEADLINES,
  lookup: async () => [{ address: '127.0.0.1', family: 4 as const }],
};

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
const settle = () => new Promise((r) => setTimeout(r, 100));
/** The server sees the scan's closes a moment after the scan ends: wait for them (a deadline for a hang only). */
const allClosed = (counted: { open: () => number }) => waitUntil(() => counted.open(), (n) => n === 0, 'connections still open');

test('a scan of an HTTP site opens far fewer connections than it makes requests, and closes them at its end', async () => {
  const s = site();
  const server = http.createServer(s.handler);
  const counted = s.track(server, 'connection');
  const port = await listen(server);
  try {
    const result = await scan(`http://shop.reuse.test:${port}/`, { fetchPolicy: policy });
    expect(result.ending).toBe('finished');
    expect(s.requests()).toBeGreaterThanOrEqual(20);
    // At most the per-host concurrency (4) in parallel, each reused: before, one connection per request.
    expect(counted.connections()).toBeLessThanOrEqual(8);
    expect(await allClosed(counted)).toBe(0);
  } finally {
    await close(server);
  }
});

function makeCert(name: string): { caPem: string; certPem: string; keyPem: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-reuse-ca-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
    run('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=ARL reuse test authority',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign');
    run('req', ...ec, '-keyout', 'site.key', '-out', 'site.csr', '-subj', `/CN=${name}`);
    fs.writeFileSync(path.join(dir, 'ext.cnf'), `subjectAltName=DNS:${name}\nextendedKeyUsage=serverAuth\n`);
    run('x509', '-req', '-in', 'site.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'site.pem', '-days', '2', '-extfile', 'ext.cnf');
    const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
    return { caPem: read('ca.pem'), certPem: read('site.pem'), keyPem: read('site.key') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('over TLS: far fewer handshakes than requests, the certificate still verified', async () => {
  const cert = makeCert('shop.reuse.test');
  const s = site();
  const server = https.createServer({ cert: cert.certPem, key: cert.keyPem }, s.handler);
  const counted = s.track(server, 'secureConnection');
  const port = await listen(server);
  try {
    const result = await scan(`https://shop.reuse.test:${port}/`, { fetchPolicy: { ...policy, extraCaPem: cert.caPem } });
    expect(result.ending).toBe('finished');
    expect(s.requests()).toBeGreaterThanOrEqual(20);
    expect(counted.connections()).toBeLessThanOrEqual(8);
    expect(await allClosed(counted)).toBe(0);
    // A name the certificate does not cover still fails, kept connections or not.
    const other = await scan(`https://shop.other.test:${port}/`, { fetchPolicy: { ...policy, extraCaPem: cert.caPem } });
    expect(other.ending).toBe('failed');
  } finally {
    await close(server);
  }
});

test('a kept connection the server dropped while idle: the GET goes again on a new connection and succeeds', async () => {
  const s = site();
  const perSocket = new WeakMap<Socket, number>();
  const server = http.createServer((req, res) => {
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    // The second request on a kept connection meets a server that has given up on it.
    if (n === 2) return req.socket.destroy();
    s.handler(req, res);
  });
  const counted = s.track(server, 'connection');
  const port = await listen(server);
  const fetch = createGuardedFetch({ ...policy, reuseConnections: true });
  try {
    expect((await fetch(`http://shop.reuse.test:${port}/robots.txt`)).status).toBe(200);
    // A moment for the connection to go back to the pool; were it not reused, the count of 2 would hold all the same.
    await settle();
    const again = await fetch(`http://shop.reuse.test:${port}/about`);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('<h1>/about</h1>');
    expect(counted.connections()).toBe(2);
  } finally {
    fetch.close();
    await close(server);
  }
});

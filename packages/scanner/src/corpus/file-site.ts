import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CorpusKind, servedPath } from './kinds';

export interface FileSite {
  origin: string;
  close(): Promise<void>;
}

/**
 * A loopback site that serves one file at the path its kind lives at, a plain home page, and 404 for everything else.
 * An OpenAPI document is announced by the home page's Link header (rel="service-desc"), as a site announces one
 * served anywhere but /openapi.json.
 */
export async function startFileSite(file: { kind: CorpusKind; bytes: Buffer; contentType: string }): Promise<FileSite> {
  const path = servedPath(file.kind, file.bytes.toString('utf8'));
  const home = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Corpus file site</title>' +
    '<meta name="description" content="A loopback site serving one published file for the corpus command."></head>' +
    `<body><h1>Corpus file site</h1><p>This site serves one ${file.kind} file at ${path}.</p></body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === path) {
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length });
      res.end(req.method === 'HEAD' ? undefined : file.bytes);
      return;
    }
    if (url.pathname === '/') {
      const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
      if (file.kind === 'openapi') headers.link = `<${path}>; rel="service-desc"`;
      res.writeHead(200, headers);
      res.end(req.method === 'HEAD' ? undefined : home);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

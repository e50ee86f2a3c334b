import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveMcp } from './mcp-endpoint';
import { PERSONAS } from './personas';
import type { Persona, PersonaName, Route, SandboxRequest, SandboxResponse } from './types';

export interface SandboxOptions {
  /** Delay added to every response, to make benchmarks and timeouts realistic. */
  latencyMs?: number;
  host?: string;
  port?: number;
  personas?: readonly Persona[];
}

export type SandboxLookup = (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;

export interface Sandbox {
  urlOf(persona: PersonaName): string;
  lookup: SandboxLookup;
  port: number;
  host: string;
  personas: readonly Persona[];
  close(): Promise<void>;
}

const MAX_REQUEST_BODY = 1024 * 1024;

/** Builds the request handler alone, so a caller can mount personas on its own server. */
export function createPersonaHandler(personas: readonly Persona[], options: { latencyMs?: number } = {}): http.RequestListener {
  const byHost = new Map(personas.map((p) => [p.hostname.toLowerCase(), p]));
  return (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      void dispatch(byHost, req, res, Buffer.concat(chunks).toString('utf8'), options.latencyMs ?? 0).catch(() => {
        if (!res.headersSent) res.writeHead(500).end('sandbox error');
        else res.destroy();
      });
    });
  };
}

async function dispatch(
  byHost: Map<string, Persona>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: string,
  latencyMs: number,
): Promise<void> {
  const hostHeader = req.headers.host ?? '';
  const hostname = hostHeader.replace(/:\d+$/, '').toLowerCase();
  const persona = byHost.get(hostname);
  const delay = latencyMs + (persona?.extraLatencyMs ?? 0);
  if (delay > 0) await sleep(delay);
  if (!persona) {
    send(res, { status: 404, headers: { 'content-type': 'text/plain' }, body: `No sandbox site at ${hostname}` });
    return;
  }
  const url = new URL(req.url ?? '/', `http://${hostHeader || 'localhost'}`);
  const request: SandboxRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    userAgent: req.headers['user-agent'] ?? '',
    origin: `http://${hostHeader}`,
    body,
  };
  const gated = persona.gate?.(request);
  if (gated) {
    await send(res, gated);
    return;
  }
  if (persona.mcp && request.path === persona.mcp.path) {
    await serveMcp(persona.mcp, req, res, body, request.origin);
    return;
  }
  const route = persona.routes[request.path] ?? persona.notFound;
  if (!route) {
    await send(res, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
    return;
  }
  await send(res, await answer(route, request));
}

async function answer(route: Route, request: SandboxRequest): Promise<SandboxResponse> {
  return typeof route === 'function' ? route(request) : route;
}

async function send(res: http.ServerResponse, response: SandboxResponse): Promise<void> {
  if (response.delayMs) await sleep(response.delayMs);
  if (res.destroyed) return;
  res.writeHead(response.status ?? 200, response.headers ?? {});
  res.end(response.body ?? '');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Serves every persona from one loopback server, routed by the Host header. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const personas = options.personas ?? PERSONAS;
  const server = http.createServer(createPersonaHandler(personas, { latencyMs: options.latencyMs }));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const family: 4 | 6 = host.includes(':') ? 6 : 4;
  const known = new Set(personas.map((p) => p.hostname.toLowerCase()));
  return {
    port,
    host,
    personas,
    urlOf(name) {
      const persona = personas.find((p) => p.name === name);
      if (!persona) throw new Error(`Unknown persona ${name}`);
      return `http://${persona.hostname}:${port}${persona.path}`;
    },
    lookup: async (hostname) => {
      if (!known.has(hostname.toLowerCase())) {
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      }
      return [{ address: host, family }];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

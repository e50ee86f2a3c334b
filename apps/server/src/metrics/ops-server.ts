// The operations listener (METRICS_PORT): GET /metrics for Prometheus, GET /healthz (alive) and GET /readyz (ready
// for work) for a supervisor or orchestrator. It is a separate port, off the two public contract hosts, so that
// metrics are never exposed with the API and the contracts stay what clients use; it is the only HTTP surface of a
// standalone worker (`npm run worker`). Errors have the contract's shape: {code, message, requestId}.
import { randomUUID } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { answerClientErrors } from '../http/client-errors';
import { originFormTarget } from '../http/request-target';
import type { Metrics } from './metrics';

export interface OpsServerOptions {
  host: string;
  port: number;
  metrics: Metrics;
  /** Where refused requests Node could not parse are logged (as on the hosts). */
  logger: Logger;
  /** Resolves when the process can do its work (database answers, not draining); rejects with the reason. */
  ready(): Promise<void>;
}

export interface OpsServer {
  url: string;
  close(): Promise<void>;
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  const server = http.createServer(originFormTarget((req, res) => {
    const requestId = randomUUID();
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('Cache-Control', 'no-store');
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json; charset=utf-8', JSON.stringify(body));
    const error = (status: number, code: string, message: string) => json(status, { code, message, requestId });
    const path = (req.url ?? '/').split('?', 1)[0];
    const route = ['/metrics', '/healthz', '/readyz'].includes(path) ? path : null;
    if (!route) return error(404, 'route_not_found', `No route ${req.method} ${path}.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return error(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`);
    }
    if (route === '/healthz') return json(200, { status: 'ok' });
    if (route === '/readyz') {
      options.ready().then(
        () => json(200, { status: 'ok' }),
        (err: unknown) => error(503, 'service_unavailable', err instanceof Error ? err.message : 'Not ready.'),
      );
      return;
    }
    options.metrics.registry.metrics().then(
      (text) => send(200, options.metrics.registry.contentType, text),
      () => error(500, 'internal_error', 'The metrics could not be collected.'),
    );
  }));
  // Malformed or oversized requests and CONNECT get the error body and a request id, as on the hosts.
  answerClientErrors(server, options.logger, 'GET, HEAD');
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

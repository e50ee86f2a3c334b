// Counts every answer of a contract host by its operationId, including answers served before Express (the
// leaderboard's read cache): the request listener is wrapped, and the operation is found by matching the method
// and path against the host's OpenAPI document. Anything that matches no operation is "unmatched", so a scan of
// random paths cannot create unbounded label values.
import type * as http from 'node:http';
import { readRoutes } from '../http/contract-app';
import type { Metrics } from './metrics';

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  operationId: string;
}

export function instrumentListener(listener: http.RequestListener, host: string, specPath: string, metrics: Metrics): http.RequestListener {
  const routes: CompiledRoute[] = readRoutes(specPath).map((r) => ({
    method: r.method.toUpperCase(),
    operationId: r.operationId,
    pattern: new RegExp(`^${r.path.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')).join('[^/]+')}$`),
  }));
  const operationOf = (method: string, url: string): string => {
    const pathname = url.split('?', 1)[0];
    const wanted = method === 'HEAD' ? 'GET' : method;
    return routes.find((r) => r.method === wanted && r.pattern.test(pathname))?.operationId ?? 'unmatched';
  };
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const labels = { host, operation: operationOf(req.method ?? 'GET', req.url ?? '/'), status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    listener(req, res);
  };
}

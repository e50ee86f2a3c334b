// `npm run bench -- floor`: what routing a read through Express costs by itself, before any validation, logging or
// read work. A child process serves the same fixed JSON bytes (a 50-entry page, ~5 KB) three ways, one after the
// other, each loaded by the same autocannon run from this process: raw node:http; Express 5 with the one route; and
// Express 5 with the leaderboard host's shape in front of it (12 pass-through middlewares, then 60 other routes).
// Issue 32 asked for every read through Express with misses at >= 40 % of raw: this is the ceiling of that plan.
import { fork } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadPaths } from './read-bench';
import { loadLine } from './common';

const SHAPES = ['raw', 'express', 'express-host-shape'] as const;
type Shape = (typeof SHAPES)[number];

const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ rank: i + 1, name: `Company ${i}`, domain: `c${i}.example`, score: 50 })) }));

function listener(shape: Shape): http.RequestListener {
  if (shape === 'raw') {
    return (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    };
  }
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (shape === 'express-host-shape') {
    for (let i = 0; i < 12; i++) app.use((_req, _res, next) => next());
    for (let i = 0; i < 60; i++) app.get(`/v1/other-${i}/:id`, (_req, res) => void res.end());
  }
  app.get('/v1/leaderboard', (_req, res) => void res.type('application/json; charset=utf-8').send(body));
  return app;
}

/** The child: serves one shape on a free loopback port and says where. */
async function serve(shape: Shape): Promise<void> {
  const server = http.createServer(listener(shape));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.send!({ port: (server.address() as AddressInfo).port });
}

export async function runExpressFloor(seconds: number, connections: number): Promise<void> {
  console.log(`Express's floor: the same ${body.length}-byte answer, ${connections} connections, ${seconds} s each (${loadLine()})`);
  const rates: Record<string, number> = {};
  for (const shape of SHAPES) {
    const child = fork(__filename, ['serve', shape], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`floor target ${shape} exited with ${code}`)));
    });
    const result = await loadPaths(`http://127.0.0.1:${port}`, ['/v1/leaderboard?q=x'], seconds, connections);
    child.kill();
    rates[shape] = result.rps;
    const ratio = shape === 'raw' ? '' : `  = ${Math.round((result.rps / rates.raw) * 100)} % of raw`;
    console.log(`${shape.padEnd(20)} ${Math.round(result.rps).toLocaleString('en').padStart(7)} req/s  p99 ${result.p99} ms${ratio}`);
  }
}

if (require.main === module && process.argv[2] === 'serve') void serve(process.argv[3] as Shape);

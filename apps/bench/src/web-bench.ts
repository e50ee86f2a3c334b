// Web benchmark: the leaderboard page's server-rendered HTML (GET /, which reads operation 1 and the categories
// through @arl/client and renders with React) beside the JSON of operation 1 (GET /v1/leaderboard), same server, same
// companies, same connections; and the bytes the first page makes a browser download (its script and style sheets,
// gzipped), against the 150 KB target.
import { fork } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { benchEnv, met } from './common';

export interface WebBenchResult {
  companies: number;
  connections: number;
  seconds: number;
  rows: Array<{ label: string; path: string; accept: string; rps: number; p50: number; p99: number; non2xx: number; bytes: number }>;
  assets: Array<{ url: string; bytes: number; gzipped: number }>;
}

const ASSET_TARGET_KB = 150;

export async function runWebBench(options: { companies: number; seconds: number; connections: number }): Promise<WebBenchResult> {
  const child = fork(path.join(__dirname, 'web-target.js'), [String(options.companies)], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'], env: benchEnv() });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`web bench target exited with ${code}`)));
    });
    const { url } = JSON.parse(line) as { url: string };
    const rows: WebBenchResult['rows'] = [];
    for (const [label, p, accept] of [
      ['leaderboard page (SSR HTML), same URL', '/', 'text/html'],
      ['operation 1 (JSON), same URL', '/v1/leaderboard', 'application/json'],
    ] as const) {
      const warm = await fetch(`${url}${p}`, { headers: { accept } });
      const bytes = (await warm.arrayBuffer()).byteLength;
      if (warm.status !== 200) throw new Error(`${p} answered ${warm.status}`);
      const r = await autocannon({ url: `${url}${p}`, connections: options.connections, duration: options.seconds, headers: { accept } });
      rows.push({ label, path: p, accept, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors, bytes });
    }
    // Every request a search never asked before: the page renders and its reads go the whole way (no cache helps).
    // The two rows search disjoint halves of the companies, so neither warms the other's reads.
    const half = Math.floor(options.companies / 2);
    for (const [label, base, accept, offset] of [
      ['leaderboard page (SSR HTML), every search new', '/?q=', 'text/html', 0],
      ['operation 1 (JSON), every search new', '/v1/leaderboard?limit=50&q=', 'application/json', half],
    ] as const) {
      let i = 0;
      const pathFor = (k: number) => `${base}${encodeURIComponent(`company ${offset + ((k * 7919) % half)}`)}`;
      const r = await autocannon({
        url, connections: options.connections, duration: options.seconds, headers: { accept },
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: pathFor(i++) }) }],
      });
      rows.push({ label, path: `${base}company N`, accept, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors, bytes: 0 });
    }
    // What the first page makes a browser fetch: every same-origin script and style sheet it links.
    const html = await (await fetch(`${url}/`, { headers: { accept: 'text/html' } })).text();
    const links = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"|<link rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    const assets = [];
    for (const link of links) {
      const body = Buffer.from(await (await fetch(new URL(link, url))).arrayBuffer());
      assets.push({ url: link, bytes: body.length, gzipped: gzipSync(body, { level: 9 }).length });
    }
    return { companies: options.companies, connections: options.connections, seconds: options.seconds, rows, assets };
  } finally {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }
}

export function printWebBench(result: WebBenchResult): void {
  console.log(`Web: ${result.companies.toLocaleString('en')} companies (embedded PGlite), ${result.connections} connections, ${result.seconds} s each, one server`);
  console.log('| request | answer | req/s | p50 ms | p99 ms | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const r of result.rows) {
    console.log(`| ${r.label}: GET ${r.path} | ${r.bytes ? `${(r.bytes / 1024).toFixed(1)} KB` : '—'} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
  }
  const total = result.assets.reduce((sum, a) => sum + a.gzipped, 0) / 1024;
  console.log(`First page's JavaScript and CSS, gzipped: ${result.assets.map((a) => `${a.url} ${(a.gzipped / 1024).toFixed(1)} KB (raw ${(a.bytes / 1024).toFixed(1)} KB)`).join(', ')}`);
  console.log(`Total ${total.toFixed(1)} KB gzipped; target under ${ASSET_TARGET_KB} KB: ${met(total < ASSET_TARGET_KB)}`);
}

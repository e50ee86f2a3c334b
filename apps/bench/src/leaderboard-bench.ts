// Leaderboard part of `npm run bench`: autocannon against the real app and a raw server serving the same bytes,
// side by side, 64 connections. The target process runs apart so the load generator does not share its event loop.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import autocannon from 'autocannon';

export interface LeaderboardBenchRow {
  name: string;
  appRps: number;
  rawRps: number;
  ratio: number;
  appP99Ms: number;
  rawP99Ms: number;
  non2xx: number;
}

async function load(url: string, connections: number, seconds: number) {
  const result = await autocannon({ url, connections, duration: seconds, pipelining: 1 });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors };
}

export async function runLeaderboardBench(options: { companies?: number; seconds?: number; connections?: number } = {}): Promise<LeaderboardBenchRow[]> {
  const companies = options.companies ?? 10_000;
  const seconds = options.seconds ?? 5;
  const connections = options.connections ?? 64;
  const child = spawn(process.execPath, [path.join(__dirname, 'leaderboard-target.js'), String(companies)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production', VALIDATE_RESPONSES: process.env.VALIDATE_RESPONSES ?? 'log', CURSOR_SECRET: 'bench-cursor-secret-0123456789', FEEDBACK_INVITE_SECRET: 'bench-invite-secret-0123456789' },
  });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`bench target exited with ${code}`)));
    });
    const { appUrl, rawUrl, paths } = JSON.parse(line) as { appUrl: string; rawUrl: string; paths: Record<string, string> };
    const rows: LeaderboardBenchRow[] = [];
    for (const [name, p] of Object.entries(paths)) {
      await load(appUrl + p, connections, 1); // warm-up
      const app = await load(appUrl + p, connections, seconds);
      const raw = await load(rawUrl + p, connections, seconds);
      rows.push({ name, appRps: app.rps, rawRps: raw.rps, ratio: app.rps / raw.rps, appP99Ms: app.p99, rawP99Ms: raw.p99, non2xx: app.non2xx });
    }
    return rows;
  } finally {
    child.kill('SIGTERM');
  }
}

export function printLeaderboardBench(rows: LeaderboardBenchRow[]): void {
  const fmt = (n: number, d = 0) => n.toFixed(d).padStart(8);
  console.log('\nLeaderboard reads (64 connections, embedded PGlite, 10,000 companies)');
  console.log('query                         app req/s  raw req/s   ratio  app p99 ms  raw p99 ms  non-2xx');
  for (const r of rows) {
    console.log(`${r.name.padEnd(28)} ${fmt(r.appRps)}   ${fmt(r.rawRps)}  ${fmt(r.ratio * 100, 0)}%  ${fmt(r.appP99Ms, 1)}    ${fmt(r.rawP99Ms, 1)}  ${fmt(r.non2xx)}`);
  }
}

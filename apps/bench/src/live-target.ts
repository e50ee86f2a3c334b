// Child process of the live benches (mixed, two-process, growth-1m): the real leaderboard host (the app factory's
// listener with its response cache, production validation mode) over a database of N realistic companies, a raw
// node:http server answering the same bytes from memory, and a writer that ends scans through the real end-of-scan
// path (scan-ender.ts) in THIS process, as a worker in the API process does (WORKER_IN_PROCESS, `npm start`).
//
// Roles (argv[2], JSON LiveTargetOptions): `seed` seeds the database first; `serve: false` exits after seeding (the
// data stays, for a server started on it later: growth's start-up time); `dropOnExit` removes the PostgreSQL schema.
// Its first stdout line is LiveTargetInfo. IPC: {cmd:'stats'}, {cmd:'prepare', count}, {cmd:'writes', rate, ms,
// proberPort}, {cmd:'changes', n, budgetMs} (sequential per-change cost), answered with one message each.
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createLeaderboardListener, createLeaderboardReadCache, createRuntime, loadConfig } from '@arl/server';
import type { ScanResult } from '@arl/scanner';
import { waitVisible } from './probe';
import { startHeapSampling, startProfile } from './profile-session';
import { ScanEnder } from './scan-ender';
import { scanPersonas, seedRealistic } from './seed-realistic';
import { countingLogger, watchGc } from './target-process';
import { buildWorkloads, startRawServer, withSchema } from './workloads';

export interface LiveTargetOptions {
  db: 'pglite' | 'postgres';
  companies: number;
  /** PostgreSQL base URL (the schema is added), unused for PGlite. */
  databaseUrl: string;
  schema: string;
  /** DATA_DIR (PGlite's files live under it); the parent creates and removes it. */
  dataDir: string;
  seed: boolean;
  serve: boolean;
  dropOnExit: boolean;
  workloads: string[];
  checkRowsBelow?: number;
}

export interface LiveTargetInfo {
  appUrl: string;
  rawUrl: string;
  workFile: string;
  seedSeconds: number;
  checkRows: number;
  /** From this process's start to its first leaderboard read answered over HTTP (snapshot built, ready to serve). */
  startupMs: number;
  /** Size of the database after seeding (PostgreSQL: the schema's relations; PGlite: its files). */
  databaseMb: number | null;
}

const options = JSON.parse(process.argv[2]) as LiveTargetOptions;

async function main(): Promise<void> {
  // Before anything is loaded, so the start-up load's survivors are attributed too (`heap` command).
  const heap = process.env.BENCH_HEAP_SAMPLING === '1' ? await startHeapSampling() : null;
  // A CPU profile of the start-up itself (BENCH_PROFILE_STARTUP=1), stopped by `profile:stop`.
  let profile: Awaited<ReturnType<typeof startProfile>> | null = process.env.BENCH_PROFILE_STARTUP === '1' ? await startProfile() : null;
  const url = options.db === 'postgres' ? withSchema(options.databaseUrl, options.schema) : '';
  const config = loadConfig({ ...process.env, DATA_DIR: options.dataDir, LOG_LEVEL: 'warn', DATABASE_URL: url, SEED_FILE: '', WORKER_IN_PROCESS: 'false', RESCAN_INTERVAL: 'off' });
  const { logger, errorLines } = countingLogger();
  const runtime = await createRuntime(config, { logger });
  let templates: ScanResult[] | null = null;
  let seedSeconds = 0;
  let checkRows = 0;
  if (options.seed) {
    const seeded = await seedRealistic(runtime.db, options.companies, { checkRowsBelow: options.checkRowsBelow });
    templates = seeded.templates;
    seedSeconds = seeded.seconds;
    checkRows = seeded.checkRows;
  }
  const databaseMb = options.seed ? await databaseSize(runtime) : null;
  if (!options.serve) {
    if (options.dropOnExit && options.db === 'postgres') await runtime.db.executeSql(`DROP SCHEMA IF EXISTS "${options.schema}" CASCADE`);
    process.stdout.write(`${JSON.stringify({ appUrl: '', rawUrl: '', workFile: '', seedSeconds, checkRows, startupMs: 0, databaseMb })}\n`);
    await runtime.close();
    process.exit(0);
  }

  const service = runtime.leaderboard;
  const cache = createLeaderboardReadCache(runtime);
  const app = http.createServer(createLeaderboardListener(runtime, cache));
  app.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  const appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  const first = await fetch(`${appUrl}/v1/leaderboard?limit=1`);
  if (first.status !== 200) throw new Error(`first leaderboard read answered ${first.status}`);
  await first.arrayBuffer();
  const startupMs = performance.now();
  // Today's service loads the latest scans' details in the background after a rebuild; the loads measure the steady
  // state after it (optional: an implementation without it has nothing to wait for).
  await (service as { fillDetails?: () => Promise<void> }).fillDetails?.();

  const workloads = await buildWorkloads(service, options.companies, options.workloads);
  const { server: raw, url: rawUrl } = await startRawServer(service, workloads);
  const workFile = path.join(options.dataDir, `workloads-${process.pid}.json`);
  fs.writeFileSync(workFile, JSON.stringify(workloads));
  // The start-up's garbage is collected before any load (the process runs with --expose-gc): a million-company
  // start-up leaves a 2.4 GB heap whose first major collection otherwise lands in whichever load comes first (the
  // `q` row of growth-1m: 46 % of its CPU in the collector, against ~10 % once collected). Start-up time is
  // measured before this; the loads measure the steady state.
  global.gc?.();
  const info: LiveTargetInfo = { appUrl, rawUrl, workFile, seedSeconds, checkRows, startupMs, databaseMb };
  process.stdout.write(`${JSON.stringify(info)}\n`);

  const gc = watchGc();
  // Peak resident memory between two `stats` messages (sampled: a rebuild's peak is what a host must have).
  let peakRss = process.memoryUsage().rss;
  setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100).unref();
  let ender: ScanEnder | null = null;
  const writer = async () => (ender ??= new ScanEnder(runtime, options.companies, templates ?? (templates = await scanPersonas())));

  process.on('message', async (msg: { cmd: string; count?: number; rate?: number; ms?: number; proberPort?: number | null; n?: number; budgetMs?: number }) => {
    if (msg.cmd === 'stats') {
      const rss = process.memoryUsage().rss;
      const counts = (cache as { counts?: { hits: number; stored: number } }).counts ?? { hits: 0, stored: 0 };
      process.send!({ rssMb: rss / 1048576, peakRssMb: Math.max(peakRss, rss) / 1048576, cpu: process.cpuUsage(), errorLines: errorLines(), gc: structuredClone(gc), ...counts });
      peakRss = rss;
    } else if (msg.cmd === 'heap') {
      process.send!({ summary: heap ? await heap.summary() : 'heap sampling is off (BENCH_HEAP_SAMPLING=1)' });
    } else if (msg.cmd === 'profile:start') {
      profile = await startProfile();
      process.send!({});
    } else if (msg.cmd === 'profile:stop') {
      process.send!({ file: await profile!.stop(`live-target-${options.db}-${options.companies}`) });
      profile = null;
    } else if (msg.cmd === 'prepare') {
      const w = await writer();
      await w.prepare(msg.count!);
      process.send!({ prepared: w.prepared });
    } else if (msg.cmd === 'writes') {
      process.send!(await (await writer()).run(msg.rate!, msg.ms!, msg.proberPort ?? null));
    } else if (msg.cmd === 'changes') {
      // Per-change cost: one scan end at a time, nothing else running; the time from its commit until a read of this
      // process shows it (what applying the change costs before the next read can see it), and the transaction's.
      const w = await writer();
      if (w.prepared < msg.n!) await w.prepare(msg.n! - w.prepared);
      const txMs: number[] = [];
      const applyMs: number[] = [];
      const started = performance.now();
      for (let i = 0; i < msg.n! && performance.now() - started < msg.budgetMs!; i++) {
        const { change, txMs: tx } = await w.endOne();
        const lag = await waitVisible(appUrl, change, 300_000, 0);
        txMs.push(tx);
        applyMs.push(lag ?? Number.POSITIVE_INFINITY);
      }
      process.send!({ txMs, applyMs });
    }
  });
  process.on('SIGTERM', async () => {
    app.close();
    raw.close();
    app.closeAllConnections();
    raw.closeAllConnections();
    ender?.close();
    if (options.dropOnExit && options.db === 'postgres') await runtime.db.executeSql(`DROP SCHEMA IF EXISTS "${options.schema}" CASCADE`).catch(() => undefined);
    await runtime.close();
    process.exit(0);
  });
}

async function databaseSize(runtime: Awaited<ReturnType<typeof createRuntime>>): Promise<number | null> {
  if (options.db === 'pglite') return dirSize(options.dataDir) / 1048576;
  const { rows } = await runtime.db.executeSql(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::float8 AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
    [options.schema],
  );
  return Number(rows[0].bytes) / 1048576;
}

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirSize(p) : entry.isFile() ? fs.statSync(p).size : 0;
  }
  return total;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

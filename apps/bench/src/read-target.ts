// Child process of the read benchmarks: N realistic companies (seed-realistic.ts) on PGlite or PostgreSQL, the real
// leaderboard host (response cache in front of the contract app, production validation mode) and a raw node:http
// server that answers the very bytes the app answers for the same paths, from memory.
//
// Workloads are lists of distinct paths. For each workload the first `rawCount` paths are answered by the raw
// server (their bytes computed through the service, which never touches the response cache); the app is loaded with
// the paths after them, which it has never seen, so every app request is a miss unless the workload is `hit`.
// Messages over IPC: {cmd:'stats'} -> rss, response-cache counters; {cmd:'rebuild'} -> snapshot rebuild time.
import * as fs from 'node:fs';
import * as http from 'node:http';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createLeaderboardListener, createLeaderboardReadCache, createLogger, createRuntime, loadConfig } from '@arl/server';
import { benchDomain, isCommunity, seedRealistic } from './seed-realistic';

export interface ReadTargetInfo {
  appUrl: string;
  rawUrl: string;
  workFile: string;
  seedSeconds: number;
  checkRows: number;
}

export interface Workload {
  /** Paths the raw server knows the bytes of. */
  raw: string[];
  /** Paths the app is loaded with (never requested before). */
  app: string[];
}

const mode = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const companies = Number(process.argv[3] ?? 10_000);
const databaseUrl = process.argv[4] ?? '';
const RAW_COUNT = Number(process.env.BENCH_RAW_PATHS ?? 500);
// Enough distinct paths per workload for an idle machine's misses (~15,000/s over a 1 s warm-up and a 5 s load).
const DISTINCT_PATHS = 120_000;
// Cursor walks: 8 page sizes so 10,000 companies give ~64,000 distinct pages (5 sizes gave 32,000).
const PAGE_SIZES = [10, 12, 15, 20, 25, 30, 40, 50];

const SORTS = ['score', 'company', 'category', 'scanned'] as const;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-read-'));
  const schema = `bench_read_${process.pid}`;
  const url = mode === 'postgres' ? withSchema(databaseUrl, schema) : '';
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: url, SEED_FILE: '', WORKER_IN_PROCESS: 'false', RESCAN_INTERVAL: 'off' });
  // Error lines are counted, not just printed: an answer that breaks the contract is logged at error level (the
  // production validation mode), and a benchmark of answers the contract refuses measures nothing.
  let errorLines = 0;
  const destination = {
    write(line: string) {
      if ((JSON.parse(line) as { level: number }).level >= 50) errorLines++;
      process.stderr.write(line);
    },
  };
  const runtime = await createRuntime(config, { logger: createLogger('warn', { destination, format: 'json' }) });
  const seeded = await seedRealistic(runtime.db, companies);
  const service = runtime.leaderboard;
  await service.current();
  // The in-memory copy of the latest scans' details loads in the background after a rebuild (at 100,000 companies,
  // a thousand statements and 4.9 million checks parsed on the thread that answers reads): the loads measure the
  // steady state after it, not a cold process still filling it.
  await service.fillDetails();

  // Workloads. Every generated path is distinct within its workload.
  const qPaths: string[] = [];
  const forms = [(j: number) => `company ${j}`, (j: number) => `${j}.example`, (j: number) => `bench company ${j}`, (j: number) => `Company ${j}`];
  // After the four spellings, the same queries with other letters upper-cased (search is case-insensitive, the URL
  // is not): a small population still has a distinct URL for every request, so its q load stays a miss load.
  const CASE_VARIANTS = 64;
  const seenQ = new Set<string>();
  for (let k = 0; qPaths.length < RAW_COUNT + DISTINCT_PATHS && k < companies * forms.length * CASE_VARIANTS; k++) {
    const j = (k * 7919) % companies; // spread over the whole range, not just the first names
    const variant = Math.floor(k / companies);
    const q = withCase(forms[variant % forms.length](j), Math.floor(variant / forms.length));
    const path = `/v1/leaderboard?limit=50&q=${encodeURIComponent(q)}`;
    if (!seenQ.has(path)) qPaths.push(path); // ("company 7" upper-cased once is the fourth spelling)
    seenQ.add(path);
  }
  // 128 walks (4 sorts x 2 orders x 2 populations x 8 page sizes), each page a distinct cursor.
  const cursorPaths: string[] = [];
  const maxPages = Math.max(10, Math.ceil((RAW_COUNT + DISTINCT_PATHS) / 128));
  for (const limit of PAGE_SIZES) {
    for (const sort of SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        for (const community of [undefined, 'include'] as const) {
          let cursor: string | null = null;
          for (let page = 0; page < maxPages; page++) {
            const result: { nextCursor: string | null } = await service.list({ sort, order, community, limit, ...(cursor ? { cursor } : {}) });
            cursor = result.nextCursor;
            if (!cursor) break;
            cursorPaths.push(`/v1/leaderboard?sort=${sort}&order=${order}${community ? '&community=include' : ''}&limit=${limit}&cursor=${cursor}`);
          }
        }
      }
    }
  }
  interleave(cursorPaths);
  // Every company once, then (a small population) the same domains with letters upper-cased: operation 3 matches the
  // domain case-insensitively, so each is a distinct URL for the same read.
  const companyPaths: string[] = [];
  for (let variant = 0; variant < CASE_VARIANTS && (variant === 0 || companyPaths.length < RAW_COUNT + DISTINCT_PATHS); variant++) {
    for (const include of [false, true]) {
      for (let k = 0; k < companies; k++) {
        const j = (k * 7919) % companies;
        if (isCommunity(j) && !include) continue;
        companyPaths.push(`/v1/leaderboard/companies/${withCase(benchDomain(j), variant)}${include ? '?community=include' : ''}`);
      }
    }
  }
  const workloads: Record<string, Workload> = {
    q: split(qPaths),
    cursor: split(cursorPaths),
    company: split(companyPaths),
    hit: { raw: ['/v1/leaderboard?limit=50'], app: ['/v1/leaderboard?limit=50'] },
  };

  // The raw server's bytes: what the handlers answer, serialized as Express's res.json does.
  const bodies = new Map<string, Buffer>();
  for (const w of Object.values(workloads)) {
    for (const p of w.raw) bodies.set(p, Buffer.from(JSON.stringify(await answer(p))));
  }
  const raw = http.createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': body?.length ?? 0 });
    res.end(body);
  });
  raw.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));

  const cache = createLeaderboardReadCache(runtime);
  const app = http.createServer(createLeaderboardListener(runtime, cache));
  app.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  // The listener's direct reads warm each new snapshot's entries (serialized and validated in the background after
  // its details): start from a snapshot built after the listener, as a server that has run a while has.
  service.invalidate();
  await service.current();
  await service.fillDetails();

  const workFile = path.join(dataDir, 'workloads.json');
  fs.writeFileSync(workFile, JSON.stringify(workloads));
  const info: ReadTargetInfo = {
    appUrl: `http://127.0.0.1:${(app.address() as AddressInfo).port}`,
    rawUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
    workFile,
    seedSeconds: seeded.seconds,
    checkRows: seeded.checkRows,
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);

  // Garbage-collection pauses (the tail of a latency figure is often one of them), by kind.
  const gc = { major: { count: 0, totalMs: 0, maxMs: 0 }, minor: { count: 0, totalMs: 0, maxMs: 0 } };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? gc.major : gc.minor;
      kind.count++;
      kind.totalMs += e.duration;
      kind.maxMs = Math.max(kind.maxMs, e.duration);
    }
  }).observe({ entryTypes: ['gc'] });

  const profiler = new inspector.Session();
  const post = (method: string) => new Promise((resolve, reject) => profiler.post(method, (err, result) => (err ? reject(err) : resolve(result))));
  process.on('message', async (msg: { cmd: string }) => {
    if (msg.cmd === 'stats') {
      process.send!({ rssMb: process.memoryUsage().rss / 1048576, heapMb: process.memoryUsage().heapUsed / 1048576, errorLines, gc: structuredClone(gc), ...cache.counts });
    } else if (msg.cmd === 'profile:start') {
      profiler.connect();
      await post('Profiler.enable');
      await post('Profiler.start');
      process.send!({});
    } else if (msg.cmd === 'profile:stop') {
      const { profile } = (await post('Profiler.stop')) as { profile: object };
      const file = path.join(process.env.BENCH_PROFILE_DIR ?? os.tmpdir(), `read-target-${mode}-${Date.now()}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      profiler.disconnect();
      process.send!({ file });
    } else if (msg.cmd === 'rebuild') {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        await service.fillDetails();
        service.invalidate();
        const started = performance.now();
        await service.current();
        times.push(performance.now() - started);
      }
      await service.fillDetails();
      global.gc?.();
      process.send!({ rebuildMs: times.sort((a, b) => a - b)[1], rssMb: process.memoryUsage().rss / 1048576 });
    }
  });
  process.on('SIGTERM', async () => {
    app.close();
    raw.close();
    app.closeAllConnections();
    raw.closeAllConnections();
    if (mode === 'postgres') await runtime.db.executeSql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await runtime.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });

  async function answer(p: string): Promise<unknown> {
    const u = new URL(p, 'http://x');
    const query = Object.fromEntries(u.searchParams) as Record<string, string>;
    const company = /^\/v1\/leaderboard\/companies\/([^/]+)$/.exec(u.pathname);
    if (company) return service.company(decodeURIComponent(company[1]), query.community === 'include');
    return service.list({ ...query, limit: query.limit ? Number(query.limit) : undefined } as never);
  }
}

/** `text` with the letters whose index (among letters) is a set bit of `pattern` upper-cased; 0 leaves it as is. */
function withCase(text: string, pattern: number): string {
  let letter = 0;
  return text.replace(/[a-z]/gi, (c) => ((pattern >> letter++ % 6) & 1 ? c.toUpperCase() : c));
}

function split(paths: string[]): Workload {
  const n = Math.min(RAW_COUNT, Math.floor(paths.length / 2));
  return { raw: paths.slice(0, n), app: paths.slice(n) };
}

/** Mixes the walks so consecutive requests come from different sorts (deterministic shuffle). */
function interleave(list: string[]): void {
  let seed = 42;
  for (let i = list.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
}

function withSchema(raw: string, schemaName: string): string {
  const u = new URL(raw);
  u.searchParams.set('schema', schemaName);
  return u.toString();
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

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
import * as inspector from 'node:inspector';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createLeaderboardListener, createLeaderboardReadCache, createRuntime, loadConfig } from '@arl/server';
import { seedRealistic } from './seed-realistic';
import { countingLogger, watchGc } from './target-process';
import { buildWorkloads, startRawServer, withSchema } from './workloads';

export interface ReadTargetInfo {
  appUrl: string;
  rawUrl: string;
  workFile: string;
  seedSeconds: number;
  checkRows: number;
}

export type { Workload } from './workloads';

const mode = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
const companies = Number(process.argv[3] ?? 10_000);
const databaseUrl = process.argv[4] ?? '';

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-bench-read-'));
  const schema = `bench_read_${process.pid}`;
  const url = mode === 'postgres' ? withSchema(databaseUrl, schema) : '';
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: url, SEED_FILE: '', WORKER_IN_PROCESS: 'false', RESCAN_INTERVAL: 'off' });
  const { logger, errorLines } = countingLogger();
  const runtime = await createRuntime(config, { logger });
  const seeded = await seedRealistic(runtime.db, companies);
  const service = runtime.leaderboard;
  await service.current();
  // The in-memory copy of the latest scans' details loads in the background after a rebuild (at 100,000 companies,
  // a thousand statements and 4.9 million checks parsed on the thread that answers reads): the loads measure the
  // steady state after it, not a cold process still filling it.
  await service.fillDetails();

  const workloads = await buildWorkloads(service, companies);
  const { server: raw, url: rawUrl } = await startRawServer(service, workloads);

  const cache = createLeaderboardReadCache(runtime);
  const app = http.createServer(createLeaderboardListener(runtime, cache, process.env.BENCH_NO_DIRECT ? null : undefined));
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
    rawUrl,
    workFile,
    seedSeconds: seeded.seconds,
    checkRows: seeded.checkRows,
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);

  const gc = watchGc();

  const profiler = new inspector.Session();
  const post = (method: string) => new Promise((resolve, reject) => profiler.post(method, (err, result) => (err ? reject(err) : resolve(result))));
  process.on('message', async (msg: { cmd: string }) => {
    if (msg.cmd === 'stats') {
      process.send!({ rssMb: process.memoryUsage().rss / 1048576, heapMb: process.memoryUsage().heapUsed / 1048576, errorLines: errorLines(), gc: structuredClone(gc), ...cache.counts });
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
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});

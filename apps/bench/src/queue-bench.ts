// `npm run bench -- queue` (issue 30, item 2): the worker's real claim (JobQueue.claimMany: 4 scans + 2 mails + 1
// journey in one statement, as a worker with free slots asks) with 1,000,000 queued scan jobs and 200,000 completed
// ones on PostgreSQL, one claim after another on one connection. Target: p99 under 20 ms.
import { createDb, migrate } from '@arl/db';
import { JobQueue } from '@arl/server';
import { BENCH_POSTGRES_URL, loadLine, met } from './common';

const P99_TARGET_MS = 20;
const WARMUP = 50;

export interface QueueBenchResult {
  queued: number;
  seedSeconds: number;
  claims: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

type Logger = ConstructorParameters<typeof JobQueue>[1];
/** The queue logs nothing on a claim; a logger that drops everything. */
const silent = { child: () => silent, info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} } as unknown as Logger;

export async function runQueueBench(options: { queued: number; claims: number }): Promise<QueueBenchResult> {
  console.log(`\nQueue: claims with ${options.queued.toLocaleString('en')} queued scan jobs on PostgreSQL (${loadLine()})`);
  const schema = `bench_queue_${process.pid}`;
  const db = await createDb({ databaseUrl: `${BENCH_POSTGRES_URL}?schema=${schema}` });
  try {
    await migrate(db);
    const started = performance.now();
    // Queued over the last day (claims take the oldest first), completed ones beside them, a few of the other kinds.
    await db.executeSql(`INSERT INTO jobs (id, kind, payload, state, max_attempts, timeout_ms, run_at, created_at)
      SELECT gen_random_uuid(), 'scan', json_build_object('scanId', gen_random_uuid()), 'queued', 3, 60000,
             now() - (g % 86400) * interval '1 second', now() - (g % 86400) * interval '1 second'
      FROM generate_series(1, ${options.queued}) g`);
    await db.executeSql(`INSERT INTO jobs (id, kind, payload, state, max_attempts, timeout_ms, run_at, created_at, finished_at)
      SELECT gen_random_uuid(), (ARRAY['scan', 'mail', 'journey'])[1 + g % 3], '{}'::json, 'completed', 3, 60000,
             now() - interval '2 days', now() - interval '2 days', now() - interval '2 days'
      FROM generate_series(1, ${Math.round(options.queued / 5)}) g`);
    await db.executeSql(`INSERT INTO jobs (id, kind, payload, state, max_attempts, timeout_ms)
      SELECT gen_random_uuid(), k, '{}'::json, 'queued', 3, 60000 FROM generate_series(1, ${options.claims * 2 + WARMUP * 2}) g, unnest(ARRAY['mail', 'journey']) k`);
    await db.executeSql('VACUUM ANALYZE jobs');
    const seedSeconds = (performance.now() - started) / 1000;
    const queue = new JobQueue(db, silent);
    const times: number[] = [];
    for (let i = 0; i < options.claims + WARMUP; i++) {
      const t0 = performance.now();
      const jobs = await queue.claimMany([['scan', 4], ['mail', 2], ['journey', 1]], `bench-${i % 4}`, 60_000);
      if (jobs.length !== 7) throw new Error(`claim ${i} took ${jobs.length} jobs, not 7`);
      if (i >= WARMUP) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
    const result = { queued: options.queued, seedSeconds, claims: times.length, p50: at(0.5), p90: at(0.9), p99: at(0.99), max: times[times.length - 1] };
    console.log(
      `  ${result.claims} claims of 7 jobs (after ${WARMUP} to warm up), seeded in ${seedSeconds.toFixed(0)} s: p50/p90/p99/max ` +
        `${result.p50.toFixed(1)}/${result.p90.toFixed(1)}/${result.p99.toFixed(1)}/${result.max.toFixed(1)} ms; target p99 < ${P99_TARGET_MS} ms: ${met(result.p99 < P99_TARGET_MS)}`,
    );
    return result;
  } finally {
    await db.executeSql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
  }
}

// Pipeline part of `npm run bench`: the whole scan path (HTTP API -> job queue -> worker -> scanner -> results
// transaction) against the sandbox personas with 50 ms per response, on a fresh embedded database (PGlite).
// 1. submit-to-ended latency of one exemplary scan, polled through operation 6 (target: under 2 s);
// 2. 100 scans of mixed personas submitted at once through the API: time to the last ending and scans/s;
// 3. the same 100 scans through the scanner alone (no API, queue or database) at the same concurrency, in the same
//    run, so the pipeline's own overhead is the ratio of the two (target: the API within 1.5x of the scanner alone,
//    and no scan ending otherwise than its persona's expected ending).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PERSONAS, startSandbox } from '@arl/sandbox';
import { scan } from '@arl/scanner';
import { createLogger, createRuntime, listen, loadConfig, startBackground } from '@arl/server';
import { met } from './common';
import { startProfile } from './profile-session';

export interface PipelineBenchResult {
  exemplaryMs: number;
  batch: number;
  concurrency: number;
  batchSeconds: number;
  scansPerSecond: number;
  unexpectedEndings: number;
  /** Endings that differ from the persona's, with their causes (a timeout of ours counts). */
  unexpected: string[];
  scannerAloneSeconds: number;
  scannerAloneUnexpected: number;
}

/** Runs `tasks` with at most `limit` at once. */
async function limited<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

async function post(base: string, url: string): Promise<string> {
  const res = await fetch(`${base}/v1/leaderboard/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url }) });
  if (res.status !== 202) throw new Error(`POST scans answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { scan: { id: string } }).scan.id;
}

async function waitEnded(base: string, id: string, everyMs = 10, timeoutMs = 300_000): Promise<{ ending: string; cause: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/v1/leaderboard/scans/${id}`);
    const body = (await res.json()) as { state: string; ending: string; cause: string };
    if (body.state === 'ended') return body;
    if (Date.now() > deadline) throw new Error(`scan ${id} did not end within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function runPipelineBench(options: { batch?: number; concurrency?: number; latencyMs?: number } = {}): Promise<PipelineBenchResult> {
  const batch = options.batch ?? 100;
  const concurrency = options.concurrency ?? 16;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-pipeline-bench-'));
  const sandbox = await startSandbox({ latencyMs: options.latencyMs ?? 50 });
  const config = loadConfig({
    DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', SCAN_ALLOW_PRIVATE_NETWORKS: 'true', RESCAN_INTERVAL: 'off',
    SCAN_RATE_LIMIT: '0', SCAN_CONCURRENCY: String(concurrency), SCAN_QUEUE_LIMIT: String(batch * 2),
  });
  const runtime = await createRuntime(config, { logger: createLogger('silent'), fetchPolicy: { lookup: sandbox.lookup } });
  const servers = await listen(runtime, { port: 0, feedbackPort: 0 });
  const background = startBackground(runtime, { pollMs: 100 });
  const base = servers.leaderboardUrl;
  try {
    await waitEnded(base, await post(base, `${sandbox.urlOf('exemplary')}?warm-up`)); // module loading and JIT are not latency
    const started = performance.now();
    await waitEnded(base, await post(base, sandbox.urlOf('exemplary')));
    const exemplaryMs = Math.round(performance.now() - started);

    const personas = Array.from({ length: batch }, (_, i) => PERSONAS[i % PERSONAS.length]);
    const profiler = process.env.BENCH_PROFILE_DIR ? await startProfile() : null;
    const batchStarted = performance.now();
    const ids = await Promise.all(personas.map((p, i) => post(base, `${sandbox.urlOf(p.name)}?batch=${i}`)));
    // Polled every 250 ms: 100 pollers at 10 ms would measure the API's read path, not the pipeline.
    const endings = await Promise.all(ids.map((id) => waitEnded(base, id, 250)));
    const batchSeconds = (performance.now() - batchStarted) / 1000;
    if (profiler) console.log(`profile of the API batch: ${await profiler.stop('pipeline-api')}`);

    // The same scans through the scanner alone, at the same concurrency, in the same process and run.
    const policy = { allowPrivateNetworks: true, lookup: sandbox.lookup };
    const aloneStarted = performance.now();
    const alone = await limited(
      concurrency,
      personas.map((p, i) => () => scan(`${sandbox.urlOf(p.name)}?alone=${i}`, { fetchPolicy: policy })),
    );
    const scannerAloneSeconds = (performance.now() - aloneStarted) / 1000;
    const unexpected = endings
      .map((e, i) => (e.ending !== personas[i].expected.ending ? `${personas[i].name}: ${e.ending} (${e.cause})` : null))
      .filter((x): x is string => x !== null);
    return {
      unexpected,
      scannerAloneSeconds: Math.round(scannerAloneSeconds * 100) / 100,
      scannerAloneUnexpected: alone.filter((r, i) => r.ending !== personas[i].expected.ending).length,
      exemplaryMs,
      batch,
      concurrency,
      batchSeconds: Math.round(batchSeconds * 100) / 100,
      scansPerSecond: Math.round((batch / batchSeconds) * 10) / 10,
      unexpectedEndings: unexpected.length,
    };
  } finally {
    await background.stop(5000);
    await servers.close();
    await runtime.close();
    await sandbox.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printPipelineBench(r: PipelineBenchResult): void {
  console.log(`exemplary scan, 50 ms per response, submit to ended through the API: ${r.exemplaryMs} ms (target < 2000: ${met(r.exemplaryMs < 2000)})`);
  const ratio = r.batchSeconds / r.scannerAloneSeconds;
  console.log(`${r.batch} mixed-persona scans, concurrency ${r.concurrency}, 50 ms per response:`);
  console.log(`  through the API (SCAN_CONCURRENCY=${r.concurrency}, PGlite, worker in process): last ended after ${r.batchSeconds} s, ${r.scansPerSecond} scans/s, ${r.unexpectedEndings} unexpected endings`);
  console.log(`  the scanner alone (${r.concurrency} at a time):                         ${r.scannerAloneSeconds} s, ${(r.batch / r.scannerAloneSeconds).toFixed(1)} scans/s, ${r.scannerAloneUnexpected} unexpected endings`);
  console.log(`  API / scanner alone = ${ratio.toFixed(2)}x (target <= 1.5x with no unexpected ending: ${met(ratio <= 1.5 && r.unexpectedEndings === 0)})`);
  for (const u of r.unexpected.slice(0, 5)) console.log(`    unexpected: ${u}`);
}

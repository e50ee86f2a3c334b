// `node dist/profile-live.js <hit|company|q> [pglite|postgres] [companies] [scans/s] [seconds]`: one read workload
// at 64 connections while scans end at the given rate in the reading process (the `mixed` topology), with a CPU
// profile of that process; prints the load's figures and where its time went (profile-summary.ts). Seeded as growth-1m
// seeds (check rows for the first 100,000 companies only: a million with check rows is ~20 GB and never finished).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database } from './common';
import { CHECK_ROWS_BELOW } from './growth-1m-bench';
import { LiveTarget, targetOptions } from './live-bench';
import { summarizeProfile } from './profile-summary';
import { loadPaths } from './read-bench';
import type { WriteFigures } from './scan-ender';

async function main(): Promise<void> {
  const [workload = 'q', db = 'pglite', companies = '10000', rate = '20', seconds = '5'] = process.argv.slice(2);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-profile-live-'));
  const target = await LiveTarget.start(targetOptions(db as Database, Number(companies), dataDir, `bench_profile_${process.pid}`, { workloads: [workload], checkRowsBelow: CHECK_ROWS_BELOW }));
  try {
    const paths = target.workloads[workload].app;
    await target.request({ cmd: 'prepare', count: Math.ceil(Number(rate) * Number(seconds)) + 1 });
    await loadPaths(target.info.appUrl, paths, 1, 64, 0);
    await target.request({ cmd: 'profile:start' });
    const [writes, reads] = await Promise.all([
      target.request<WriteFigures>({ cmd: 'writes', rate: Number(rate), ms: Number(seconds) * 1000, proberPort: null }),
      loadPaths(target.info.appUrl, paths, Number(seconds), 64, 20_000),
    ]);
    const { file } = await target.request<{ file: string }>({ cmd: 'profile:stop' });
    console.log(`${workload} at ${rate} scan ends/s (${writes.ended} ended): ${reads.rps.toFixed(0)} req/s p50 ${reads.p50} p99 ${reads.p99}; profile ${file}`);
    console.log(summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8'))));
  } finally {
    await target.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });

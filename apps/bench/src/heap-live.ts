// `node dist/heap-live.js [pglite|postgres] [companies] [seconds]`: where the live
// heap of one API process goes (the sampling heap profiler from its start, start-up load included), after `seconds`
// of each read workload; prints the allocating functions holding the most and the process's RSS. Seeded as growth-1m.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database } from './common';
import { CHECK_ROWS_BELOW } from './growth-1m-bench';
import { LiveTarget, targetOptions } from './live-bench';
import { loadPaths } from './read-bench';

async function main(): Promise<void> {
  const [db = 'postgres', companies = '100000', seconds = '5'] = process.argv.slice(2);
  process.env.BENCH_HEAP_SAMPLING = '1';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-heap-live-'));
  const workloads = ['q', 'company', 'hit'];
  const target = await LiveTarget.start(targetOptions(db as Database, Number(companies), dataDir, `bench_heap_${process.pid}`, { workloads, checkRowsBelow: CHECK_ROWS_BELOW }));
  try {
    for (const name of workloads) await loadPaths(target.info.appUrl, target.workloads[name].app, Number(seconds), 64, 0);
    const stats = await target.stats();
    const { summary } = await target.request<{ summary: string }>({ cmd: 'heap' });
    console.log(`${companies} companies on ${db}: RSS ${stats.rssMb.toFixed(0)} MB (peak since start-up ${stats.peakRssMb.toFixed(0)} MB)\n${summary}`);
  } finally {
    await target.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });

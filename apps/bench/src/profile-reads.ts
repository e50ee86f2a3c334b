// `node dist/profile-reads.js <workload> [pglite|postgres] [companies] [seconds]`: loads one read workload against
// the read target while the target records a CPU profile (inspector), and prints where the time went.
import * as fs from 'node:fs';
import { loadPaths, ReadTarget } from './read-bench';
import type { Database } from './common';
import { summarizeProfile } from './profile-summary';

async function main(): Promise<void> {
  const [workload = 'q', db = 'pglite', companies = '10000', seconds = '5'] = process.argv.slice(2);
  const target = await ReadTarget.start(db as Database, Number(companies));
  try {
    const w = target.workloads[workload];
    await loadPaths(target.info.appUrl, w.app, 1, 64, 0);
    await target.request('profile:start');
    const r = await loadPaths(target.info.appUrl, w.app, Number(seconds), 64, 20_000);
    const { file } = await target.request<{ file: string }>('profile:stop');
    console.log(`${workload}: ${r.rps.toFixed(0)} req/s p50 ${r.p50} p99 ${r.p99}; profile ${file}`);
    console.log(summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8'))));
  } finally {
    await target.stop();
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });

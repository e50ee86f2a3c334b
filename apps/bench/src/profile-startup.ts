// `node dist/profile-startup.js [pglite|postgres] [companies] [--keep]`: where an API process's start-up goes (from
// its start to its first leaderboard read answered: the full load of the live index), as a CPU profile. Seeds a
// schema as growth-1m does the first time and, with --keep, leaves it for the next run (PostgreSQL).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Database } from './common';
import { CHECK_ROWS_BELOW } from './growth-1m-bench';
import { LiveTarget, targetOptions } from './live-bench';
import { summarizeProfile } from './profile-summary';

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const keep = process.argv.includes('--keep');
  const [db = 'postgres', companies = '1000000'] = args;
  const schema = `bench_startup_${companies}`;
  // A fixed place (PGlite's files, and the marker that the schema is seeded) so --keep serves the next run.
  const dataDir = path.join(os.tmpdir(), `arl-${schema}-${db}`);
  const marker = path.join(dataDir, 'seeded');
  if (!fs.existsSync(marker)) {
    fs.mkdirSync(dataDir, { recursive: true });
    const seeder = await LiveTarget.start(targetOptions(db as Database, Number(companies), dataDir, schema, { serve: false, dropOnExit: false, checkRowsBelow: CHECK_ROWS_BELOW }));
    console.log(`seeded ${companies} companies in ${seeder.info.seedSeconds.toFixed(0)} s`);
    if (keep) fs.writeFileSync(marker, '');
  }
  process.env.BENCH_PROFILE_STARTUP = '1';
  const target = await LiveTarget.start(targetOptions(db as Database, Number(companies), dataDir, schema, { seed: false, dropOnExit: !keep, workloads: [] }));
  try {
    const { file } = await target.request<{ file: string }>({ cmd: 'profile:stop' });
    const stats = await target.stats();
    console.log(`start-up ${(target.info.startupMs / 1000).toFixed(1)} s, RSS ${stats.rssMb.toFixed(0)} MB; profile ${file}`);
    console.log(summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8'))));
  } finally {
    await target.stop();
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });

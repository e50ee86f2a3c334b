// `npm run export -- --format csv|jsonl|parquet --out DIR [--community] [--category SLUG]`: writes a dated snapshot
// of the open dataset (docs/dataset.md) into DIR, the same rows as GET /v1/leaderboard/dataset.{csv,jsonl}. Runs on
// the configured database like `npm start` (migrations and the seed first); the embedded database has one owner, so
// with it the server must be stopped. Prints the file, its rows and bytes. Exit codes: 0 written, 2 usage or
// environment error.
import { parseArgs } from 'node:util';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config';
import { claimDataDir } from '../lifecycle/claim';
import { DataDirBusyError } from '../lifecycle/data-dir-lock';
import type { Runtime } from '../runtime';
import { SNAPSHOT_FORMATS, type SnapshotFormat } from '../open-data/snapshot';
import { runMain } from './run-main';

export const USAGE = `Usage: npm run export -- --format csv|jsonl|parquet --out DIR [--community] [--category SLUG]

Writes DIR/agent-readiness-YYYY-MM-DD[-all][-SLUG].<format>: one row per ranked company (curated; --community adds
community companies; --category narrows to one category) with its latest scan's score, grade and every check's
status, under CC BY 4.0. Columns and license: docs/dataset.md.
`;

class UsageError extends Error {}

function parse(argv: string[]): { format: SnapshotFormat; out: string; community: boolean; category?: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { format: { type: 'string' }, out: { type: 'string' }, community: { type: 'boolean' }, category: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (!SNAPSHOT_FORMATS.includes(values.format as SnapshotFormat)) throw new UsageError('--format must be csv, jsonl or parquet.');
  if (!values.out) throw new UsageError('--out DIR is required.');
  if (values.category !== undefined && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(values.category)) throw new UsageError('--category must be a category slug (lowercase letters, digits and hyphens).');
  return { format: values.format as SnapshotFormat, out: values.out, community: values.community === true, category: values.category };
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let runtime: Runtime | undefined;
  try {
    const options = parse(argv);
    const config = loadConfig();
    const logger = pino({ name: 'arl-export', level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
    claimDataDir(config);
    // The database stack is loaded only now: a usage error comes at once.
    const { createRuntime } = require('../runtime') as typeof import('../runtime');
    const { writeSnapshot } = require('../open-data/snapshot') as typeof import('../open-data/snapshot');
    runtime = await createRuntime(config, { logger });
    const result = await writeSnapshot(runtime.leaderboard, runtime.db, {
      format: options.format,
      dir: options.out,
      query: { ...(options.community ? { community: 'include' as const } : {}), ...(options.category ? { category: options.category } : {}) },
      now: runtime.clock(),
    });
    process.stdout.write(`${result.file}\t${result.rows} rows\t${result.bytes} bytes\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError || err instanceof DataDirBusyError) {
      process.stderr.write(`${err.message}\n${err instanceof UsageError ? USAGE : ''}`);
      return 2;
    }
    process.stderr.write(`Failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

runMain(main, 2);

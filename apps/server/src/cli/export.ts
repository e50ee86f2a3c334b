// `npm run export -- --format csv|jsonl|parquet --out DIR [--community] [--category SLUG]`: writes a dated snapshot
// of the open dataset (docs/dataset.md) into DIR, the same rows as GET /v1/leaderboard/dataset.{csv,jsonl}. Runs on
// the configured database like `npm start` (migrations and the seed first); the embedded database has one owner, so
// with it the server must be stopped. Prints the file, its rows and bytes. Exit codes: 0 written, 1 an unknown
// category (nothing written), 2 usage or environment error (--out is checked before the database opens, and said in
// words: a file where a folder should be, a symbolic link to nothing, no permission).
import * as fs from 'node:fs';
import * as path from 'node:path';
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
status, under CC BY 4.0. DIR is created when missing; a snapshot of the same day and population is replaced.
Columns and license: docs/dataset.md.
Exit codes: 0 written, 1 unknown category (nothing written), 2 usage or environment error.
`;

class UsageError extends Error {}
/** --out cannot hold the snapshot: exit 2, without the usage text. */
class OutError extends Error {}
/** Refused input (an unknown category): exit 1, nothing written. */
class RefusedError extends Error {}

/** Why DIR cannot receive the snapshot, found without creating anything; null when it can (or can be made). */
export function outProblem(out: string): string | null {
  const dir = path.resolve(out);
  let stat: fs.Stats | null = null;
  try {
    stat = fs.statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return `--out ${out} cannot be read: ${errnoWords(err)}.`;
  }
  if (stat) {
    if (!stat.isDirectory()) return `--out ${out} is a file, not a folder: --out names the folder the snapshot is written into (there is no flag to overwrite a file; remove it or name a folder).`;
    return writable(dir) ? null : `--out ${out} is a folder this user may not write into (permission denied).`;
  }
  // Missing: it will be made, unless something on its path stands in the way.
  const link = lstatOrNull(dir);
  if (link?.isSymbolicLink()) return `--out ${out} cannot be made a folder: it is a symbolic link to a folder that does not exist (${path.resolve(path.dirname(dir), fs.readlinkSync(dir))}).`;
  let parent = path.dirname(dir);
  for (;;) {
    let found: fs.Stats | null = null;
    try {
      found = fs.statSync(parent);
    } catch {
      // Missing as well: look further up.
    }
    if (found) {
      if (!found.isDirectory()) return `--out ${out} cannot be made a folder: ${parent} on its path is a file, not a folder.`;
      return writable(parent) ? null : `--out ${out} cannot be made a folder: ${parent} may not be written into by this user (permission denied).`;
    }
    if (path.dirname(parent) === parent) return `--out ${out} cannot be made a folder: none of the folders on its path exists.`;
    const parentLink = lstatOrNull(parent);
    if (parentLink?.isSymbolicLink()) return `--out ${out} cannot be made a folder: ${parent} on its path is a symbolic link to a folder that does not exist.`;
    parent = path.dirname(parent);
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A file system error in words (the snapshot could not be written after all: the disk full, a folder removed). */
function errnoWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied', EPERM: 'permission denied', ENOSPC: 'the disk is full', EDQUOT: 'the disk quota is used up',
    EROFS: 'the file system is read-only', ENOENT: 'the folder does not exist (any more)', ENOTDIR: 'a file stands where a folder should be',
    EEXIST: 'a file stands where a folder should be', EISDIR: 'a folder stands where the file should be', EIO: 'an input/output error of the disk',
  };
  return (code && words[code]) ?? (err instanceof Error ? err.message : String(err));
}

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
  let out: string | undefined;
  try {
    const options = parse(argv);
    out = options.out;
    const problem = outProblem(options.out);
    if (problem) throw new OutError(problem);
    const config = loadConfig();
    const logger = pino({ name: 'arl-export', level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
    claimDataDir(config);
    // The database stack is loaded only now: a usage error comes at once.
    const { createRuntime } = require('../runtime') as typeof import('../runtime');
    const { writeSnapshot } = require('../open-data/snapshot') as typeof import('../open-data/snapshot');
    runtime = await createRuntime(config, { logger });
    if (options.category !== undefined) {
      const { categoryMap } = require('../census/roster') as typeof import('../census/roster');
      const { knownCategories } = require('../census/list-file') as typeof import('../census/list-file');
      const categories = await categoryMap(runtime.db);
      if (!categories.has(options.category)) throw new RefusedError(`No category "${options.category}" (${knownCategories(categories)}): nothing was written.`);
    }
    const result = await writeSnapshot(runtime.leaderboard, runtime.db, {
      format: options.format,
      dir: options.out,
      query: { ...(options.community ? { community: 'include' as const } : {}), ...(options.category ? { category: options.category } : {}) },
      now: runtime.clock(),
    });
    process.stdout.write(`${result.file}\t${result.rows} rows\t${result.bytes} bytes\n`);
    return 0;
  } catch (err) {
    if (err instanceof RefusedError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    if (err instanceof OutError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    const failed = (err as NodeJS.ErrnoException).path;
    if (out !== undefined && typeof failed === 'string' && path.resolve(failed).startsWith(path.resolve(out))) {
      process.stderr.write(`The snapshot could not be written into ${out}: ${errnoWords(err)}.\n`);
      return 2;
    }
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

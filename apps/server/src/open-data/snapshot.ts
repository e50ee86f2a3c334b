// A dated snapshot of the open dataset in a folder: `agent-readiness-YYYY-MM-DD[-<population>].<csv|jsonl|parquet>`,
// the same rows as the streamed downloads (dataset.ts), written with flat memory: CSV and JSON Lines batch by batch
// onto a file stream, Parquet a row group at a time (hyparquet-writer's parquetWriteRows pulls the rows lazily). The
// file is written under a temporary name and renamed into place, so a snapshot is never seen half written.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Db } from '@arl/db';
import type { LeaderboardService } from '../leaderboard/service';
import { CHECKS, LICENSE, METHODOLOGY_VERSION } from './definitions';
import { datasetBatches, jsonRow, writeDataset, type DatasetQuery, type DatasetRow } from './dataset';

export type SnapshotFormat = 'csv' | 'jsonl' | 'parquet';
export const SNAPSHOT_FORMATS: readonly SnapshotFormat[] = ['csv', 'jsonl', 'parquet'];

export interface SnapshotResult {
  file: string;
  rows: number;
  bytes: number;
}

/** The snapshot's file name: the date (UTC) and, when not the default population, what it holds. */
export function snapshotName(format: SnapshotFormat, now: Date, query: DatasetQuery): string {
  const scope = [query.community === 'include' ? 'all' : '', query.category ?? ''].filter(Boolean).join('-');
  return `agent-readiness-${now.toISOString().slice(0, 10)}${scope ? `-${scope}` : ''}.${format}`;
}

export async function writeSnapshot(
  leaderboard: LeaderboardService,
  db: Db,
  options: { format: SnapshotFormat; dir: string; query: DatasetQuery; now: Date },
): Promise<SnapshotResult> {
  fs.mkdirSync(options.dir, { recursive: true });
  const file = path.join(options.dir, snapshotName(options.format, options.now, options.query));
  const temporary = `${file}.partial-${process.pid}`;
  // The rows come from the live index and its scan details, as the HTTP downloads' do: both loaded first.
  await leaderboard.current();
  await leaderboard.fillDetails();
  const batches = datasetBatches(leaderboard, db, options.query);
  let rows: number;
  try {
    rows = options.format === 'parquet' ? await writeParquet(batches, temporary, options.now) : await writeText(batches, options.format, temporary);
    fs.renameSync(temporary, file);
  } catch (err) {
    fs.rmSync(temporary, { force: true });
    throw err;
  }
  return { file, rows, bytes: fs.statSync(file).size };
}

async function writeText(batches: AsyncIterable<DatasetRow[]>, format: 'csv' | 'jsonl', file: string): Promise<number> {
  const out = fs.createWriteStream(file);
  const rows = await writeDataset(batches, format, out);
  out.end();
  await finished(out);
  return rows;
}

/** Parquet columns: the fixed ones typed, the check statuses as optional strings. */
function parquetColumns(): Array<{ name: string; type: 'STRING' | 'INT32' | 'TIMESTAMP'; nullable: boolean }> {
  return [
    { name: 'domain', type: 'STRING', nullable: false },
    { name: 'name', type: 'STRING', nullable: false },
    { name: 'category', type: 'STRING', nullable: true },
    { name: 'source', type: 'STRING', nullable: false },
    { name: 'score', type: 'INT32', nullable: false },
    { name: 'grade', type: 'STRING', nullable: false },
    { name: 'scannedAt', type: 'TIMESTAMP', nullable: false },
    { name: 'catalogVersion', type: 'STRING', nullable: true },
    { name: 'methodologyVersion', type: 'STRING', nullable: false },
    ...CHECKS.map((c) => ({ name: c.id, type: 'STRING' as const, nullable: true })),
  ];
}

async function writeParquet(batches: AsyncIterable<DatasetRow[]>, file: string, now: Date): Promise<number> {
  // ESM only: loaded through require(esm) (Node 20.19+, 22.12+, 24), and only by the export.
  const { parquetWriteRows, fileWriter } = require('hyparquet-writer') as typeof import('hyparquet-writer', { with: { 'resolution-mode': 'import' } });
  let count = 0;
  async function* rows() {
    for await (const batch of batches) {
      for (const row of batch) {
        count++;
        // Parquet holds the time as a timestamp; every other value is the JSON Lines row's.
        yield { ...jsonRow(row), scannedAt: new Date(row.scannedAt) };
      }
    }
  }
  await parquetWriteRows({
    writer: fileWriter(file),
    rows: rows(),
    columns: parquetColumns(),
    // A row group's rows are held as objects until it is encoded: 20,000 of ~70 columns stay well under 100 MB.
    rowGroupSize: 20_000,
    kvMetadata: [
      { key: 'license', value: LICENSE.id },
      { key: 'license_url', value: LICENSE.url },
      { key: 'methodology_version', value: METHODOLOGY_VERSION },
      { key: 'exported_at', value: now.toISOString() },
    ],
    createdBy: 'agent-readiness-leaderboard',
  });
  return count;
}

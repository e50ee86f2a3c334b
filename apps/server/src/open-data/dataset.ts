// The open dataset: one row per ranked company of a population, from its latest scan as operation 3 reads it
// (the live index's facts and the kept scan details), with the catalog the scan ran and the methodology the row is
// published under. Rows are produced a batch at a time while walking the index (each company exactly once: the
// walk follows the index's own map, which a change updates in place), so memory stays flat whatever the size; per
// batch one statement reads the scans' catalog versions (and the details of scans whose details are not kept yet).
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Db } from '@arl/db';
import type { Item } from '../leaderboard/live-index';
import type { Population } from '../leaderboard/ranking';
import type { LeaderboardService } from '../leaderboard/service';
import type { ScanDetailRows } from '../leaderboard/scan-details';
import { csvCell, csvRow } from '../text/csv';
import { CHECKS, checkIndex, METHODOLOGY_VERSION, STATUSES } from './definitions';

export type DatasetFormat = 'csv' | 'jsonl';

export const DATASET_MEDIA_TYPES: Record<DatasetFormat, string> = { csv: 'text/csv; charset=utf-8', jsonl: 'application/x-ndjson; charset=utf-8' };

/** The fixed columns, in order; one column per check id of the running catalog follows them. */
export const DATASET_COLUMNS = [
  { name: 'domain', description: 'The company\'s registrable domain (the key of GET /v1/leaderboard/companies/{domain}).' },
  { name: 'name', description: 'The company\'s name.' },
  { name: 'category', description: 'Its category\'s slug; empty (CSV) or null (JSON Lines) without one.' },
  { name: 'source', description: 'curated (the seed list) or community (created by a scan).' },
  { name: 'score', description: 'The score 0-100 of its latest finished scan.' },
  { name: 'grade', description: 'The grade of that score (A+, A, B, C, D, F).' },
  { name: 'scannedAt', description: 'When that scan ended (ISO 8601, UTC).' },
  { name: 'catalogVersion', description: 'The check catalog that scan ran; empty or null when not recorded.' },
  { name: 'methodologyVersion', description: 'The published methodology (getMethodology) the row follows.' },
  { name: '<check id>', description: 'One column per check of the catalog, in its order: passed, warning, failed, not_applicable, couldnt_check, or empty/null when the scan has no result for it.' },
] as const;

export const HEADER: readonly string[] = [...DATASET_COLUMNS.slice(0, -1).map((c) => c.name), ...CHECKS.map((c) => c.id)];

export interface DatasetRow {
  domain: string;
  name: string;
  category: string | null;
  source: 'curated' | 'community';
  score: number;
  grade: string;
  scannedAt: string;
  catalogVersion: string | null;
  methodologyVersion: string;
  /** One status (or null) per check of CHECKS. */
  checks: Array<string | null>;
}

export interface DatasetQuery {
  category?: string;
  community?: 'include';
}

const BATCH = 1_000;

/** Every row of the population, a batch at a time. */
export async function* datasetBatches(leaderboard: LeaderboardService, db: Db, query: DatasetQuery, batchSize = BATCH): AsyncGenerator<DatasetRow[]> {
  const index = await leaderboard.current();
  const population: Population = query.community === 'include' ? 'all' : 'curated';
  let batch: Item[] = [];
  for (const item of index.items()) {
    if (!index.inPopulation(item, population)) continue;
    if (query.category !== undefined && item.company.category?.slug !== query.category) continue;
    batch.push(item);
    if (batch.length >= batchSize) {
      yield await rowsOf(leaderboard, db, batch);
      batch = [];
    }
  }
  if (batch.length > 0) yield await rowsOf(leaderboard, db, batch);
}

async function rowsOf(leaderboard: LeaderboardService, db: Db, items: Item[]): Promise<DatasetRow[]> {
  // The facts as they are now (the walk may have waited on the reader), read once per company.
  const companies = items.map((i) => i.company);
  const scanIds = companies.map((c) => c.latestScanId).filter((id): id is string => id !== null);
  const kept = new Map<string, ScanDetailRows>();
  for (const id of scanIds) {
    const rows = leaderboard.latestDetails(id);
    if (rows) kept.set(id, rows);
  }
  const missing = scanIds.filter((id) => !kept.has(id));
  const { rows } = scanIds.length === 0
    ? { rows: [] }
    : await db.executeSql(
        `SELECT id::text AS id, catalog_version, CASE WHEN id = ANY($2::uuid[]) THEN detail END AS detail
         FROM scans WHERE id = ANY($1::uuid[])`,
        [scanIds, missing],
      );
  const versions = new Map<string, string | null>();
  for (const row of rows as Array<{ id: string; catalog_version: string | null; detail: string | null }>) {
    versions.set(row.id, row.catalog_version);
    if (row.detail) kept.set(row.id, JSON.parse(row.detail) as ScanDetailRows);
  }
  return companies.map((company) => {
    const details = company.latestScanId ? kept.get(company.latestScanId) : undefined;
    const checks = new Array<string | null>(CHECKS.length).fill(null);
    for (const check of details?.checks ?? []) {
      const i = checkIndex(check.checkId);
      if (i >= 0) checks[i] = check.status;
    }
    return {
      domain: company.domain,
      name: company.name,
      category: company.category?.slug ?? null,
      source: company.source,
      score: company.score,
      grade: company.grade,
      scannedAt: company.scannedAt.toISOString(),
      catalogVersion: (company.latestScanId && versions.get(company.latestScanId)) || null,
      methodologyVersion: METHODOLOGY_VERSION,
      checks,
    };
  });
}

/** A row as JSON Lines writes it: the columns' keys in order, a check's status under its id. */
export function jsonRow(row: DatasetRow): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {
    domain: row.domain, name: row.name, category: row.category, source: row.source, score: row.score, grade: row.grade,
    scannedAt: row.scannedAt, catalogVersion: row.catalogVersion, methodologyVersion: row.methodologyVersion,
  };
  CHECKS.forEach((c, i) => (out[c.id] = row.checks[i]));
  return out;
}

// The two text forms are written by hand, not by a generic CSV or JSON writer: a million rows of ~70 columns are
// the whole cost of a download (csv-stringify and a JSON.stringify per row object cost 4-5 times as much). Every
// form is checked against a reader (csv-parse, JSON.parse) by the dataset tests; CSV cells pass text/csv.ts.

const STATUS_WORDS = new Set<string>(STATUSES);
const STATUS_JSON = new Map<string, string>(STATUSES.map((s) => [s, JSON.stringify(s)]));
const CHECK_KEYS = CHECKS.map((c) => `,${JSON.stringify(c.id)}:`);
const text = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

/** A row as CSV writes it: the header's order, null as an empty field, CRLF after it. */
export function csvLine(row: DatasetRow): string {
  let line = `${csvCell(row.domain)},${csvCell(row.name)},${row.category === null ? '' : csvCell(row.category)},${row.source},${row.score},${row.grade},${row.scannedAt},${row.catalogVersion === null ? '' : csvCell(row.catalogVersion)},${csvCell(row.methodologyVersion)}`;
  for (const status of row.checks) line += status === null ? ',' : `,${STATUS_WORDS.has(status) ? status : csvCell(status)}`;
  return `${line}\r\n`;
}

/** A row as JSON Lines writes it: jsonRow's keys in order, one line. */
export function jsonLine(row: DatasetRow): string {
  let line = `{"domain":${text(row.domain)},"name":${text(row.name)},"category":${text(row.category)},"source":${text(row.source)},"score":${row.score},"grade":${text(row.grade)},"scannedAt":${text(row.scannedAt)},"catalogVersion":${text(row.catalogVersion)},"methodologyVersion":${text(row.methodologyVersion)}`;
  for (let i = 0; i < CHECK_KEYS.length; i++) {
    const status = row.checks[i];
    line += CHECK_KEYS[i] + (status === null ? 'null' : (STATUS_JSON.get(status) ?? JSON.stringify(status)));
  }
  return `${line}}\n`;
}

export function formatRows(rows: DatasetRow[], format: DatasetFormat): string {
  let out = '';
  if (format === 'jsonl') for (const row of rows) out += jsonLine(row);
  else for (const row of rows) out += csvLine(row);
  return out;
}

export const headerText = (format: DatasetFormat): string => (format === 'csv' ? csvRow(HEADER) : '');

/**
 * Writes the population's dataset to `out` with back-pressure and returns the rows written; stops early (without
 * error) when `out` is destroyed or ended (a client that went away, a HEAD request).
 */
export async function writeDataset(
  rows: AsyncIterable<DatasetRow[]>,
  format: DatasetFormat,
  out: Writable,
): Promise<number> {
  let count = 0;
  const header = headerText(format);
  if (header && !(await write(out, header))) return count;
  for await (const batch of rows) {
    if (!(await write(out, formatRows(batch, format)))) break;
    count += batch.length;
  }
  return count;
}

/**
 * A batch is written in pieces of at most this many bytes: a drain then says the reader took at most this much, so
 * the downloads' idle watchdog (downloads.ts) sees a slow reader's progress, not only a whole batch's (~2 MB of
 * JSON Lines).
 */
const PIECE_BYTES = 64 * 1024;

/** False when the stream can take no more (closed). */
async function write(out: Writable, chunk: string): Promise<boolean> {
  // Encoded once (as out.write would), then cut as bytes: a piece never splits a character.
  const bytes = chunk.length > PIECE_BYTES / 3 ? Buffer.from(chunk, 'utf8') : null;
  const pieces = bytes === null ? 1 : Math.ceil(bytes.length / PIECE_BYTES);
  for (let i = 0; i < pieces; i++) {
    if (out.destroyed || out.writableEnded) return false;
    if (!out.write(bytes === null ? chunk : bytes.subarray(i * PIECE_BYTES, (i + 1) * PIECE_BYTES))) {
      // Whichever comes first; the other listener is removed (a long download waits thousands of times).
      const waiting = new AbortController();
      try {
        await Promise.race([once(out, 'drain', { signal: waiting.signal }), once(out, 'close', { signal: waiting.signal })]);
      } finally {
        waiting.abort();
      }
    }
  }
  return !out.destroyed && !out.writableEnded;
}

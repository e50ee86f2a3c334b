// Streams a project's reports out as JSON Lines or CSV: keyset batches over (received_at, id), each written with
// back-pressure, so memory stays flat whatever the number of reports.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Db } from '@arl/db';
import { csvRow } from '../text/csv';

export type ExportFormat = 'jsonl' | 'csv';

export const EXPORT_BATCH = 1000;
/** CSV columns: the report's fields in contract order; the two objects are JSON text. */
export const CSV_COLUMNS = [
  'id', 'receivedAt', 'observation', 'goal', 'outcome', 'category', 'reference', 'surface', 'productVersion',
  'requestReference', 'agent', 'invite', 'metadata', 'environment',
] as const;

export interface ExportedRow {
  id: string;
  receivedAt: Date;
  body: unknown;
}

/** Every report of the project, oldest first, one batch at a time. */
export async function* reportBatches(db: Db, projectId: string, batchSize = EXPORT_BATCH): AsyncGenerator<ExportedRow[]> {
  let after: { receivedAt: Date; id: string } | null = null;
  for (;;) {
    const rows: ExportedRow[] = await db.prisma.feedbackReport.findMany({
      where: {
        projectId,
        ...(after ? { OR: [{ receivedAt: { gt: after.receivedAt } }, { receivedAt: after.receivedAt, id: { gt: after.id } }] } : {}),
      },
      orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
      take: batchSize,
      select: { id: true, receivedAt: true, body: true },
    });
    if (rows.length === 0) return;
    yield rows;
    const last = rows[rows.length - 1];
    after = { receivedAt: last.receivedAt, id: last.id };
    if (rows.length < batchSize) return;
  }
}

export function formatBatch(rows: ExportedRow[], format: ExportFormat): string {
  if (format === 'jsonl') {
    return rows.map((r) => `${JSON.stringify({ id: r.id, receivedAt: r.receivedAt.toISOString(), report: r.body })}\n`).join('');
  }
  // Reports are other people's words: every cell passes the one CSV writer (formula characters neutralised).
  return rows.map((r) => {
    const body = (r.body ?? {}) as Record<string, unknown>;
    return csvRow(CSV_COLUMNS.map((column) => {
      if (column === 'id') return r.id;
      if (column === 'receivedAt') return r.receivedAt.toISOString();
      const value = body[column];
      if (value === undefined) return '';
      return typeof value === 'string' ? value : JSON.stringify(value);
    }));
  }).join('');
}

/** Writes the export to `out` and returns the number of reports written. */
export async function exportReports(db: Db, projectId: string, format: ExportFormat, out: Writable): Promise<number> {
  let count = 0;
  if (format === 'csv') await write(out, csvRow(CSV_COLUMNS));
  for await (const rows of reportBatches(db, projectId)) {
    await write(out, formatBatch(rows, format));
    count += rows.length;
  }
  return count;
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

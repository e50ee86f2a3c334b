// One database session for an import: its transaction, its temporary table and the rows streamed into that table.
// PostgreSQL: a connection of its own (the pool would hand each statement to any connection, and a temporary table
// lives in one session) and COPY FROM STDIN (pg-copy-streams) with back-pressure. The embedded database: PGlite's
// only session, rows in batches of one JSON parameter each (one statement per batch: each statement is work on this
// process's event loop, so fewer and larger is faster; PGlite's COPY reads one in-memory blob, not a stream).
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { Db } from '@arl/db';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** A row of the staging table: a listed company, or the domain of a refused line (kept so --prune spares it). */
export interface StagedRow {
  line: number;
  domain: string;
  name: string | null;
  website: string | null;
  categoryId: string | null;
  refused: boolean;
}

export interface Stager {
  add(row: StagedRow): Promise<void>;
  /** Sends what is buffered and ends the stream; the rows are in the table when it resolves. */
  finish(): Promise<void>;
}

export interface ImportSession {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  stage(table: string): Stager;
  close(): Promise<void>;
}

const COPY_CHUNK = 256 * 1024;
const INSERT_BATCH = 5_000;
const COLUMNS = 'line, domain, name, website, category_id, refused';

export async function openImportSession(db: Db): Promise<ImportSession> {
  return db.kind === 'postgres' ? openPostgresSession(db) : embeddedSession(db);
}

async function openPostgresSession(db: Db): Promise<ImportSession> {
  // connectionString carries the schema's search_path, so the session sees the same tables as the pool.
  const client = new pg.Client({ connectionString: db.connectionString!, connectionTimeoutMillis: 5_000 });
  await client.connect();
  // An error of the idle connection (the server going away) must not crash the process: the next query reports it.
  client.on('error', () => undefined);
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await client.query(sql, params)).rows as T[];
    },
    stage(table) {
      const stream = client.query(copyFrom(`COPY ${table} (${COLUMNS}) FROM STDIN WITH (FORMAT csv)`));
      const done = finished(stream);
      done.catch(() => undefined); // observed by finish(); a failure must not be unhandled meanwhile
      let buffer = '';
      const flush = async () => {
        const chunk = buffer;
        buffer = '';
        if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), done]);
      };
      return {
        async add(row) {
          buffer += `${row.line},${csv(row.domain)},${csv(row.name)},${csv(row.website)},${row.categoryId ?? ''},${row.refused ? 't' : 'f'}\n`;
          if (buffer.length >= COPY_CHUNK) await flush();
        },
        async finish() {
          if (buffer) await flush();
          stream.end();
          await done;
        },
      };
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}

function embeddedSession(db: Db): ImportSession {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await db.executeSql(sql, params)).rows as T[];
    },
    stage(table) {
      let batch: StagedRow[] = [];
      const flush = async () => {
        const rows = batch;
        batch = [];
        await db.executeSql(
          `INSERT INTO ${table} (${COLUMNS})
           SELECT line, domain, name, website, category_id, refused
           FROM json_to_recordset($1::json) AS r(line int, domain text, name text, website text, category_id uuid, refused boolean)`,
          [JSON.stringify(rows.map((r) => ({ line: r.line, domain: r.domain, name: r.name, website: r.website, category_id: r.categoryId, refused: r.refused })))],
        );
      };
      return {
        async add(row) {
          batch.push(row);
          if (batch.length >= INSERT_BATCH) await flush();
        },
        async finish() {
          if (batch.length > 0) await flush();
        },
      };
    },
    async close() {
      // PGlite's session belongs to the runtime, which closes it.
    },
  };
}

/** A CSV field of COPY: unquoted empty is NULL, anything else quoted with its quotes doubled. */
function csv(value: string | null): string {
  return value === null ? '' : `"${value.replace(/"/g, '""')}"`;
}

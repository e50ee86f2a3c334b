/**
 * A fresh, migrated database per test file.
 *
 * - Default: an in-memory PGlite. Creating PGlite and applying the migrations costs seconds, so the first call
 *   saves a dump of the freshly migrated database in the OS temp directory (keyed by the migrations' content and the
 *   PGlite version) and later calls, in any process, start from that dump in well under a second.
 * - With TEST_DATABASE_URL set (the one environment read of this package): a new, uniquely named schema in that
 *   PostgreSQL database, dropped by dispose().
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { createPgliteDb, createPostgresDb, pgliteOf, quoteIdent, type Db } from './db';
import { migrate, readMigrationsDir } from './migrate';
import { defaultMigrationsDir } from './paths';

export type TestDb = Db & {
  /** Closes the database; on PostgreSQL also drops the test schema. Idempotent. */
  dispose(): Promise<void>;
};

export interface TestDbOptions {
  migrationsDir?: string;
  /** Overrides TEST_DATABASE_URL (tests of the helper itself). `null` forces PGlite. */
  databaseUrl?: string | null;
}

let counter = 0;

/** A unique, valid PostgreSQL schema name: `t_<name>_<pid>_<random>`, at most 63 characters. */
export function testSchemaName(name = 'test'): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 30) || 'test';
  counter += 1;
  return `t_${slug}_${process.pid}_${counter}_${crypto.randomBytes(4).toString('hex')}`.slice(0, 63);
}

export async function createTestDb(name?: string, options: TestDbOptions = {}): Promise<TestDb> {
  const migrationsDir = options.migrationsDir ?? defaultMigrationsDir();
  const databaseUrl = options.databaseUrl === undefined ? process.env.TEST_DATABASE_URL : options.databaseUrl;
  return databaseUrl ? createPostgresTestDb(databaseUrl, name, migrationsDir) : createPgliteTestDb(migrationsDir);
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  } finally {
    await client.end();
  }
}

async function createPostgresTestDb(databaseUrl: string, name: string | undefined, migrationsDir: string): Promise<TestDb> {
  const schema = testSchemaName(name);
  const db = await createPostgresDb(databaseUrl, { schema });
  const baseUrl = new URL(databaseUrl);
  baseUrl.searchParams.delete('schema');
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= (async () => {
      await db.close();
      await dropSchema(baseUrl.toString(), schema);
    })();
    return disposed;
  };
  try {
    await migrate(db, { migrationsDir });
  } catch (err) {
    await dispose().catch(() => undefined);
    throw err;
  }
  return Object.assign(db, { dispose });
}

let templateMemo: { key: string; blob: Blob } | undefined;

function templateKey(migrationsDir: string): string {
  const hash = crypto.createHash('sha256');
  // The package's exports hide package.json: read it next to the resolved entry (dist/index.cjs).
  const manifest = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const pgliteVersion = fs.existsSync(manifest) ? (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string }).version : '?';
  hash.update(`pglite ${pgliteVersion}\n`);
  for (const dir of readMigrationsDir(migrationsDir).migrationDirectories) {
    hash.update(`${dir.path}\n`);
    hash.update(dir.migrationFile.content.value);
  }
  return hash.digest('hex').slice(0, 24);
}

async function createPgliteTestDb(migrationsDir: string): Promise<TestDb> {
  const key = templateKey(migrationsDir);
  const file = path.join(os.tmpdir(), `arl-db-template-${key}.tar`);
  let blob = templateMemo?.key === key ? templateMemo.blob : undefined;
  if (!blob && fs.existsSync(file)) {
    try {
      blob = new Blob([fs.readFileSync(file)]);
      templateMemo = { key, blob };
    } catch {
      blob = undefined;
    }
  }

  let db: Db | undefined;
  if (blob) {
    try {
      db = await createPgliteDb({ dataDir: 'memory://' }, { loadDataDir: blob });
      await migrate(db, { migrationsDir }); // a no-op unless the template is stale
    } catch {
      await db?.close().catch(() => undefined);
      db = undefined; // unusable template: rebuild below
    }
  }
  if (!db) {
    db = await createPgliteDb({ dataDir: 'memory://' });
    await migrate(db, { migrationsDir });
    try {
      const dump = await pgliteOf.get(db)!.dumpDataDir('none');
      const bytes = Buffer.from(await dump.arrayBuffer());
      const tmp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
      fs.writeFileSync(tmp, bytes);
      fs.renameSync(tmp, file); // atomic: concurrent Jest workers never read a partial file
      templateMemo = { key, blob: new Blob([bytes]) };
    } catch {
      // caching is an optimization only
    }
  }
  const testDb = db;
  return Object.assign(testDb, { dispose: () => testDb.close() });
}

import fs from 'node:fs';
import path from 'node:path';

import { createDb, migrate, MigrationError, type Db } from '../src';
import { testSchemaName } from '../src/testing';
import { defaultMigrationsDir } from '../src/paths';
import { copyMigrations, describeIfPostgres, listMigrations, sha256, TEST_DATABASE_URL } from './helpers';

const all = listMigrations();

async function migrationRows(db: Db) {
  const { rows } = await db.executeSql(
    'SELECT migration_name, checksum, finished_at, rolled_back_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
  );
  return rows as Array<{ migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown }>;
}

function expectChecksums(rows: Awaited<ReturnType<typeof migrationRows>>, migrationsDir = defaultMigrationsDir()) {
  for (const row of rows) {
    const sql = fs.readFileSync(path.join(migrationsDir, row.migration_name, 'migration.sql'), 'utf8');
    expect(row.checksum).toBe(sha256(sql));
    expect(row.finished_at).not.toBeNull();
    expect(row.rolled_back_at).toBeNull();
  }
}

test('the repository has an initial migration and a lock file', () => {
  expect(all.length).toBeGreaterThanOrEqual(1);
  expect(all[0]).toMatch(/^\d{14}_init$/);
  expect(fs.readFileSync(path.join(defaultMigrationsDir(), 'migration_lock.toml'), 'utf8')).toContain('provider = "postgresql"');
});

describe('migrate() on PGlite', () => {
  let db: Db;
  const dir = copyMigrations();

  beforeAll(async () => {
    db = await createDb({ dataDir: 'memory://' });
  });
  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('applies every migration once, then nothing', async () => {
    expect(await migrate(db, { migrationsDir: dir })).toEqual({ applied: all });
    expect(await migrate(db, { migrationsDir: dir })).toEqual({ applied: [] });
    const rows = await migrationRows(db);
    expect(rows.map((r) => r.migration_name)).toEqual(all);
    expectChecksums(rows, dir);
    // The schema is usable through Prisma.
    await db.prisma.category.create({ data: { slug: 'x', name: 'X' } });
    expect(await db.prisma.category.count()).toBe(1);
  });

  test('concurrent calls on one Db are serialized and apply nothing twice', async () => {
    const results = await Promise.all([migrate(db, { migrationsDir: dir }), migrate(db, { migrationsDir: dir })]);
    expect(results).toEqual([{ applied: [] }, { applied: [] }]);
  });

  test('a new migration folder applies alone', async () => {
    fs.mkdirSync(path.join(dir, '29990101000000_extra'));
    fs.writeFileSync(path.join(dir, '29990101000000_extra', 'migration.sql'), 'CREATE TABLE "extra" ("id" INTEGER PRIMARY KEY);\n');
    expect(await migrate(db, { migrationsDir: dir })).toEqual({ applied: ['29990101000000_extra'] });
    expect((await db.executeSql('SELECT count(*)::int AS n FROM "extra"')).rows).toEqual([{ n: 0 }]);
  });

  test('a failing migration throws MigrationError, is recorded, and blocks later runs (P3009)', async () => {
    fs.mkdirSync(path.join(dir, '29990102000000_broken'));
    fs.writeFileSync(path.join(dir, '29990102000000_broken', 'migration.sql'), 'ALTER TABLE "no_such_table" ADD COLUMN "x" INTEGER;\n');
    const first = await migrate(db, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(MigrationError);
    expect((first as Error).message).toMatch(/no_such_table/);
    const second = await migrate(db, { migrationsDir: dir }).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(MigrationError);
    expect((second as MigrationError).code).toBe('P3009');
    // The database is still usable afterwards (no lock or transaction left behind).
    expect((await db.executeSql('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});

describeIfPostgres('migrate() on PostgreSQL', () => {
  const url = TEST_DATABASE_URL!;
  const schema = testSchemaName('migrate');
  const dbs: Db[] = [];
  const open = async () => {
    const db = await createDb({ databaseUrl: url, schema });
    dbs.push(db);
    return db;
  };

  afterAll(async () => {
    const admin = await createDb({ databaseUrl: url });
    await admin.executeSql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.close();
    await Promise.all(dbs.map((db) => db.close()));
  });

  test('two concurrent migrate() calls (separate pools, like two processes) apply each migration once', async () => {
    const [a, b] = [await open(), await open()];
    const started = Date.now();
    const results = await Promise.all([migrate(a), migrate(b)]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect([...results[0].applied, ...results[1].applied].sort()).toEqual(all);
    const rows = await migrationRows(a);
    expect(rows.map((r) => r.migration_name)).toEqual(all);
    expectChecksums(rows);
  });

  test('a second run applies nothing', async () => {
    expect(await migrate(await open())).toEqual({ applied: [] });
  });

  test('the tables live in the requested schema, and Prisma and executeSql use it', async () => {
    const db = dbs[0];
    // Other schemas of the shared test database (other suites, benchmarks) may hold the same tables: look at ours.
    const { rows } = await db.executeSql(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name IN ('categories', '_prisma_migrations') ORDER BY table_name",
      [schema],
    );
    expect(rows).toEqual([{ table_name: '_prisma_migrations' }, { table_name: 'categories' }]);
    expect((await db.executeSql('SELECT current_schema() AS s')).rows).toEqual([{ s: schema }]);
    await db.prisma.category.create({ data: { slug: 'in-schema', name: 'In schema' } });
    expect((await db.executeSql('SELECT slug FROM categories')).rows).toEqual([{ slug: 'in-schema' }]);
    expect(db.connectionString).toContain('search_path');
  });
});

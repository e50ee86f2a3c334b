import fs from 'node:fs';
import path from 'node:path';

import { createDb, migrate } from '../src';
import { tempDir } from './helpers';

test('PGlite in a data directory persists across close and reopen; executeSql runs statements and scripts', async () => {
  const root = tempDir('pglite');
  const dataDir = path.join(root, 'nested', 'data'); // created if missing
  try {
    const first = await createDb({ dataDir });
    expect(first.kind).toBe('pglite');
    expect(first.connectionString).toBeNull();
    expect(first.schema).toBe('public');
    expect(await migrate(first)).toEqual({ applied: expect.arrayContaining([expect.stringMatching(/_init$/)]) });
    const category = await first.prisma.category.create({ data: { slug: 'persisted', name: 'Persisted' } });

    // executeSql: one statement with parameters, and a multi-statement script without.
    expect((await first.executeSql('SELECT slug FROM categories WHERE id = $1', [category.id])).rows).toEqual([{ slug: 'persisted' }]);
    expect((await first.executeSql('CREATE TABLE scratch (n int); INSERT INTO scratch VALUES (1), (2); SELECT sum(n)::int AS total FROM scratch')).rows).toEqual([
      { total: 3 },
    ]);
    await first.close();
    await first.close(); // idempotent
    expect(fs.existsSync(dataDir)).toBe(true);

    const second = await createDb({ dataDir });
    try {
      expect(await migrate(second)).toEqual({ applied: [] });
      expect(await second.prisma.category.findUnique({ where: { slug: 'persisted' } })).toMatchObject({ id: category.id, name: 'Persisted' });
      // Interactive transactions work on PGlite's single connection when everything goes through `tx`.
      await second.prisma.$transaction(async (tx) => {
        await tx.category.update({ where: { slug: 'persisted' }, data: { name: 'Renamed' } });
        expect(await tx.category.count()).toBe(1);
      });
      expect((await second.prisma.category.findUniqueOrThrow({ where: { slug: 'persisted' } })).name).toBe('Renamed');
    } finally {
      await second.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  // Every migration goes through the WASM schema engine on a fresh data directory (eleven of them now), twice: about
  // 40 s on a loaded 2-core machine; the base config's deadline (a guard for a hang, not a speed target) covers it.
});

test('invalid options fail with a clear message', async () => {
  await expect(createDb({ dataDir: 'memory://', schema: 'bad name; drop' })).rejects.toThrow(/invalid PostgreSQL schema name/);
  await expect(createDb({ databaseUrl: 'mysql://localhost/db' })).rejects.toThrow(/must start with postgresql:\/\//);
});

// PGlite 0.4.3 stopped for good once the WAL written since the last checkpoint reached the volume at which PostgreSQL
// requests a checkpoint (about half of max_wal_size): the request waited for a checkpointer that the embedded build
// does not run (fixed in 0.4.4). With the default max_wal_size that is ~540 MB of writes, e.g. seeding the benchmark's
// 25,000th realistic company; here max_wal_size is lowered so a few tens of megabytes reach it.
test('PGlite keeps accepting writes past the WAL volume that requests a checkpoint', async () => {
  const dataDir = tempDir('pglite-wal');
  try {
    const setup = await createDb({ dataDir });
    await setup.executeSql(`ALTER SYSTEM SET max_wal_size = '32MB'`);
    await setup.executeSql(`ALTER SYSTEM SET min_wal_size = '32MB'`);
    await setup.close();
    const db = await createDb({ dataDir });
    try {
      expect((await db.executeSql('SHOW max_wal_size')).rows).toEqual([{ max_wal_size: '32MB' }]);
      await db.executeSql('CREATE TABLE filler (n int, pad text)');
      // 8 x ~10 MB of rows: several times the checkpoint volume.
      for (let i = 0; i < 8; i++) {
        await db.executeSql(`INSERT INTO filler SELECT g, repeat(md5(g::text), 8) FROM generate_series(${i * 30_000}, ${i * 30_000 + 29_999}) g`);
      }
      expect((await db.executeSql('SELECT count(*)::int AS n FROM filler')).rows).toEqual([{ n: 240_000 }]);
    } finally {
      await db.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

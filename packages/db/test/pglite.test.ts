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
});

test('invalid options fail with a clear message', async () => {
  await expect(createDb({ dataDir: 'memory://', schema: 'bad name; drop' })).rejects.toThrow(/invalid PostgreSQL schema name/);
  await expect(createDb({ databaseUrl: 'mysql://localhost/db' })).rejects.toThrow(/must start with postgresql:\/\//);
});

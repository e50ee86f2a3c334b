import { createDb, createTestDb } from '../src';
import { describeIfPostgres, TEST_DATABASE_URL } from './helpers';

describeIfPostgres('createTestDb on PostgreSQL', () => {
  test('two test databases are isolated schemas, dropped by dispose()', async () => {
    const [a, b] = await Promise.all([
      createTestDb('iso-a', { databaseUrl: TEST_DATABASE_URL }),
      createTestDb('iso-b', { databaseUrl: TEST_DATABASE_URL }),
    ]);
    try {
      expect(a.kind).toBe('postgres');
      expect(a.schema).not.toBe(b.schema);
      await a.prisma.category.create({ data: { slug: 'only-in-a', name: 'A' } });
      await b.prisma.category.create({ data: { slug: 'only-in-b', name: 'B' } });
      expect((await a.prisma.category.findMany()).map((c) => c.slug)).toEqual(['only-in-a']);
      expect((await b.prisma.category.findMany()).map((c) => c.slug)).toEqual(['only-in-b']);
      expect((await b.executeSql('SELECT slug FROM categories')).rows).toEqual([{ slug: 'only-in-b' }]);
    } finally {
      await Promise.all([a.dispose(), b.dispose()]);
      await a.dispose(); // idempotent
    }
    const admin = await createDb({ databaseUrl: TEST_DATABASE_URL });
    try {
      const { rows } = await admin.executeSql('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1)', [[a.schema, b.schema]]);
      expect(rows).toEqual([]);
    } finally {
      await admin.close();
    }
  });
});

test('createTestDb defaults to a migrated in-memory PGlite', async () => {
  const db = await createTestDb('pglite', { databaseUrl: null });
  try {
    expect(db.kind).toBe('pglite');
    expect(await db.prisma.company.count()).toBe(0);
    const { rows } = await db.executeSql('SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL');
    expect(rows[0].n).toBeGreaterThanOrEqual(1);
  } finally {
    await db.dispose();
  }
});

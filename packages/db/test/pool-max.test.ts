// poolMax (issue 30): the PostgreSQL pool opens as many connections as asked; it was fixed at pg's default of 10,
// which kept 4.5-7 queries of a worker at SCAN_CONCURRENCY 32 waiting for a connection.
import { createDb } from '../src';
import { describeIfPostgres, TEST_DATABASE_URL } from './helpers';

describeIfPostgres('poolMax', () => {
  test('14 queries at once on a pool of 14: none waits for a connection', async () => {
    const db = await createDb({ databaseUrl: TEST_DATABASE_URL, poolMax: 14 });
    try {
      const sleeping = Array.from({ length: 14 }, () => db.executeSql('SELECT pg_sleep(0.3)'));
      await new Promise((r) => setTimeout(r, 150));
      expect(db.poolStats()).toMatchObject({ total: 14, waiting: 0 });
      await Promise.all(sleeping);
    } finally {
      await db.close();
    }
  });

  test('unset, the pool keeps 10 connections (pg default), the rest wait', async () => {
    const db = await createDb({ databaseUrl: TEST_DATABASE_URL });
    try {
      const sleeping = Array.from({ length: 12 }, () => db.executeSql('SELECT pg_sleep(0.3)'));
      await new Promise((r) => setTimeout(r, 150));
      expect(db.poolStats()).toMatchObject({ total: 10, waiting: 2 });
      await Promise.all(sleeping);
    } finally {
      await db.close();
    }
  });
});

// poolMax (issue 30): the PostgreSQL pool opens as many connections as asked; it was fixed at pg's default of 10,
// which kept 4.5-7 queries of a worker at SCAN_CONCURRENCY 32 waiting for a connection.
import { createDb, type Db } from '../src';
import { describeIfPostgres, TEST_DATABASE_URL } from './helpers';

/**
 * The pool's counts once every query has reached it (a connection or a place in the queue): polled, not read after a
 * fixed sleep, which on a loaded machine could come after the first queries ended and the queue moved on. The deadline
 * only catches a hang.
 */
async function statsOnceAllArrived(db: Db, queries: number): Promise<ReturnType<Db['poolStats']>> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const stats = db.poolStats();
    // idle 0: no idle connection is about to be handed to a queued query (pg-pool does that on the next tick).
    if (stats && stats.idle === 0 && stats.total + stats.waiting >= queries) return stats;
    if (Date.now() > deadline) throw new Error(`the ${queries} queries did not all reach the pool: ${JSON.stringify(stats)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describeIfPostgres('poolMax', () => {
  test('14 queries at once on a pool of 14: none waits for a connection', async () => {
    const db = await createDb({ databaseUrl: TEST_DATABASE_URL, poolMax: 14 });
    try {
      const sleeping = Array.from({ length: 14 }, () => db.executeSql('SELECT pg_sleep(0.3)'));
      expect(await statsOnceAllArrived(db, 14)).toMatchObject({ total: 14, waiting: 0 });
      await Promise.all(sleeping);
    } finally {
      await db.close();
    }
  });

  test('unset, the pool keeps 10 connections (pg default), the rest wait', async () => {
    const db = await createDb({ databaseUrl: TEST_DATABASE_URL });
    try {
      const sleeping = Array.from({ length: 12 }, () => db.executeSql('SELECT pg_sleep(0.3)'));
      expect(await statsOnceAllArrived(db, 12)).toMatchObject({ total: 10, waiting: 2 });
      await Promise.all(sleeping);
    } finally {
      await db.close();
    }
  });
});

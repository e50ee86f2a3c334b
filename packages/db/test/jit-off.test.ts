// JIT is off on every PostgreSQL connection we open (the pool's and the URL handed to other clients): with it on, a
// details chunk at a million companies spent 404 ms compiling for 16 ms of work (packages/db/src/db.ts).
import pg from 'pg';
import { createDb } from '../src';
import { describeIfPostgres, TEST_DATABASE_URL } from './helpers';

describeIfPostgres('jit', () => {
  test('the pool and the connection string both open sessions with jit off and the schema on the search path', async () => {
    const db = await createDb({ databaseUrl: TEST_DATABASE_URL, schema: 'jit_off_test' });
    try {
      const pooled = await db.executeSql('SHOW jit');
      expect(pooled.rows[0]).toEqual({ jit: 'off' });
      const client = new pg.Client({ connectionString: db.connectionString! });
      await client.connect();
      try {
        const shown = await client.query('SHOW jit');
        expect(shown.rows[0]).toEqual({ jit: 'off' });
        const path = await client.query('SHOW search_path');
        expect(path.rows[0].search_path).toBe('jit_off_test');
      } finally {
        await client.end();
      }
    } finally {
      await db.close();
    }
  });
});

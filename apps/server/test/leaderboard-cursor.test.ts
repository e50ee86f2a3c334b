// Keyset cursors: a walk over many equal scores neither skips nor repeats, also while companies are added.
import type { LeaderboardOperations } from '@arl/contract';
import request from 'supertest';
import { expectErrorBody, startTestServer, type TestServer } from './support/harness';
import { insertCompany } from './support/fixtures';

let t: TestServer;
const SAME_TIME = new Date('2026-11-20T00:00:00.000Z');

beforeAll(async () => {
  t = await startTestServer();
  for (let i = 0; i < 40; i++) {
    // Three score levels and identical scan times: ties all the way down to the name and id.
    await insertCompany(t.runtime.db, {
      name: `Tie ${String(i % 7).padStart(2, '0')}`,
      domain: `tie-${i}.com`,
      score: [50, 60, 70][i % 3],
      scannedAt: SAME_TIME,
      category: i % 2 ? 'odd' : 'even',
    });
  }
});
afterAll(() => t.close());

type Query = Pick<NonNullable<LeaderboardOperations['listLeaderboard']['parameters']['query']>, 'sort' | 'order' | 'category' | 'q'>;

async function walk(query: Query, limit: number, between?: (page: number) => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const { data, error } = await t.client.GET('/v1/leaderboard', { params: { query: { ...query, limit, cursor } } });
    if (error) throw new Error(JSON.stringify(error));
    seen.push(...data!.items.map((i) => i.company.domain));
    if (!data!.nextCursor) return seen;
    cursor = data!.nextCursor;
    await between?.(page);
  }
  throw new Error('walk did not end');
}

test.each<[Query, number]>([
  [{}, 7],
  [{ order: 'asc' }, 6],
  [{ sort: 'company' }, 5],
  [{ sort: 'company', order: 'desc' }, 9],
  [{ sort: 'category' }, 4],
  [{ sort: 'scanned' }, 3],
  [{ category: 'odd' }, 4],
  [{ q: 'tie 03' }, 2],
])('walk %o with limit %i matches the single page exactly', async (query, limit) => {
  const { data } = await t.client.GET('/v1/leaderboard', { params: { query: { ...query, limit: 100 } } });
  const all = data!.items.map((i) => i.company.domain);
  expect(data!.total).toBe(all.length);
  expect(await walk(query, limit)).toEqual(all);
});

test('companies inserted during a walk never cause a repeat or a skip of the original ones', async () => {
  const before = (await t.client.GET('/v1/leaderboard', { params: { query: { limit: 100 } } })).data!.items.map((i) => i.company.domain);
  let added = 0;
  const seen = await walk({}, 6, async () => {
    await insertCompany(t.runtime.db, { name: `Late ${added}`, domain: `late-${added++}.com`, score: 60, scannedAt: SAME_TIME });
    t.runtime.leaderboard.invalidate();
  });
  expect(new Set(seen).size).toBe(seen.length);
  for (const domain of before) expect(seen).toContain(domain);
});

test('a cursor is bound to its query and cannot be altered', async () => {
  const { data } = await t.client.GET('/v1/leaderboard', { params: { query: { limit: 5 } } });
  const cursor = data!.nextCursor!;
  expect(cursor.length).toBeLessThanOrEqual(2048);
  expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard').query({ cursor, sort: 'company' }), 400, 'invalid_cursor');
  expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard').query({ cursor, category: 'odd' }), 400, 'invalid_cursor');
  const [body, sig] = cursor.split('.');
  const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), k: [100, 0, 'a', 'b'] })).toString('base64url');
  expectErrorBody(await request(t.leaderboardUrl).get('/v1/leaderboard').query({ cursor: `${forged}.${sig}` }), 400, 'invalid_cursor');
  // A different page size with the same query is fine.
  expect((await request(t.leaderboardUrl).get('/v1/leaderboard').query({ cursor, limit: 3 })).status).toBe(200);
});

// DATABASE_POOL_MAX and the default pool size (issue 30): a worker's pool grows with SCAN_CONCURRENCY under a cap that
// keeps two workers and two API processes under PostgreSQL's default max_connections; an explicit value wins.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../src/config';
import { BASE_POOL_MAX, WORKER_POOL_CAP, databasePoolMax } from '../src/jobs/pool-size';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arl-pool-size-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: dir, ...env });

test('a worker pool grows with SCAN_CONCURRENCY up to the cap; an API process keeps 10', () => {
  expect(databasePoolMax(config({}), true)).toBe(11); // SCAN_CONCURRENCY 2
  expect(databasePoolMax(config({ SCAN_CONCURRENCY: '32' }), true)).toBe(26);
  expect(databasePoolMax(config({ SCAN_CONCURRENCY: '64' }), true)).toBe(WORKER_POOL_CAP);
  expect(databasePoolMax(config({ SCAN_CONCURRENCY: '64' }), false)).toBe(BASE_POOL_MAX);
  // Two capped workers and two API processes, each with a listener and a migration connection, fit in 100 - 3.
  expect(2 * (WORKER_POOL_CAP + 2) + 2 * (BASE_POOL_MAX + 2)).toBeLessThanOrEqual(97);
});

test('DATABASE_POOL_MAX overrides the default and is checked', () => {
  expect(config({}).databasePoolMax).toBeNull();
  expect(databasePoolMax(config({ DATABASE_POOL_MAX: '50', SCAN_CONCURRENCY: '64' }), true)).toBe(50);
  expect(databasePoolMax(config({ DATABASE_POOL_MAX: '4' }), false)).toBe(4);
  expect(() => config({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX must be an integer from 1 to 500/);
});

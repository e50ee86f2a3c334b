// How many PostgreSQL connections a process's pool may open (issue 30). pg's default of 10 suits an API process
// (short statements), but a worker at SCAN_CONCURRENCY 32 had 4.5-7 queries waiting for one of its 10 connections on
// average, and at 64 lease renewals timed out and jobs ran twice: every scan writes its steps, its ending transaction
// (about ten statements, each waiting on a busy event loop) and its lease renewals while the others do.
import type { Config } from '../config';

/** pg's own default: an API process, or a worker running a few scans. */
export const BASE_POOL_MAX = 10;
/**
 * The most a worker takes unless DATABASE_POOL_MAX says otherwise: two workers (2 x 30) and two API processes
 * (2 x 10), plus each process's listening and migration connections, stay under PostgreSQL's default
 * max_connections of 100 (3 of which are kept for superusers).
 */
export const WORKER_POOL_CAP = 30;

/**
 * DATABASE_POOL_MAX when set; else 10 for a process without the worker, and 10 + one connection per two scans in
 * flight for a process with it (SCAN_CONCURRENCY 32: 26, 64: 30 by the cap).
 */
export function databasePoolMax(config: Pick<Config, 'databasePoolMax'> & { scan: Pick<Config['scan'], 'concurrency'> }, runsWorker: boolean): number {
  if (config.databasePoolMax !== null) return config.databasePoolMax;
  if (!runsWorker) return BASE_POOL_MAX;
  return Math.min(WORKER_POOL_CAP, BASE_POOL_MAX + Math.ceil(config.scan.concurrency / 2));
}

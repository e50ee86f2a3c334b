// Fixed-window rate limiting shared by every host that needs one (feedback reports, scans).
//
// - Embedded database (PGlite): one process owns the data, so the counters live in memory (rate-limiter-flexible's
//   RateLimiterMemory).
// - PostgreSQL: several API processes may serve one deployment, so the counters live in the `rate_limit_windows`
//   table and one atomic upsert per request both counts and reads the window. The table is owned by our migrations
//   (rate-limiter-flexible's RateLimiterPostgres would create a table of its own at run time).
//
// A window is `durationSeconds` long and aligned to the epoch; the 429 carries Retry-After = seconds to its end.
import type { Db } from '@arl/db';
import type { Request } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from './errors';

export interface RateLimiterOptions {
  /** Requests allowed per window and key; 0 disables the limiter. */
  points: number;
  durationSeconds: number;
  /** Namespaces the keys of one limiter (e.g. "feedback-client"); at most 60 characters. */
  keyPrefix: string;
  /** Message of the 429 body. */
  message?: string;
}

export interface RateLimiter {
  /** Counts one request for `key`; throws ApiError 429 (with Retry-After) when the window is used up. */
  consume(key: string): Promise<void>;
}

/**
 * The client a per-client limit counts: the socket's peer address (Express's req.ip; behind a proxy that is the
 * proxy unless `trust proxy` is set). Both hosts use this one notion, so a limit shared by them (scans: POST
 * /v1/leaderboard/scans and disputes on the feedback host) counts one client once.
 */
export function clientAddress(req: Pick<Request, 'ip' | 'socket'>): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

const PURGE_EVERY_MS = 60_000;
const MAX_KEY = 200;

export function createRateLimiter(options: RateLimiterOptions, deps: { db: Db }): RateLimiter {
  const { points, durationSeconds, keyPrefix } = options;
  if (!Number.isInteger(points) || points < 0) throw new Error('createRateLimiter: points must be an integer >= 0');
  if (!Number.isInteger(durationSeconds) || durationSeconds < 1) throw new Error('createRateLimiter: durationSeconds must be an integer >= 1');
  if (keyPrefix.length === 0 || keyPrefix.length > 60) throw new Error('createRateLimiter: keyPrefix must be 1..60 characters');
  const message = options.message ?? 'Too many requests; try again later.';
  if (points === 0) return { consume: async () => undefined };
  return deps.db.kind === 'postgres'
    ? postgresLimiter(deps.db, points, durationSeconds, keyPrefix, message)
    : memoryLimiter(points, durationSeconds, keyPrefix, message);
}

function memoryLimiter(points: number, durationSeconds: number, keyPrefix: string, message: string): RateLimiter {
  const limiter = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix });
  return {
    async consume(key) {
      try {
        await limiter.consume(key.slice(0, MAX_KEY));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw rateLimited(rejection.msBeforeNext / 1000, message);
        throw rejection;
      }
    },
  };
}

function postgresLimiter(db: Db, points: number, durationSeconds: number, keyPrefix: string, message: string): RateLimiter {
  const windowMs = durationSeconds * 1000;
  let lastPurge = 0;
  return {
    async consume(key) {
      const now = Date.now();
      const windowStart = Math.floor(now / windowMs) * windowMs;
      const windowEnd = windowStart + windowMs;
      const { rows } = await db.executeSql(
        `INSERT INTO rate_limit_windows (key, window_start, count, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limit_windows.count + 1
         RETURNING count`,
        [`${keyPrefix}:${key}`.slice(0, MAX_KEY), new Date(windowStart), new Date(windowEnd)],
      );
      if (now - lastPurge > PURGE_EVERY_MS) {
        lastPurge = now;
        // Old windows are dead weight; any process may sweep them, and a failed sweep only waits for the next one.
        void db.executeSql('DELETE FROM rate_limit_windows WHERE expires_at < $1', [new Date(now)]).catch(() => undefined);
      }
      if (Number(rows[0]?.count) > points) throw rateLimited((windowEnd - now) / 1000, message);
    },
  };
}

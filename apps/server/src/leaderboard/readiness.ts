// Whether this process's reads can be trusted: an API process that cannot hear changes (its LISTEN connection down
// for more than a moment, or catching up after a reconnection) or whose last check against the database is old
// answers from an index that may be stale, so /readyz says so and a load balancer drains it. Reads keep answering
// from memory meanwhile (a client that reaches the process anyway gets the last known ranking, not an error).
import type { ChangeFeed } from '../changes';
import { NotReady } from '../health';
import type { LeaderboardService } from './service';

/** A feed down for less than this is a blip (a reconnection takes ~250 ms), not a reason to drain. */
export const FEED_GRACE_MS = 3_000;

export function assertHearsChanges(changes: ChangeFeed, leaderboard: LeaderboardService, checkEveryMs: number, now = Date.now()): void {
  const fresh = leaderboard.freshness();
  // A process without an index (a worker, or an API process before its first read) answers no read from memory.
  if (!fresh.loaded) return;
  const feed = changes.status();
  const down = Math.round((now - feed.since) / 1000);
  if (feed.state === 'catching-up') throw new NotReady('The leaderboard is catching up on changes missed while its change feed was down.');
  if (feed.state !== 'live' && now - feed.since > FEED_GRACE_MS) {
    throw new NotReady(`The leaderboard's change feed has been down for ${down} s; its reads may be stale.`);
  }
  const stale = checkEveryMs > 0 && fresh.lastCheckAt !== null && now - fresh.lastCheckAt > Math.max(3 * checkEveryMs, 10_000);
  if (stale) throw new NotReady(`The leaderboard has not been checked against the database for ${Math.round((now - fresh.lastCheckAt!) / 1000)} s.`);
}
